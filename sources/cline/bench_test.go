package cline

import (
	"os"
	"path/filepath"
	"testing"

	"ctx/core"
)

func BenchmarkParseAPI(b *testing.B) {
	path := filepath.Join(fixtureDir(b), "tasks", "1777073160794", APIFile)
	data, err := os.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	p, f := NewCline(), core.SourceFile{Provider: ProviderCline, Path: path}
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if res := p.ParseTask(Task{Primary: data}, f); len(res.Sessions) != 1 {
			b.Fatal("no session")
		}
	}
}
