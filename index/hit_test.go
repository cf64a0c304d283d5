package index

import (
	"errors"
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
