package daemon_test

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/blevesearch/bleve/v2"

	"ctx/index"
	"ctx/maint"
	"ctx/refs"
	ctxstore "ctx/store"
	"ctx/wake"
)

// run runs the built ctx binary (see ctx) and returns its stdout; a
// failure fails the test.
func (s *scratch) run(t *testing.T, args ...string) string {
	t.Helper()
	code, out, errs := s.ctx(t, args...)
	if code != 0 {
		t.Fatalf("ctx %v: exit %d\n%s%s", args, code, out, errs)
	}
	return out
}

// cutFirstShard cuts the root.bolt of the active generation's first
// shard in half and returns the shard's name (the index directory also
// holds the shards of older generations until gc).
func (s *scratch) cutFirstShard(t *testing.T) string {
	t.Helper()
	name := s.firstShard(t)
	cutHalf(t, filepath.Join(ctxstore.At(s.store).Index(), name, "store", "root.bolt"))
	return name
}

// cutHalf truncates the file at p to half its size.
func cutHalf(t *testing.T, p string) {
	t.Helper()
	fi, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(p, fi.Size()/2); err != nil {
		t.Fatal(err)
	}
}

// firstShard returns the name of the active generation's first shard.
func (s *scratch) firstShard(t *testing.T) string {
	t.Helper()
	ro, err := ctxstore.OpenReadOnly(s.store)
	if err != nil {
		t.Fatal(err)
	}
	id, err := ro.Refs.Get(refs.Active)
	if err != nil {
		t.Fatal(err)
	}
	g, err := refs.Load(ro.Objects, id)
	if err != nil || len(g.Shards) == 0 {
		t.Fatalf("active generation: %v, %d shards", err, len(g.Shards))
	}
	return g.Shards[0].Name
}

// TestDaemonRepairsDamagedShards runs the built daemon: a shard damaged
// while no daemon ran is rebuilt from the store when it starts, and one
// damaged while it runs is rebuilt once a search reports it; ctx status
// says so each time, and search and verify are whole again.
func TestDaemonRepairsDamagedShards(t *testing.T) {
	s := newScratch(t)
	s.appendRecords(t, "x", "s1", "opening marmalade", 40)
	s.run(t, "import")
	cut := s.cutFirstShard(t)
	if out := s.run(t, "search", "marmalade"); !strings.Contains(out, "Warning: partial results") {
		t.Fatalf("search over the cut shard does not warn:\n%s", out)
	}

	s.startDaemon(t)
	repaired := func(shard string) func() bool {
		return func() bool {
			st, err := wake.Status(s.store)
			return err == nil && st.Repair != nil && len(st.Repair.Shards) == 1 && st.Repair.Shards[0] == shard &&
				st.Repair.Generation > 0
		}
	}
	eventually(t, "the repair at start", repaired(cut))
	out := s.run(t, "status")
	if !strings.Contains(out, "Repair: 1 index shard damaged, rebuilt from the store") || !strings.Contains(out, cut) {
		t.Fatalf("status does not say the shard was rebuilt:\n%s", out)
	}
	if v, err := maint.Verify(s.store); err != nil || !v.OK {
		t.Fatalf("verify after the repair at start: %+v %v", v, err)
	}
	if out := s.run(t, "search", "marmalade"); strings.Contains(out, "Warning") || !strings.Contains(out, "marmalade") {
		t.Fatalf("search after the repair:\n%s", out)
	}

	// Damaged while the daemon runs: a search that opens the shards
	// itself and meets it (ctx-core's hybrid one: the daemon answers the
	// front's searches and ctx-core's lexical ones over the shards it
	// already holds open, which the cut file does not reach) asks for the
	// repair.
	cut = s.cutFirstShard(t)
	core := filepath.Join(filepath.Dir(ctxBinary(t)), "ctx-core")
	if a := s.runIn(t, core, os.Getenv("PATH"), []string{"search", "--mode", "hybrid", "marmalade"}); !strings.Contains(a.out, "Warning: partial results") {
		t.Fatalf("search over the second cut does not warn:\n%+v", a)
	}
	eventually(t, "the repair a search asked for", repaired(cut))
	if v, err := maint.Verify(s.store); err != nil || !v.OK {
		t.Fatalf("verify after the second repair: %+v %v", v, err)
	}
	if a := s.runIn(t, core, os.Getenv("PATH"), []string{"search", "--mode", "hybrid", "marmalade"}); strings.Contains(a.out, "Warning") {
		t.Fatalf("search after the second repair:\n%+v", a)
	}
	if out := s.run(t, "daemon", "status"); !strings.Contains(out, "Repair: 1 index shard damaged, rebuilt") {
		t.Fatalf("daemon status does not say it:\n%s", out)
	}
}

