package claude

import (
	"bytes"
	"os"
	"testing"

	"ctx/core"
)

// BenchmarkParse parses every fixture from memory and reports lines/s.
func BenchmarkParse(b *testing.B) {
	type input struct {
		f    core.SourceFile
		data []byte
	}
	var inputs []input
	var lineCount, size int
	for _, path := range fixtureFiles(b) {
		data, err := os.ReadFile(path)
		if err != nil {
			b.Fatal(err)
		}
		inputs = append(inputs, input{core.SourceFile{Path: path}, data})
		lineCount += bytes.Count(data, []byte{'\n'})
		size += len(data)
	}
	b.SetBytes(int64(size))
	b.ResetTimer()
	for b.Loop() {
		for _, in := range inputs {
			if _, err := ParseReader(bytes.NewReader(in.data), in.f, nil); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(lineCount)*float64(b.N)/b.Elapsed().Seconds(), "lines/s")
}
