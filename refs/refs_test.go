package refs

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"ctx/objects"
)

func TestUpdateCompareAndSwap(t *testing.T) {
	r, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	a, b, c := objects.Hash([]byte("a")), objects.Hash([]byte("b")), objects.Hash([]byte("c"))
	if _, err := r.Get(Active); !errors.Is(err, ErrNoRef) {
		t.Fatalf("Get on empty store: %v", err)
	}
	if err := r.Update(Active, objects.ID{}, a, "first"); err != nil {
		t.Fatal(err)
	}
	if err := r.Update(Active, objects.ID{}, b, "create again"); !errors.Is(err, ErrStale) {
		t.Fatalf("second create: %v, want ErrStale", err)
	}
	if err := r.Update(Active, c, b, "wrong old"); !errors.Is(err, ErrStale) {
		t.Fatalf("wrong old: %v, want ErrStale", err)
	}
	if err := r.Update(Active, a, b, "second"); err != nil {
		t.Fatal(err)
	}
	if got, _ := r.Get(Active); got != b {
		t.Fatalf("active = %s, want %s", got, b)
	}
	log, err := r.Log(Active)
	if err != nil || len(log) != 2 || log[0].New != a || log[1].Old != a || log[1].New != b || log[1].Message != "second" {
		t.Fatalf("reflog = %+v, %v", log, err)
	}
	fi, _ := os.Stat(r.path(Active))
	if fi.Mode().Perm() != 0o600 {
		t.Fatalf("ref mode %v", fi.Mode().Perm())
	}
}

func TestUpdateLocked(t *testing.T) {
	r, _ := Open(t.TempDir())
	if err := os.WriteFile(r.path(Active)+".lock", nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := r.Update(Active, objects.ID{}, objects.Hash([]byte("a")), ""); !errors.Is(err, ErrLocked) {
		t.Fatalf("got %v, want ErrLocked", err)
	}
	if err := r.BreakLock(Active); err != nil {
		t.Fatal(err)
	}
	if err := r.Update(Active, objects.ID{}, objects.Hash([]byte("a")), ""); err != nil {
		t.Fatal(err)
	}
}

func TestConcurrentUpdatesOneWins(t *testing.T) {
	r, _ := Open(t.TempDir())
	var wg sync.WaitGroup
	wins := make(chan int, 16)
	for i := 0; i < 16; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			if r.Update(Active, objects.ID{}, objects.Hash([]byte{byte(i)}), "") == nil {
				wins <- i
			}
		}(i)
	}
	wg.Wait()
	close(wins)
	if n := len(wins); n != 1 {
		t.Fatalf("%d concurrent creates succeeded, want exactly 1", n)
	}
}

