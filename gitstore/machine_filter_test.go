package gitstore_test

import (
	"context"
	"errors"
	"testing"

	"ctx/core"
	"ctx/gitstore"
	"ctx/query"
)

// TestMachineFilter: after a pull, every session and event says which
// machine it was recorded on, and search, session and event listings
// select by machine (local: this store's own).
func TestMachineFilter(t *testing.T) {
	_, url := bare(t)
	r := gitstore.Remote{Name: "team", URL: url}
	a, b := newMachine(t, "alpha"), newMachine(t, "beta")
	a.session("/w/proj", "deploy pipeline alpha", 3)
	b.session("/w/proj", "deploy pipeline beta", 2)
	a.importOnce()
	b.importOnce()
	if _, err := a.push(r); err != nil {
		t.Fatal(err)
	}
	if _, err := b.pull(r); err != nil {
		t.Fatal(err)
	}
	rd, err := query.Open(b.ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer rd.Close()
	search := func(machines ...string) map[string]int {
		t.Helper()
		res, err := rd.Search(context.Background(), query.SearchRequest{Query: "deploy pipeline", Limit: 50,
			Filter: core.Filter{Machines: machines}})
		if err != nil {
			t.Fatal(err)
		}
		out := map[string]int{}
		for _, h := range res.Results {
			out[h.Machine]++
		}
		return out
	}
	if got := search(); got[a.id] != 3 || got[""] != 2 || len(got) != 2 {
		t.Fatalf("unfiltered hits by machine %v: want 3 of %s and 2 local", got, a.id)
	}
	if got := search(a.id); got[a.id] != 3 || len(got) != 1 {
		t.Fatalf("--machine %s: %v", a.id, got)
	}
	if got := search(core.LocalMachine); got[""] != 2 || len(got) != 1 {
		t.Fatalf("--machine local: %v", got)
	}
	if got := search("gamma-00000000"); len(got) != 0 {
		t.Fatalf("an unknown machine found %v", got)
	}

	list, err := rd.ListSessions(query.SessionsRequest{Filter: core.Filter{Machines: []string{a.id}}})
	if err != nil {
		t.Fatal(err)
	}
	if len(list.Sessions) != 1 || list.Sessions[0].Machine != a.id || len(list.Selection.Machines) != 1 {
		t.Fatalf("list sessions of %s: %+v", a.id, list)
	}
	evs, err := rd.ListEvents(context.Background(), query.ListRequest{Filter: core.Filter{Machines: []string{core.LocalMachine}}})
	if err != nil {
		t.Fatal(err)
	}
	if len(evs.Events) != 2 {
		t.Fatalf("local events: %d, want beta's 2", len(evs.Events))
	}
	for _, e := range evs.Events {
		if e.Machine != "" {
			t.Fatalf("a local event names machine %q", e.Machine)
		}
	}
	evs, err = rd.ListEvents(context.Background(), query.ListRequest{Filter: core.Filter{Machines: []string{a.id}}})
	if err != nil || len(evs.Events) != 3 || evs.Events[0].Machine != a.id {
		t.Fatalf("alpha's events: %+v %v", evs, err)
	}

	_, err = rd.Search(context.Background(), query.SearchRequest{Query: "deploy", Filter: core.Filter{Machines: []string{"Not A Machine"}}})
	var qe *query.Error
	if !errors.As(err, &qe) || qe.Code != query.CodeInvalidRequest {
		t.Fatalf("a malformed machine: %v", err)
	}
}
