package relevance

import (
	"context"
	"strings"
	"testing"

	"ctx/internal/fixtures"
	"ctx/query"
)

// Floors are the figures the ranking has reached on the judged set; a
// change that falls below one fails here (cmd/ctx-relevance prints them).
var floors = struct{ mrr, at5 float64 }{mrr: 0.90, at5: 0.97}

func TestJudgedSet(t *testing.T) {
	fx, err := fixtures.Agents()
	if err != nil {
		t.Skip("shared/fixtures/agents not found: the judged relevance set needs the real fixtures")
	}
	set, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	if len(set.Queries) < 80 {
		t.Fatalf("judged set has %d queries, want at least 80", len(set.Queries))
	}
	ctx := context.Background()
	st, err := Build(ctx, fx, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	r, err := query.Open(st.CtxHome)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	rep, err := Evaluate(ctx, r, set)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	_ = rep.Print(&b)
	rep.PrintMisses(&b)
	t.Log("\n" + b.String())
	if rep.Overall.MRR < floors.mrr || rep.Overall.At5 < floors.at5 {
		t.Errorf("overall MRR@10 %.3f, success@5 %.3f: below the floors %.2f, %.2f",
			rep.Overall.MRR, rep.Overall.At5, floors.mrr, floors.at5)
	}
	for _, k := range Kinds {
		if rep.ByKind[k].Queries == 0 {
			t.Errorf("no judged query of kind %s", k)
		}
	}
}

func TestParseRejectsBadSets(t *testing.T) {
	for name, data := range map[string]string{
		"unknown field": `{"queries":[{"id":"a","kind":"keyword","query":"x","target":{"match":"x"},"why":"","extra":1}]}`,
		"unknown kind":  `{"queries":[{"id":"a","kind":"nope","query":"x","target":{"match":"x"},"why":""}]}`,
		"no target":     `{"queries":[{"id":"a","kind":"keyword","query":"x","target":{},"why":""}]}`,
		"bad target":    `{"queries":[{"id":"a","kind":"keyword","query":"x","target":{"match":"("},"why":""}]}`,
		"repeated id": `{"queries":[{"id":"a","kind":"keyword","query":"x","target":{"match":"x"},"why":""},` +
			`{"id":"a","kind":"keyword","query":"y","target":{"match":"x"},"why":""}]}`,
	} {
		if _, err := Parse([]byte(data)); err == nil {
			t.Errorf("%s: Parse accepted it", name)
		}
	}
}
