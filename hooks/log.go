package hooks

import (
	"os"

	"ctx/store"
)

// LogTail returns the last n lines of the hooks log.
func LogTail(home string, n int) []string {
	data, err := os.ReadFile(store.At(home).HooksLog())
	if err != nil {
		return nil
	}
	var lines []string
	start := 0
	for i, b := range data {
		if b == '\n' {
			lines = append(lines, string(data[start:i]))
			start = i + 1
		}
	}
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return lines
}
