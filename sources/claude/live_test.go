package claude

import (
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"ctx/core"
	"ctx/internal/corpus"
	"ctx/sources/sourcestest"
)

// A transcript written a piece at a time, each piece read by the parse
// held open since the last, gives at every step what a parse of the
// whole file gives: on the generated corpus's long sessions (many chunks,
// tool calls, streamed messages), with the default windows and with
// windows cut to one chunk, where records reach back past settled events
// and the parse starts over.
func TestLiveEqualsWhole(t *testing.T) {
	home := t.TempDir()
	if _, err := corpus.Generate(home, corpus.Options{Events: 20000, Seed: 5, Providers: []string{core.ProviderClaude}}); err != nil {
		t.Fatal(err)
	}
	var files []string
	_ = filepath.WalkDir(home, func(p string, d fs.DirEntry, err error) error {
		if err == nil && strings.HasSuffix(p, ".jsonl") && !strings.Contains(p, "subagents") {
			if fi, _ := d.Info(); fi != nil && fi.Size() > 256<<10 {
				files = append(files, p)
			}
		}
		return err
	})
	if len(files) < 3 {
		t.Fatalf("%d long corpus files", len(files))
	}
	slices.SortFunc(files, func(a, b string) int { return fileSize(b) - fileSize(a) })
	files = files[:3]
	for i, p := range files { // past the default window of pending events
		if _, err := corpus.Append(p, 2500, int64(i)); err != nil {
			t.Fatal(err)
		}
	}
	sourcestest.LiveEqualsWhole(t, New(), files, func() { narrow(t, core.ChunkSize, core.ChunkSize, 1<<10) })
}

func fileSize(p string) int {
	fi, err := os.Stat(p)
	if err != nil {
		return 0
	}
	return int(fi.Size())
}

// Every fixture grown a piece at a time gives what the whole parse gives,
// with windows of one chunk, so that the longer ones settle events.
func TestLiveEqualsWholeOnFixtures(t *testing.T) {
	narrow(t, core.ChunkSize, core.ChunkSize, 1<<10)
	r := rand.New(rand.NewPCG(3, 4))
	for _, p := range fixtureFiles(t) {
		if strings.Contains(p, "subagents") {
			continue
		}
		data, err := os.ReadFile(p)
		if err != nil || len(data) < 2 {
			continue
		}
		sourcestest.GrowLive(t, New(), p, t.TempDir(), sourcestest.CutsOf(data, 6, r))
	}
}

// A parse held open goes on only with the file it read: one replaced by
// another, cut shorter, or changed before where it stopped asks for the
// whole parse.
func TestLiveRefusesAnotherFile(t *testing.T) {
	home := t.TempDir()
	if _, err := corpus.Generate(home, corpus.Options{Events: 3000, Seed: 7, Providers: []string{core.ProviderClaude}}); err != nil {
		t.Fatal(err)
	}
	var src string
	var size int64
	_ = filepath.WalkDir(home, func(p string, d fs.DirEntry, err error) error {
		if fi, _ := d.Info(); err == nil && strings.HasSuffix(p, ".jsonl") && !strings.Contains(p, "subagents") && fi.Size() > size {
			src, size = p, fi.Size()
		}
		return err
	})
	data, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	sourcestest.LiveRefusesAnotherFile(t, New(), filepath.Base(src), data)
}
