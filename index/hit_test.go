package index

import (
	"errors"
	"strings"
	"testing"
	"time"

	"ctx/core"
)

func TestHitCodec(t *testing.T) {
	s := newSession("codec", inWorkspace("/odd\x1fdir/x"), subagentOf(newSession("parent")))
	ts := time.Date(2025, 1, 2, 3, 4, 5, 6, time.UTC)
	d := newDoc(s, "k", core.TypeToolOutput, "x", at(ts), withRole(core.RoleTool))
	sd := newShardDoc(d.Event, d.Session, d.Chunk)
	var h core.Hit
	if err := decodeHit(&h, sd.Hit); err != nil {
		t.Fatal(err)
	}
	want := core.Hit{SessionID: s.ID, RootSessionID: s.RootSessionID, IsSubagent: true,
		EventType: core.TypeToolOutput, Role: core.RoleTool, Provider: core.ProviderClaude,
		Workspace: "/odd\x1fdir/x", Timestamp: ts, Chunk: d.Chunk}
	if h != want {
		t.Fatalf("decoded\n%+v\nwant\n%+v", h, want)
	}
	parts := strings.Split(sd.Hit, hitSep)
	bad := map[string]string{
		"empty":       "",
		"version":     "2" + sd.Hit[1:],
		"short":       strings.Join(parts[:5], hitSep),
		"bad session": strings.Join(append([]string{parts[0], "ses_x"}, parts[2:]...), hitSep),
		"bad chunk":   strings.Replace(sd.Hit, d.Chunk.String(), "zz", 1),
	}
	for name, stored := range bad {
		if err := decodeHit(&core.Hit{}, stored); err == nil {
			t.Errorf("%s: decoded without error", name)
		}
	}
	if err := decodeHit(&core.Hit{}, ""); !errors.Is(err, errBadHit) {
		t.Errorf("empty: %v", err)
	}
}
