package index

import (
	"context"
	"fmt"
	"testing"

	"ctx/core"
)

// TestScoresDoNotDependOnShards indexes the same history into one shard
// and into many: every document scores the same, so ranks never depend on
// which shard a document landed in.
func TestScoresDoNotDependOnShards(t *testing.T) {
	var docs []Doc
	for i := range 60 {
		text := fmt.Sprintf("entry %d about the build cache", i)
		if i%7 == 0 {
			text = fmt.Sprintf("entry %d: the flaky cache test timed out", i)
		}
		docs = append(docs, newDoc(newSession(fmt.Sprintf("s%d", i%5)), fmt.Sprint(i), core.TypeMessage, text))
	}
	one := openIndex(t, docs)
	root := t.TempDir()
	many, err := Open(root, names(build(t, root, docs, BuildOptions{Shards: 2, MaxShardDocs: 7})), eventsOf(docs))
	if err != nil {
		t.Fatal(err)
	}
	defer many.Close()
	if len(many.Shards()) < 4 {
		t.Fatalf("%d shards, want several", len(many.Shards()))
	}
	for _, text := range []string{"flaky cache", "cache", "timed out test", `"build cache"`} {
		a, b := find(t, one, Query{Text: text, Limit: 60}), find(t, many, Query{Text: text, Limit: 60})
		if len(a) != len(b) {
			t.Fatalf("%q: %d hits in one shard, %d in many", text, len(a), len(b))
		}
		for i := range a {
			if a[i].EventID != b[i].EventID || fmt.Sprintf("%.9f", a[i].Score) != fmt.Sprintf("%.9f", b[i].Score) {
				t.Fatalf("%q: rank %d is %s %.6f in one shard, %s %.6f in many", text, i,
					a[i].EventID, a[i].Score, b[i].EventID, b[i].Score)
			}
		}
	}
}

func TestPhrasesAndWholeQuery(t *testing.T) {
	s := newSession("phrase")
	left := newDoc(s, "left", core.TypeMessage, "Can we continue from where we left off?")
	files := newDoc(newSession("files"), "files", core.TypeMessage, "27 files left unchanged, where off")
	exact := newDoc(newSession("exact"), "exact", core.TypeToolOutput,
		"fatal: The token '&&' is not a valid statement separator in this version.")
	mention := newDoc(newSession("mention"), "mention", core.TypeMessage,
		"the version has a token separator that is not valid in this statement")
	docs := []Doc{left, files, exact, mention}
	r := openIndex(t, docs)

	// A phrase needs its words in order, common words included.
	sameSet(t, find(t, r, Query{Text: `"where we left off"`}), left)
	// The output holding the whole query beats a message mentioning its
	// words, although messages weigh 1.0 and outputs 0.6.
	hits := find(t, r, Query{Text: "The token '&&' is not a valid statement separator in this version."})
	if len(hits) < 2 || hits[0].EventID != exact.Event.ID {
		t.Fatalf("whole query: %v", describe(hits))
	}
}

func TestQuerySyntax(t *testing.T) {
	a := newDoc(newSession("a", fromProvider("codex")), "a", core.TypeMessage, "deploy the kestrel service")
	b := newDoc(newSession("b", fromProvider("claude-code")), "b", core.TypeToolCall, "deploy the osprey service",
		withFiles("/repo/deploy.sh"))
	c := newDoc(newSession("c", fromProvider("codex")), "c", core.TypeMessage, "kestrel nest notes", withRole(core.RoleUser))
	r := openIndex(t, []Doc{a, b, c})
	for _, tt := range []struct {
		text string
		want []Doc
	}{
		{"deploy service", []Doc{a, b}},
		{"deploy -osprey", []Doc{a}},
		{`deploy -"osprey service"`, []Doc{a}},
		{"osprey OR nest", []Doc{b, c}},
		{"kestrel provider:codex", []Doc{a, c}},
		{"kestrel role:user", []Doc{c}},
		{"deploy type:tool_call", []Doc{b}},
		{"deploy file:deploy.sh", []Doc{b}},
		{"provider:claude-code", []Doc{b}},
		{`"unbalanced deploy`, []Doc{a, b}},
		{"rm -rf", nil},
	} {
		t.Run(tt.text, func(t *testing.T) { sameSet(t, find(t, r, Query{Text: tt.text, Limit: 10}), tt.want...) })
	}
	res, err := r.Search(context.Background(), Query{Text: "kestrel osprey"})
	if err != nil || res.Match != MatchAny || len(res.Hits) != 3 {
		t.Fatalf("no document holds both words: match %q, %d hits, %v", res.Match, len(res.Hits), err)
	}
	// One document holds both words: it fills a page of one, and documents
	// holding one word follow it on a longer page.
	if res, _ = r.Search(context.Background(), Query{Text: "deploy kestrel", Limit: 1}); res.Match != MatchAll || res.Hits[0].EventID != a.Event.ID {
		t.Fatalf("match %q, first %v", res.Match, describe(res.Hits))
	}
	if res, _ = r.Search(context.Background(), Query{Text: "deploy kestrel", Limit: 5}); res.Match != MatchAny || res.Hits[0].EventID != a.Event.ID {
		t.Fatalf("match %q, first %v", res.Match, describe(res.Hits))
	}
}

func TestNoiseIsNotAMatch(t *testing.T) {
	s := newSession("noise")
	start := newDoc(s, "start", core.TypeCommandStart, "", func(e *core.Event) { e.Command = "go test ./..." })
	finish := newDoc(s, "finish", core.TypeCommandFinish, "exit code 0", func(e *core.Event) { e.Command = "go test ./..." })
	tokens := newDoc(s, "tokens", core.TypeOther, "tokens total=3427 last=3427 window=258400",
		func(e *core.Event) { e.Native = "token_count" })
	turn := newDoc(s, "turn", core.TypeOther, "assistant.turn_start 0", func(e *core.Event) { e.Native = "assistant.turn_start" })
	keep := newDoc(s, "keep", core.TypeOther, "permission mode acceptEdits", func(e *core.Event) { e.Native = "permission-mode" })
	r := openIndex(t, []Doc{start, finish, tokens, turn, keep})
	sameSet(t, find(t, r, Query{Text: "go test"}), start)
	sameSet(t, find(t, r, Query{Text: "acceptEdits"}), keep)
	if hits := find(t, r, Query{Text: "tokens total window turn"}); len(hits) != 0 {
		t.Fatalf("noise matched: %v", describe(hits))
	}
	for _, d := range []Doc{finish, tokens, turn} {
		if _, ok, err := r.Lookup(d.Event.ID); !ok || err != nil {
			t.Fatalf("noise event %s not found by id: %v", d.Event.ID, err)
		}
	}
}

func TestInflections(t *testing.T) {
	for in, want := range map[string][]string{
		"fail":   {"fails", "failed", "failing"},
		"failed": {"fail", "fails", "failing"},
		"tiers":  {"tier"},
		"query":  {"queries", "queried"},
	} {
		got := inflections(in)
		for _, w := range want {
			if !contains(got, w) {
				t.Errorf("inflections(%q) = %v, lacks %q", in, got, w)
			}
		}
	}
	for _, in := range []string{"ab", "parseConfig", "e0308", "go"} {
		if got := inflections(in); got != nil {
			t.Errorf("inflections(%q) = %v, want none", in, got)
		}
	}
}
