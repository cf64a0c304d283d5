package copilot

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"ctx/core"
)

func BenchmarkParse(b *testing.B) {
	data, err := os.ReadFile(filepath.Join(fixtureDir(b), filepath.FromSlash(fixtureLog)))
	if err != nil {
		b.Fatal(err)
	}
	data = bytes.Repeat(data, 8)
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, err := ParseReader(bytes.NewReader(data), core.SourceFile{Provider: ProviderID, Path: "bench.jsonl"}, nil); err != nil {
			b.Fatal(err)
		}
	}
}
