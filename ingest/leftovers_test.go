package ingest_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"ctx/core"
	"ctx/index"
	"ctx/maint"
	ctxstore "ctx/store"
)

// TestHelperImport is the import TestKilledImportLeftoversRemoved kills:
// it runs only in the child process that test starts.
func TestHelperImport(t *testing.T) {
	home, st := os.Getenv("CTX_TEST_IMPORT_HOME"), os.Getenv("CTX_TEST_IMPORT_STORE")
	if home == "" {
		t.Skip("helper of TestKilledImportLeftoversRemoved")
	}
	f := &fixture{home: home, store: st}
	f.importOnce(t)
}

// TestKilledImportLeftoversRemoved: an import killed (SIGKILL) while it
// builds its shards leaves build directories; the next writer removes
// them, and the store verifies.
func TestKilledImportLeftoversRemoved(t *testing.T) {
	f := newFixture(t, 40000)
	idx := ctxstore.At(f.store).Index()
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperImport$", "-test.count=1")
	cmd.Env = append(os.Environ(), "CTX_TEST_IMPORT_HOME="+f.home, "CTX_TEST_IMPORT_STORE="+f.store)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	waited := make(chan error, 1)
	go func() { waited <- cmd.Wait() }()
	found := false
	for !found {
		select {
		case err := <-waited:
			t.Fatalf("the import ended before it was killed: %v", err)
		case <-time.After(5 * time.Millisecond):
		}
		found = len(builds(t, idx)) > 0
	}
	_ = cmd.Process.Kill()
	<-waited
	if len(builds(t, idx)) == 0 {
		t.Fatal("the killed import left no build directory to clean")
	}
	f.importOnce(t)
	if left := builds(t, idx); len(left) > 0 {
		t.Fatalf("build directories left after the next import: %v", left)
	}
	if v, err := maint.Verify(f.store); err != nil || !v.OK {
		t.Fatalf("verify: %+v %v", v, err)
	}
}

// TestBuildInFlightKept: a shard being built beside an import (the
// daemon's merge builds without the writer lock) keeps its directory
// while the import and gc clean leftovers, and is sealed afterwards.
func TestBuildInFlightKept(t *testing.T) {
	f := newFixture(t, 300)
	idx := ctxstore.At(f.store).Index()
	docs := make(chan index.Doc)
	type result struct {
		metas []index.ShardMeta
		err   error
	}
	done := make(chan result, 1)
	go func() {
		m, err := index.BuildShards(context.Background(), idx, docs, index.BuildOptions{Shards: 1})
		done <- result{m, err}
	}()
	sess := &core.Session{ID: core.NewSessionID(core.ProviderClaude, "inflight"), Provider: core.ProviderClaude}
	ev := &core.Event{ID: core.NewEventID(sess.ID, "1"), Type: core.TypeMessage, Text: "in flight"}
	docs <- index.Doc{Event: ev, Session: sess}
	deadline := time.Now().Add(time.Minute) // a hang guard
	for len(builds(t, idx)) == 0 {
		if time.Now().After(deadline) {
			t.Fatal("no build directory appeared")
		}
		time.Sleep(5 * time.Millisecond)
	}
	f.importOnce(t)
	if len(builds(t, idx)) != 1 {
		t.Fatal("the import removed a build in flight")
	}
	if _, err := maint.GC(context.Background(), f.store, maint.GCOptions{Keep: 0, Now: time.Now()}); err != nil {
		t.Fatal(err)
	}
	if len(builds(t, idx)) != 1 {
		t.Fatal("gc removed a build in flight")
	}
	close(docs)
	res := <-done
	if res.err != nil || len(res.metas) != 1 || res.metas[0].Docs != 1 {
		t.Fatalf("the build in flight: %+v %v", res.metas, res.err)
	}
}

func builds(t *testing.T, idx string) []string {
	t.Helper()
	entries, err := os.ReadDir(idx)
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), ".build-") {
			out = append(out, filepath.Join(idx, e.Name()))
		}
	}
	return out
}