// TestDaemonSurvivesSegmentCutUnderIt runs the built daemon: a segment
// file cut while the daemon holds its shard open (mapped in memory) is
// a fault on the mapped pages when a search reads them. The daemon must
// not die of it: the search answers from the other shards with the
// partial warning, the daemon rebuilds the shard, and search is whole
// again, all from the one daemon process.
func TestDaemonSurvivesSegmentCutUnderIt(t *testing.T) {
	s := newScratch(t)
	s.appendRecords(t, "x", "s1", "opening marmalade", 40)
	s.run(t, "import")
	s.startDaemon(t)
	if out := s.run(t, "search", "marmalade"); strings.Contains(out, "Warning") || !strings.Contains(out, "marmalade") {
		t.Fatalf("search before the cut:\n%s", out)
	}
	before, err := wake.Status(s.store)
	if err != nil || before.Searches == 0 {
		t.Fatalf("the daemon did not answer the first search: %+v %v", before, err)
	}

	shard := s.firstShard(t)
	segs, err := filepath.Glob(filepath.Join(ctxstore.At(s.store).Index(), shard, "store", "*.zap"))
	if err != nil || len(segs) == 0 {
		t.Fatalf("segments of %s: %v %v", shard, segs, err)
	}
	for _, seg := range segs {
		cutHalf(t, seg)
	}
	out := s.run(t, "search", "marmalade")
	st, err := wake.Status(s.store)
	if err != nil || st.PID != before.PID {
		t.Fatalf("the daemon died of the cut segment (status %+v, %v); search said:\n%s", st, err, out)
	}
	if st.Searches <= before.Searches {
		t.Fatalf("the daemon did not answer the search over the cut segment: %+v", st)
	}
	if !strings.Contains(out, "Warning: partial results") || !strings.Contains(out, shard) {
		t.Fatalf("search over the cut segment does not warn about %s:\n%s", shard, out)
	}
	eventually(t, "the repair of the cut segment", func() bool {
		st, err := wake.Status(s.store)
		return err == nil && st.Repair != nil && slices.Contains(st.Repair.Shards, shard) && st.Repair.Generation > 0
	})
	if v, err := maint.Verify(s.store); err != nil || !v.OK {
		t.Fatalf("verify after the repair: %+v %v", v, err)
	}
	if out := s.run(t, "search", "marmalade"); strings.Contains(out, "Warning") || !strings.Contains(out, "marmalade") {
		t.Fatalf("search after the repair:\n%s", out)
	}
	if st, err := wake.Status(s.store); err != nil || st.PID != before.PID {
		t.Fatalf("not the same daemon after the repair: %+v %v", st, err)
	}
}

// TestDaemonRebuildsOutdatedShards runs the built daemon on a store whose
// shard an earlier ctx wrote in an earlier index format (format 2's
// text field, analyzed by bleve): the shard opens as outdated, searches
// leave it out with a warning, and the daemon rebuilds it from the store
// when it starts, as it rebuilds a damaged one, so that an upgrade of ctx
// needs no new import.
func TestDaemonRebuildsOutdatedShards(t *testing.T) {
	s := newScratch(t)
	s.appendRecords(t, "x", "s1", "opening marmalade", 40)
	s.run(t, "import")
	name := s.firstShard(t)
	writeFormat2Shard(t, filepath.Join(ctxstore.At(s.store).Index(), name))
	if _, err := index.Open(ctxstore.At(s.store).Index(), []string{name}); !errors.Is(err, index.ErrShardFormat) {
		t.Fatalf("the rewritten shard opens with %v, want ErrShardFormat", err)
	}
	if out := s.run(t, "search", "marmalade"); !strings.Contains(out, "Warning: partial results") {
		t.Fatalf("search over the outdated shard does not warn:\n%s", out)
	}

	s.startDaemon(t)
	eventually(t, "the rebuild at start", func() bool {
		st, err := wake.Status(s.store)
		return err == nil && st.Repair != nil && slices.Equal(st.Repair.Shards, []string{name}) && st.Repair.Generation > 0
	})
	if v, err := maint.Verify(s.store); err != nil || !v.OK {
		t.Fatalf("verify after the rebuild: %+v %v", v, err)
	}
	if out := s.run(t, "search", "marmalade"); strings.Contains(out, "Warning") || !strings.Contains(out, "marmalade") {
		t.Fatalf("search after the rebuild:\n%s", out)
	}
}

// writeFormat2Shard replaces the shard at dir with one as format 2 wrote
// it: the text field analyzed by bleve with the code analyzer.
func writeFormat2Shard(t *testing.T, dir string) {
	t.Helper()
	if err := os.RemoveAll(dir); err != nil {
		t.Fatal(err)
	}
	dm := bleve.NewDocumentStaticMapping()
	text := bleve.NewTextFieldMapping()
	text.Analyzer = index.CodeAnalyzer
	dm.AddFieldMappingsAt("text", text)
	hit := bleve.NewTextFieldMapping()
	hit.Store, hit.Index = true, false
	dm.AddFieldMappingsAt("hit", hit)
	dm.AddFieldMappingsAt("ev", bleve.NewKeywordFieldMapping())
	m := bleve.NewIndexMapping()
	m.DefaultMapping = dm
	idx, err := bleve.New(dir, m)
	if err != nil {
		t.Fatal(err)
	}
	if err := idx.Index("g1", map[string]string{"text": "opening marmalade", "hit": "2", "ev": "evt_0"}); err != nil {
		t.Fatal(err)
	}
	if err := idx.Close(); err != nil {
		t.Fatal(err)
	}
}
