package threads

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"ctx/core"
)

func TestRegistryEnsureAndAdd(t *testing.T) {
	home := t.TempDir()
	r := Open(home)
	now := time.Date(2026, 7, 1, 0, 0, 0, 0, time.UTC)
	name, created, err := r.Ensure("Q3 Campaign", now)
	if err != nil || !created || name != "Q3 Campaign" {
		t.Fatal(name, created, err)
	}
	name, created, _ = r.Ensure("  q3   campaign! ", now)
	if created || name != "Q3 Campaign" {
		t.Fatalf("second ensure = %q created=%v", name, created)
	}
	id := core.NewSessionID("codex", "n1")
	for i := 0; i < 2; i++ {
		if err := r.Add("q3 campaign", id, "cli", now); err != nil {
			t.Fatal(err)
		}
	}
	if err := r.Add("nope", id, "cli", now); err == nil {
		t.Fatal("added to a missing thread")
	}
	ts, err := Open(home).Threads()
	if err != nil || len(ts) != 1 || len(ts[0].Added) != 1 || ts[0].Added[0].Session != id {
		t.Fatalf("threads = %+v, %v", ts, err)
	}
	if fi, _ := os.Stat(Path(home)); fi.Mode().Perm() != 0o600 {
		t.Fatalf("mode %v", fi.Mode())
	}
	if _, _, err := r.Ensure("  !! ", now); !errors.Is(err, ErrName) {
		t.Fatalf("bad name = %v", err)
	}
}

func TestMatch(t *testing.T) {
	names := []string{"Q3 campaign", "auth refactor", "auth docs", "billing"}
	cases := []struct{ in, want, how string }{
		{"", "Q3 campaign", MatchMostRecent},
		{"q3 CAMPAIGN", "Q3 campaign", MatchExact},
		{"bill", "billing", MatchPrefix},
		{"q3 campain", "Q3 campaign", MatchFuzzy},
		{"auth refactr", "auth refactor", MatchFuzzy},
	}
	for _, c := range cases {
		got, how, err := Match(c.in, names)
		if err != nil || got != c.want || how != c.how {
			t.Errorf("Match(%q) = %q %s %v, want %q %s", c.in, got, how, err, c.want, c.how)
		}
	}
	var amb *AmbiguousError
	if _, _, err := Match("auth", names); !errors.As(err, &amb) || len(amb.Candidates) != 2 {
		t.Fatalf("ambiguous = %v", err)
	}
	var nf *NotFoundError
	if _, _, err := Match("zebra", names); !errors.As(err, &nf) {
		t.Fatalf("not found = %v", err)
	}
	if _, _, err := Match("x", nil); !errors.Is(err, ErrNoThreads) {
		t.Fatalf("none = %v", err)
	}
}

func TestMergeBudget(t *testing.T) {
	base := time.Date(2026, 7, 1, 0, 0, 0, 0, time.UTC)
	var es []Entry
	for i := 0; i < 200; i++ {
		es = append(es, Entry{At: base.Add(time.Duration(i) * time.Hour), SessionID: fmt.Sprint(i),
			Summary: fmt.Sprintf("session %d: short summary", i),
			Detail:  fmt.Sprintf("session %d\n", i) + strings.Repeat("a detailed account of the work done. ", 60)})
	}
	// shuffle order: Merge sorts by time
	es[0], es[199] = es[199], es[0]
	m := Merge(es, 5000)
	if m.TokensUsed > 5000 || len(m.Entries) == 0 {
		t.Fatalf("used %d, %d entries", m.TokensUsed, len(m.Entries))
	}
	last := m.Entries[len(m.Entries)-1]
	if last.SessionID != "199" || last.Form != FormDetailed {
		t.Fatalf("newest = %+v", last)
	}
	if first := m.Entries[0]; first.Form != FormSummarised {
		t.Fatalf("oldest kept = %s", first.Form)
	}
	for i := 1; i < len(m.Entries); i++ {
		if m.Entries[i].At.Before(m.Entries[i-1].At) {
			t.Fatal("not chronological")
		}
	}
	if m.Omitted+len(m.Entries) != 200 {
		t.Fatalf("omitted %d + kept %d != 200", m.Omitted, len(m.Entries))
	}
	// One huge newest entry is cut, not dropped.
	big := []Entry{{At: base, Summary: "s", Detail: strings.Repeat("word ", 20000)}}
	m = Merge(big, 1000)
	if len(m.Entries) != 1 || !m.Entries[0].Truncated || m.TokensUsed > 1000 {
		t.Fatalf("big = %+v used %d", m.Entries, m.TokensUsed)
	}
}
