package index

import (
	"errors"
	"fmt"
	"github.com/blevesearch/bleve/v2/index/scorch"
	"github.com/blevesearch/bleve/v2/registry"
	"slices"
	"strings"
	"testing"

	"ctx/core"
)

func TestHitCodec(t *testing.T) {
	s := newSession("codec", inWorkspace("/odd\x1fdir/x"), subagentOf(newSession("parent")))
	a := newDoc(s, "k", core.TypeToolOutput, "x", withRole(core.RoleTool))
	b := newDoc(s, "l", core.TypeMessage, "y")
	g := &chunkGroup{session: s, chunk: a.Chunk, events: []*core.Event{a.Event, b.Event, b.Event, a.Event},
		pos: []int{0, 1, 2, 7}}
	sd := newShardDoc(g)
	h, err := decodeHit(sd.Hit)
	if err != nil {
		t.Fatal(err)
	}
	an, err := newEventAnalyzer(registry.NewCache())
	if err != nil {
		t.Fatal(err)
	}
	for i, e := range g.events {
		if n := len(an.Analyze([]byte(eventText(e)))); h.lens[i] != n || n == 0 {
			t.Errorf("length of event %d: %d, want %d (and not 0)", i, h.lens[i], n)
		}
	}
	want := core.Hit{SessionID: s.ID, RootSessionID: s.RootSessionID, IsSubagent: true,
		Provider: core.ProviderClaude, Workspace: "/odd\x1fdir/x", Chunk: a.Chunk}
	if h.Hit != want || !slices.Equal(h.pos, g.pos) {
		t.Fatalf("decoded\n%+v %v\nwant\n%+v %v", h.Hit, h.pos, want, g.pos)
	}
	if got := encodeRuns([]int{0, 1, 2, 5, 7, 8}); got != "0-2,5,7-8" {
		t.Errorf("runs %q", got)
	}
	parts := strings.Split(sd.Hit, hitSep)
	bad := map[string]string{
		"empty":       "",
		"version":     "1" + sd.Hit[1:],
		"short":       strings.Join(parts[:5], hitSep),
		"bad session": strings.Join(append([]string{parts[0], "ses_x"}, parts[2:]...), hitSep),
		"bad chunk":   strings.Replace(sd.Hit, a.Chunk.String(), "zz", 1),
		"bad runs":    strings.Replace(sd.Hit, "0-2,7", "2-0", 1),
		"few lengths": strings.Join(append(append(parts[:7:7], "1,1,1"), parts[8:]...), hitSep),
		"bad length":  strings.Join(append(append(parts[:7:7], "1,1,x,1"), parts[8:]...), hitSep),
	}
	for name, stored := range bad {
		if _, err := decodeHit(stored); err == nil {
			t.Errorf("%s: decoded without error", name)
		}
	}
	if _, err := decodeHit(""); !errors.Is(err, errBadHit) {
		t.Errorf("empty: %v", err)
	}
}

// TestSegmentFreqAsReader: summing a term's frequencies over a segment's
// postings gives what bleve's term reader gives, for every term of the
// text field of a shard of groups of several events.
func TestSegmentFreqAsReader(t *testing.T) {
	root := t.TempDir()
	s := newSession("freq")
	var docs []Doc
	for c := range 30 { // chunks of 10 events: a group's frequencies count its events
		var chunk []Doc
		for j := range 10 {
			i := 10*c + j
			chunk = append(chunk, newDoc(s, fmt.Sprint(i), core.TypeMessage,
				fmt.Sprintf("word%d shared term%d parseConfig parse_config %s", i%7, i%13, strings.Repeat("again ", i%3))))
		}
		docs = append(docs, inChunk(fmt.Sprint(c), chunk...)...)
	}
	shards := names(build(t, root, docs, BuildOptions{Shards: 2}))
	r, err := Open(root, shards, eventsOf(docs))
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	l := r.newHitLoader()
	defer l.close()
	checked, grouped := 0, 0
	for _, sh := range shards {
		rdr, err := l.reader(sh)
		if err != nil {
			t.Fatal(err)
		}
		snap, ok := rdr.(*scorch.IndexSnapshot)
		if !ok || len(snap.Segments()) != 1 {
			t.Fatalf("shard %s: not one segment", sh)
		}
		dict, err := rdr.FieldDict(fieldText)
		if err != nil {
			t.Fatal(err)
		}
		for {
			e, err := dict.Next()
			if err != nil {
				t.Fatal(err)
			}
			if e == nil {
				break
			}
			got, err := segmentFreq(snap.Segments()[0], e.Term)
			want, err2 := readerFreq(rdr, e.Term)
			if err != nil || err2 != nil || got != want || got == 0 {
				t.Fatalf("%s %q: %d (%v), the term reader says %d (%v)", sh, e.Term, got, err, want, err2)
			}
			if want > e.Count {
				grouped++ // held by several events of one group
			}
			checked++
		}
		dict.Close()
		if n, err := sumFreq(rdr, "nosuchterm"); err != nil || n != 0 {
			t.Fatalf("an absent term: %d, %v", n, err)
		}
	}
	if checked < 20 || grouped < 10 {
		t.Fatalf("only %d terms checked, %d held by several events of a group", checked, grouped)
	}
}