func TestReflogTornLine(t *testing.T) {
	dir := t.TempDir()
	r, _ := Open(dir)
	a := objects.Hash([]byte("a"))
	if err := r.Update(Active, objects.ID{}, a, "ok"); err != nil {
		t.Fatal(err)
	}
	f, _ := os.OpenFile(filepath.Join(dir, "logs", "refs", Active), os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString("0000 torn")
	f.Close()
	log, err := r.Log(Active)
	if err != nil || len(log) != 1 {
		t.Fatalf("log %v %v", log, err)
	}
}

func TestGenerationRoundTrip(t *testing.T) {
	s, _ := objects.Open(t.TempDir())
	g := &Generation{Number: 3, Tree: objects.Hash([]byte("t")), Created: time.Unix(100, 0), Importer: "test",
		Shards: []Shard{{Name: "s1", Docs: 2}}}
	data, err := g.Encode()
	if err != nil {
		t.Fatal(err)
	}
	id, _ := s.Put(data)
	got, err := Load(s, id)
	if err != nil || got.Number != 3 || got.Tree != g.Tree || len(got.Shards) != 1 || got.Parent != nil {
		t.Fatalf("Load = %+v, %v", got, err)
	}
	notGen, _ := s.Put([]byte(`{"kind":"tree"}`))
	if _, err := Load(s, notGen); err == nil {
		t.Fatal("Load accepted a non-generation object")
	}
}

// TestRepairLogAfterCrashBetweenMoveAndLog simulates a writer killed after
// moving refs/active and before logging it: RepairLog logs the generation,
// once.
func TestRepairLogAfterCrashBetweenMoveAndLog(t *testing.T) {
	dir := t.TempDir()
	rs, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	a, b := objects.Hash([]byte("a")), objects.Hash([]byte("b"))
	if err := rs.Update(Active, objects.ID{}, a, "first"); err != nil {
		t.Fatal(err)
	}
	// The crash: the ref names b, the log ends at a.
	if err := os.WriteFile(filepath.Join(dir, "refs", Active), []byte(b.String()+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if err := rs.RepairLog(Active); err != nil {
			t.Fatal(err)
		}
	}
	log, err := rs.Log(Active)
	if err != nil || len(log) != 2 || log[1].Old != a || log[1].New != b {
		t.Fatalf("log after repair: %+v, %v", log, err)
	}
}

// TestLastLogEntryIsLogsLast: the entry RepairLog reads back from the end
// of a log is the last one Log returns, for logs longer than the first
// window read, ending in bad, torn, empty or unsummed lines, with more bad
// lines at the end than one window holds, and for none or an empty file.
func TestLastLogEntryIsLogsLast(t *testing.T) {
	dir := t.TempDir()
	rs, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "logs", "refs", Active)
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	id := func(i int) objects.ID { return objects.Hash([]byte(fmt.Sprint(i))) }
	good := func(n int) string {
		var b strings.Builder
		for i := range n {
			b.WriteString(logLine(id(i), id(i+1), int64(1_700_000_000+i), fmt.Sprint("import ", i)))
		}
		return b.String()
	}
	flipped := strings.Replace(logLine(id(7), id(8), 1_700_000_007, "import 7"), "import", "imqort", 1)
	unsummed := fmt.Sprintf("%s %s 1700000099 an old line\n", id(98), id(99))
	cases := map[string]string{
		"no lines":               "",
		"one line":               good(1),
		"many lines":             good(500),
		"a bad last line":        good(300) + flipped,
		"a torn last line":       good(300) + logLine(id(1), id(2), 3, "cut")[:70],
		"an empty last line":     good(300) + "\n",
		"an unsummed last line":  good(300) + unsummed,
		"a window of bad lines":  good(300) + strings.Repeat(flipped, 2000),
		"only bad lines":         strings.Repeat(flipped, 300),
		"an unsummed torn line":  good(3) + strings.TrimSuffix(unsummed, "\n"),
		"a line longer than all": good(3) + strings.Repeat("x", 100_000) + "\n",
	}
	// A window that begins inside a good line whose message reads like a
	// line of its own, followed by bad lines only: the piece before the
	// window's first newline is not a line.
	inner := fmt.Sprintf("%s %s 1700000123 not a line", id(50), id(51))
	whole := logLine(id(3), id(4), 1_700_000_003, "quoted: "+inner)
	pad := 4096 - len(inner) - 1
	cases["a window inside a line"] = good(3) + whole + strings.Repeat("x", pad-1) + "\n"
	for name, content := range cases {
		if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
		log, err := rs.Log(Active)
		if err != nil {
			t.Fatal(err)
		}
		e, ok, err := rs.lastLogEntry(Active)
		if err != nil || ok != (len(log) > 0) || ok && !reflect.DeepEqual(e, log[len(log)-1]) {
			t.Errorf("%s: last entry %+v (%v, %v), Log's %d entries end with %+v", name, e, ok, err, len(log), log[max(0, len(log)-1):])
		}
	}
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	if _, ok, err := rs.lastLogEntry(Active); ok || err != nil {
		t.Fatalf("no log file: %v %v", ok, err)
	}
}

// TestExpireLogKeepsTheChain: dropping entries from the middle of a
// reflog leaves one that chains, each kept entry moving from the one kept
// before it, with its own time and message, and no line that fails its
// check.
func TestExpireLogKeepsTheChain(t *testing.T) {
	r, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	var ids []objects.ID
	prev := objects.ID{}
	for i := range 8 {
		id := objects.Hash(fmt.Append(nil, i))
		if err := r.Update(Active, prev, id, fmt.Sprint("step ", i)); err != nil {
			t.Fatal(err)
		}
		ids, prev = append(ids, id), id
	}
	before, _ := r.Log(Active)
	kept := map[int]bool{1: true, 2: true, 5: true, 7: true}
	if err := r.ExpireLog(Active, func(log []LogEntry, i int) bool {
		if len(log) != len(before) || log[i] != before[i] {
			t.Fatalf("keep was given entry %d of %d, not the log", i, len(log))
		}
		return kept[i]
	}); err != nil {
		t.Fatal(err)
	}
	c, err := r.CheckLog(Active)
	if err != nil || len(c.Bad) > 0 || c.Torn {
		t.Fatalf("log after expiry: %+v %v", c, err)
	}
	want := []LogEntry{before[1], before[2], before[5], before[7]}
	want[2].Old, want[3].Old = ids[2], ids[5]
	if !reflect.DeepEqual(c.Entries, want) {
		t.Fatalf("log after expiry:\n%+v\nwant\n%+v", c.Entries, want)
	}
}
