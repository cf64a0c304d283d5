package daemon_test

import (
	"context"
	"encoding/json"
	"os"
	"strings"
	"testing"
	"time"

	"ctx/app"
	"ctx/query"
	"ctx/wake"
)

// searchVia asks the daemon of store to search q as a client of version.
func searchVia(t *testing.T, store, version, q string) (*query.SearchResult, error) {
	t.Helper()
	raw, err := json.Marshal(query.SearchRequest{Query: q, Limit: 10})
	if err != nil {
		t.Fatal(err)
	}
	data, err := wake.Search(context.Background(), store, version, raw, time.Minute)
	if err != nil {
		return nil, err
	}
	var out query.SearchResult
	if err := json.Unmarshal(data, &out); err != nil {
		t.Fatal(err)
	}
	return &out, nil
}

// TestSearchOp: the daemon answers a search over the shards it holds
// open with what a reader of the store finds; a change the watches noted
// and no pass has published yet is imported before the answer; a client
// of another version is refused (it then searches itself).
func TestSearchOp(t *testing.T) {
	s := newScratch(t)
	s.appendRecords(t, "x", "s", "opening marmalade", 3)
	opts := s.options()
	opts.Rescan = time.Hour
	opts.Debounce = time.Hour // no pass but the first runs unless a request asks
	searcher := app.New(app.Options{Env: s.env(), Home: s.store, Version: opts.Version, Pooled: true, NoWake: true})
	defer searcher.Close()
	opts.Search = searcher.ServeSearch
	runInProcess(t, opts)
	if _, err := wake.Wake(s.store, time.Minute); err != nil {
		t.Fatal(err)
	}

	got, err := searchVia(t, s.store, opts.Version, "marmalade")
	if err != nil {
		t.Fatal(err)
	}
	r, err := query.Open(s.store)
	if err != nil {
		t.Fatal(err)
	}
	want, err := r.Search(context.Background(), query.SearchRequest{Query: "marmalade", Limit: 10})
	r.Close()
	if err != nil {
		t.Fatal(err)
	}
	got.Metadata.TookMS, want.Metadata.TookMS = 0, 0
	a, _ := json.Marshal(got)
	b, _ := json.Marshal(want)
	if len(want.Results) != 3 || string(a) != string(b) {
		t.Fatalf("daemon answered\n%s\nthe store\n%s", a, b)
	}

	// Noted, not yet imported (the debounce is an hour): the search
	// imports it first.
	s.appendRecords(t, "x", "s", "appended pangolin", 1)
	eventually(t, "the append noted", func() bool {
		st, err := wake.Status(s.store)
		return err == nil && st.LagSeconds > 0
	})
	got, err = searchVia(t, s.store, opts.Version, "pangolin")
	if err != nil || len(got.Results) != 1 || got.Generation.Number < 2 {
		t.Fatalf("search after an append: %+v, %v", got, err)
	}

	if _, err := searchVia(t, s.store, "another", "marmalade"); err == nil || !strings.Contains(err.Error(), "version") {
		t.Fatalf("a client of another version: %v", err)
	}
	st, err := wake.Status(s.store)
	if err != nil || st.Searches != 2 {
		t.Fatalf("status %+v, %v: want 2 searches answered", st, err)
	}
}

// TestSearchOpWithoutSearcher: a daemon run without a searcher refuses the
// op, and an oversized request never reaches it.
func TestSearchOpWithoutSearcher(t *testing.T) {
	s := newScratch(t)
	runInProcess(t, s.options())
	if _, err := searchVia(t, s.store, "test", "marmalade"); err == nil || !strings.Contains(err.Error(), "does not answer searches") {
		t.Fatalf("search without a searcher: %v", err)
	}
	big := strings.Repeat("y", wake.MaxRequest)
	if _, err := searchVia(t, s.store, "test", big); err != wake.ErrTooLarge {
		t.Fatalf("oversized request: %v, want ErrTooLarge", err)
	}
}

// TestStoreRemovedStopsDaemon: a daemon whose store directory is deleted
// (a test's temporary store, a user's rm -rf) stops at the next rescan
// instead of running on with nothing to keep fresh.
func TestStoreRemovedStopsDaemon(t *testing.T) {
	s := newScratch(t)
	done, runErr := runInProcess(t, s.options()) // rescan every 500 ms
	if _, err := wake.Wake(s.store, time.Minute); err != nil {
		t.Fatal(err)
	}
	// The daemon may be writing (vectors after its first pass): remove
	// until nothing is left, as rm -rf run again would.
	for err := os.RemoveAll(s.store); err != nil; err = os.RemoveAll(s.store) {
		time.Sleep(10 * time.Millisecond)
	}
	select {
	case <-done:
		if *runErr != nil {
			t.Fatalf("run: %v", *runErr)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the daemon runs on after its store was removed")
	}
}
