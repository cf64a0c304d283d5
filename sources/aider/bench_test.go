package aider

import (
	"strings"
	"testing"

	"ctx/core"
)

func BenchmarkParse(b *testing.B) {
	data := strings.Repeat(readFixture(b), 8)
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, err := ParseReader(strings.NewReader(data), core.SourceFile{Provider: ProviderID, Path: "bench.md"}); err != nil {
			b.Fatal(err)
		}
	}
}
