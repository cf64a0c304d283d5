package query

import (
	"ctx/core"
	"testing"
	"time"
)

func TestTimelineAndStatsFixtures(t *testing.T) {
	r := fixtureReader(t)
	commit := TimelineCommit{Commit: "abc", Time: time.Date(2026, 4, 18, 13, 30, 0, 0, time.UTC), Subject: "s",
		Sessions: []string{"ses_24591081cdbcf15b591b404ea5207080"}}
	outside := commit
	outside.Time = time.Date(2027, 1, 1, 0, 0, 0, 0, time.UTC)
	since := time.Date(2026, 4, 1, 0, 0, 0, 0, time.UTC)
	until := time.Date(2026, 5, 1, 0, 0, 0, 0, time.UTC)
	tl, err := r.Timeline(TimelineRequest{Filter: core.Filter{Since: since, Until: until},
		Commits: []TimelineCommit{commit, outside}})
	if err != nil {
		t.Fatal(err)
	}
	pinKeys(t, "timeline", tl, "kind", "generation", "selection", "location", "days", "sessions", "events", "commits")
	if len(tl.Days) != 1 || tl.Days[0].Date != "2026-04-18" || len(tl.Days[0].Sessions) != 2 || tl.Commits != 1 {
		t.Fatalf("days %+v commits %d", tl.Days, tl.Commits)
	}
	d := tl.Days[0]
	pinKeys(t, "timeline day", d, "date", "sessions", "commits", "events")
	if d.Events != 171 || d.Sessions[0].Started.After(*d.Sessions[1].Started) || len(d.Sessions[1].Files) != 1 {
		t.Fatalf("day %+v", d)
	}
	// A day begins where the location says: 00:36 UTC on Nov 1 is Oct 31 in New York.
	ny, err := time.LoadLocation("America/New_York")
	if err != nil {
		t.Skip("no time zone data")
	}
	all, _ := r.Timeline(TimelineRequest{Location: ny})
	found := false
	for _, d := range all.Days {
		found = found || d.Date == "2025-10-31"
	}
	if !found || all.Location != "America/New_York" {
		t.Fatalf("New York days %v", all.Days)
	}

	st, err := r.Stats(StatsRequest{Period: PeriodWeek})
	if err != nil {
		t.Fatal(err)
	}
	pinKeys(t, "stats", st, "kind", "generation", "selection", "period", "location", "total", "agents", "periods", "models",
		"files", "files_complete")
	checkFileStats(t, r, st)
	pinKeys(t, "stats row", st.Agents[0], "provider", "sessions", "subagents", "events", "prompts", "tool_calls",
		"commands", "files_edited", "errors", "tokens", "token_sessions")
	sum := 0
	for _, a := range st.Agents {
		sum += a.Events
	}
	periodSum := 0
	for _, p := range st.Periods {
		periodSum += p.Total.Events
	}
	if sum != st.Total.Events || periodSum != st.Total.Events || st.Total.Sessions != 8 || st.Total.Tokens.Output == 0 {
		t.Fatalf("stats total %+v agents %d periods %d", st.Total, sum, periodSum)
	}
	if _, err := r.Stats(StatsRequest{Period: "month"}); CodeOf(err) != CodeInvalidRequest {
		t.Fatalf("bad period: %v", err)
	}
}

// checkFileStats counts, from the tree's digests, the sessions that edited
// each file, and checks the stats' most edited files against it.
func checkFileStats(t *testing.T, r *Reader, st *Stats) {
	t.Helper()
	tree, err := r.Tree()
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]int{}
	for _, e := range tree.Sessions {
		if e.Digest == nil {
			continue
		}
		seen := map[string]bool{}
		for _, p := range e.Digest.Files {
			if !seen[p] {
				seen[p] = true
				want[p]++
			}
		}
	}
	if len(want) == 0 || len(st.Files) != min(len(want), StatsMaxFiles) {
		t.Fatalf("%d files in the stats, %d edited in the fixtures", len(st.Files), len(want))
	}
	for i, f := range st.Files {
		if f.Sessions != want[f.Path] || (i > 0 && f.Sessions > st.Files[i-1].Sessions) {
			t.Fatalf("file %d %+v: want %d sessions, in non-increasing order (%+v)", i, f, want[f.Path], st.Files)
		}
		if f.LastActivity == nil {
			t.Fatalf("file %s has no last activity", f.Path)
		}
	}
	top := 0
	for _, n := range want {
		top = max(top, n)
	}
	if st.Files[0].Sessions != top || !st.FilesComplete {
		t.Fatalf("most edited %+v, want %d sessions; complete %v", st.Files[0], top, st.FilesComplete)
	}
}
