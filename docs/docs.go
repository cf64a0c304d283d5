// Package docs embeds the user-facing documents that ctx docs show serves.
package docs

import (
	"embed"
	"io/fs"
	"sort"
	"strings"
)

//go:embed *.md
var files embed.FS

// Topics returns the topic names, sorted.
func Topics() []string {
	entries, _ := fs.ReadDir(files, ".")
	var out []string
	for _, e := range entries {
		out = append(out, strings.TrimSuffix(e.Name(), ".md"))
	}
	sort.Strings(out)
	return out
}

// Show returns a topic's text.
func Show(topic string) (string, bool) {
	b, err := files.ReadFile(topic + ".md")
	return string(b), err == nil
}
