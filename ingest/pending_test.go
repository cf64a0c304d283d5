package ingest_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"ctx/core"
	"ctx/ingest"
	"ctx/maint"
	"ctx/objects"
	"ctx/query"
	ctxstore "ctx/store"
)

// longSession writes one Claude Code session of n lines, the last of
// them holding the word closingword.
func longSession(t *testing.T, home string, n int) {
	t.Helper()
	lines := make([]string, n)
	for i := range lines {
		lines[i] = claudeUser(fmt.Sprintf("u%d", i), fmt.Sprintf("line %d of a long session", i))
	}
	lines[n-1] = claudeUser("ulast", "closingword")
	writeClaude(t, home, "s1", lines...)
}

// TestHelperLongImport is the import TestKilledLongImportRecovers kills: it runs only in the child process that test starts.
func TestHelperLongImport(t *testing.T) {
	home, st := os.Getenv("CTX_TEST_LONG_HOME"), os.Getenv("CTX_TEST_LONG_STORE")
	if home == "" {
		t.Skip("helper of TestKilledLongImportRecovers")
	}
	defer ingest.SetPendingObjects(4)()
	f := &fixture{home: home, store: st}
	f.importOnce(t)
}

// committed counts the objects of a store that are named (committed), not
// the temporary files of a batch.
func committed(t *testing.T, store string) int {
	t.Helper()
	dir := ctxstore.At(store).Objects()
	subs, _ := os.ReadDir(dir)
	n := 0
	for _, s := range subs {
		if s.IsDir() && len(s.Name()) == 2 {
			files, _ := os.ReadDir(filepath.Join(dir, s.Name()))
			n += len(files)
		}
	}
	return n
}

// sessionChunks returns the chunk list of the one session rep published
// (the session object also names its file, which differs between homes).
func sessionChunks(t *testing.T, store string, rep *ingest.Report) []core.ChunkRef {
	t.Helper()
	objs, err := objects.Open(ctxstore.At(store).Objects())
	if err != nil {
		t.Fatal(err)
	}
	tree, err := core.LoadTree(objs, rep.Generation.Tree)
	if err != nil || len(tree.Sessions) != 1 {
		t.Fatalf("tree: %v, %v", tree, err)
	}
	so, err := core.LoadSession(objs, tree.Sessions[0].Object)
	if err != nil {
		t.Fatal(err)
	}
	return so.Chunks
}

// stopAfter is a Redactor that redacts nothing and cancels the import
// once it has seen n events: the session is then read halfway.
type stopAfter struct {
	n      int
	cancel func()
}

func (s *stopAfter) Event(*core.Event) int {
	if s.n--; s.n == 0 {
		s.cancel()
	}
	return 0
}

func (s *stopAfter) String(v string) (string, int) { return v, 0 }

// TestLongSessionCommitsAsItGoes: an import of one long session commits
// its chunks before it publishes, so that the names it holds in memory
// stay bounded. Stopped halfway, it has named some chunks and published
// nothing; the next import publishes what a clean import publishes, and
// its report counts every object it wrote, committed early or not.
func TestLongSessionCommitsAsItGoes(t *testing.T) {
	defer ingest.SetPendingObjects(3)()
	f := newFixture(t, 0)
	longSession(t, f.home, 6000)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	_, err := ingest.Run(ctx, ingest.Options{Home: f.store, Env: f.env(), Sources: automatic(),
		Version: "test", Redactor: &stopAfter{n: 3000, cancel: cancel}})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("the stopped import returned %v", err)
	}
	if n := committed(t, f.store); n < 20 {
		t.Fatalf("the import stopped halfway through 94 chunks had named %d objects", n)
	}
	if _, err := os.Stat(ctxstore.At(f.store).ActiveRef()); err == nil {
		t.Fatal("the stopped import published a generation")
	}
	rep := f.importOnce(t)
	clean := newFixture(t, 0)
	longSession(t, clean.home, 6000)
	want := clean.importOnce(t)
	if got, w := sessionChunks(t, f.store, rep), sessionChunks(t, clean.store, want); !slices.Equal(got, w) {
		t.Fatalf("after the stop: %d chunks; a clean import: %d (or other chunks)", len(got), len(w))
	}
	if n := committed(t, clean.store); want.Objects != n {
		t.Fatalf("the report counts %d new objects, the store holds %d", want.Objects, n)
	}
	if v, err := maint.Verify(f.store); err != nil || !v.OK {
		t.Fatalf("verify: %+v %v", v, err)
	}
}

// TestKilledLongImportRecovers: an import of one long session killed
// (SIGKILL) once it has named objects, before any generation is
// published, leaves no generation; the next import publishes what a clean
// import publishes, and the store verifies.
func TestKilledLongImportRecovers(t *testing.T) {
	f := newFixture(t, 0)
	longSession(t, f.home, 60000)
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperLongImport$", "-test.count=1")
	cmd.Env = append(os.Environ(), "CTX_TEST_LONG_HOME="+f.home, "CTX_TEST_LONG_STORE="+f.store)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	waited := make(chan error, 1)
	go func() { waited <- cmd.Wait() }()
	for committed(t, f.store) < 8 {
		select {
		case err := <-waited:
			t.Fatalf("the import ended before it named any object: %v", err)
		case <-time.After(2 * time.Millisecond):
		}
	}
	_ = cmd.Process.Kill()
	<-waited
	if _, err := os.Stat(ctxstore.At(f.store).ActiveRef()); err == nil {
		t.Skip("the import published before it was killed")
	}

	rep := f.importOnce(t)
	if v, err := maint.Verify(f.store); err != nil || !v.OK {
		t.Fatalf("verify: %+v %v", v, err)
	}
	clean := newFixture(t, 0)
	longSession(t, clean.home, 60000)
	want := clean.importOnce(t)
	got, wantChunks := sessionChunks(t, f.store, rep), sessionChunks(t, clean.store, want)
	if !slices.Equal(got, wantChunks) || rep.EventsIndexed != want.EventsIndexed {
		t.Fatalf("after the kill: %d chunks, %d events indexed; a clean import: %d chunks, %d (or other chunks)",
			len(got), rep.EventsIndexed, len(wantChunks), want.EventsIndexed)
	}
	r, err := query.Open(f.store)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	res, err := r.Search(context.Background(), query.SearchRequest{Query: "closingword"})
	if err != nil || len(res.Results) != 1 {
		t.Fatalf("the last line finds %d events (%v), want 1", len(res.Results), err)
	}
}
