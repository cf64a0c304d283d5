package ui

import (
	"context"
	"strings"
	"testing"
	"time"

	"ctx/app"
	"ctx/core"
)

// TestBrowserStats draws the stats model: the agents table, bars per day
// and per week that add up to the model's totals, and the models.
func TestBrowserStats(t *testing.T) {
	w := getWorld(t)
	rn := startServer(t, w)
	tb := newTab(t, rn)
	since := core.Filter{Since: time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)}
	for _, period := range []string{app.PeriodDay, app.PeriodWeek} {
		model, err := rn.srv.app.Stats(context.Background(), app.StatsRequest{Filter: since, Period: period, Location: time.Local})
		if err != nil {
			t.Fatal(err)
		}
		tb.open(t, "/stats?since=2000-01-01&period="+period)
		if n := eval[int](t, tb, `document.querySelectorAll("table.stats:not(.models) tbody tr").length`); n != len(model.Agents) || n < 3 {
			t.Fatalf("%s: %d agent rows, the model has %d", period, n, len(model.Agents))
		}
		if n := eval[int](t, tb, `document.querySelectorAll("#chart-events g.brow").length`); n != len(model.Periods) {
			t.Fatalf("%s: %d bars, the model has %d periods", period, n, len(model.Periods))
		}
		sum, want := 0, 0
		for _, p := range model.Periods {
			want += p.Total.Events
		}
		sum = eval[int](t, tb, `[...document.querySelectorAll("#chart-events rect.bar")].reduce((s, r) => s + parseInt(r.dataset.value), 0)`)
		if sum != want || want == 0 {
			t.Fatalf("%s: the event bars add up to %d, the model's periods to %d", period, sum, want)
		}
		if wd := eval[float64](t, tb, `Math.max(...[...document.querySelectorAll("#chart-tools rect.bar")].map(r => r.getBBox().width))`); wd < 10 {
			t.Fatalf("%s: the widest tool-call bar is %.1f wide", period, wd)
		}
		tb.screenshot(t, "stats-"+period)
	}
	claude := eval[string](t, tb, `[...document.querySelectorAll("table.stats tbody tr")].find(r => r.textContent.includes("claude-code")).textContent`)
	if strings.Contains(claude, "not recorded") {
		t.Fatalf("Claude Code's tokens are not shown: %q", claude)
	}
	if n := eval[int](t, tb, `document.querySelectorAll("table.models tbody tr").length`); n == 0 {
		t.Fatal("no model listed")
	}
	if v := eval[string](t, tb, `String(window.__pwned)`); v != "undefined" {
		t.Fatalf("hostile text ran: %s", v)
	}
	checkFilesEdited(t, rn, tb, since)
	tb.open(t, "/stats?since=2000-01-01&provider=amp")
	if n := eval[int](t, tb, `document.querySelectorAll("table.stats:not(.models) tbody tr").length`); n != 1 {
		t.Fatalf("the agent filter leaves %d agents", n)
	}
	tb.open(t, "/stats?period=month")
	if !strings.Contains(eval[string](t, tb, `document.querySelector("main").textContent`), "period must be day or week") {
		t.Fatal("a bad period is not a typed error page")
	}
	tb.checkOrigin(t)
}

// checkFilesEdited: the stats page lists the model's most edited files
// with their session counts, and a file leads to the sessions that edited
// it.
func checkFilesEdited(t *testing.T, rn *running, tb *tab, since core.Filter) {
	t.Helper()
	model, err := rn.srv.app.Stats(context.Background(), app.StatsRequest{Filter: since, Location: time.Local})
	if err != nil {
		t.Fatal(err)
	}
	if len(model.Files) == 0 {
		t.Fatal("the fixtures edit no file")
	}
	tb.open(t, "/stats?since=2000-01-01")
	rows := eval[[]any](t, tb, `[...document.querySelectorAll("#files tbody tr")].map(r => [r.cells[0].textContent, parseInt(r.cells[1].textContent)])`)
	if len(rows) != len(model.Files) {
		t.Fatalf("%d file rows, the model has %d", len(rows), len(model.Files))
	}
	for i, r := range rows {
		cells := r.([]any)
		if cells[0] != oneLine(model.Files[i].Path) || int(cells[1].(float64)) != model.Files[i].Sessions {
			t.Fatalf("file row %d %v, the model says %+v", i, cells, model.Files[i])
		}
	}
	top := model.Files[0]
	want, err := rn.srv.app.ListSessions(context.Background(), app.SessionsRequest{Filter: core.Filter{Files: []string{top.Path}}})
	if err != nil {
		t.Fatal(err)
	}
	tb.open(t, eval[string](t, tb, `document.querySelector("#files tbody tr a").getAttribute("href")`))
	if v := eval[string](t, tb, `document.querySelector("input[name=file]").value`); v != top.Path {
		t.Fatalf("the file's link opened the sessions filtered by %q, want %q", v, top.Path)
	}
	if n := eval[int](t, tb, `document.querySelectorAll("#sessions article.srow").length`); n != len(want.Sessions) || n < top.Sessions {
		t.Fatalf("the file's link lists %d sessions; %d edited it (the stats count %d)", n, len(want.Sessions), top.Sessions)
	}
}
