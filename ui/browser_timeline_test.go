package ui

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"ctx/app"
	"ctx/core"
)

// TestBrowserTimeline shows the days of the timeline model newest first,
// with each session's edited files and the noted commit, filters by agent
// and opens a session from its day.
func TestBrowserTimeline(t *testing.T) {
	w := getWorld(t)
	rn := startServer(t, w)
	tb := newTab(t, rn)
	model, err := rn.srv.app.Timeline(context.Background(), app.TimelineRequest{Filter: core.Filter{Since: time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)},
		Repo: w.repo, Location: time.Local})
	if err != nil {
		t.Fatal(err)
	}
	tb.open(t, "/timeline?since=2000-01-01")
	days := eval[[]string](t, tb, `[...document.querySelectorAll(".day h2 time")].map(e => e.getAttribute("datetime"))`)
	if len(days) != len(model.Days) || len(days) < 3 {
		t.Fatalf("the page shows %d days, the model %d", len(days), len(model.Days))
	}
	if !slices.IsSortedFunc(days, func(a, b string) int { return strings.Compare(b, a) }) {
		t.Fatalf("days are not newest first: %v", days)
	}
	if n := eval[int](t, tb, `document.querySelectorAll(".tsession").length`); n != model.Sessions {
		t.Fatalf("%d sessions on the page, %d in the model", n, model.Sessions)
	}
	hostile := `document.querySelector(".tsession a[href='/session/` + w.hostile.String() + `']").closest(".tsession")`
	if files := eval[string](t, tb, hostile+`.querySelector(".tfiles").textContent`); !strings.Contains(files, "hello.go") {
		t.Fatalf("the hostile session's edited files: %q", files)
	}
	if !strings.Contains(eval[string](t, tb, hostile+`.textContent`), hostileScript) {
		t.Fatal("the hostile title is not shown as text")
	}
	if v := eval[string](t, tb, `String(window.__pwned)`); v != "undefined" {
		t.Fatalf("hostile text ran: %s", v)
	}
	commit := eval[string](t, tb, `[...document.querySelectorAll(".tcommit a")].map(a => a.getAttribute("href")).join(" ")`)
	if !strings.Contains(commit, "/blame/commit?") || !strings.Contains(commit, "/session/"+w.hostile.String()) {
		t.Fatalf("the noted commit links %q", commit)
	}
	tb.screenshot(t, "timeline")

	tb.open(t, "/timeline?since=2000-01-01&provider=codex")
	if n := eval[int](t, tb, `[...document.querySelectorAll(".tsession .badge")].filter(b => b.textContent !== "codex" && b.textContent !== "subagent").length`); n != 0 {
		t.Fatal("the agent filter lets other agents through")
	}
	if n := eval[int](t, tb, `document.querySelectorAll(".tsession").length`); n == 0 {
		t.Fatal("no codex session on the timeline")
	}
	tb.open(t, "/timeline?since=2000-01-01&until=2000-02-01")
	if n := eval[int](t, tb, `document.querySelectorAll(".day").length`); n != 0 {
		t.Fatal("the until bound lets later days through")
	}
	// The default window (the last 30 days) holds today's hostile session.
	tb.open(t, "/timeline")
	if v := eval[string](t, tb, `document.querySelector("input[name=since]").value`); v != "30d" {
		t.Fatalf("the default window is %q", v)
	}
	tb.run(t, chromedp.Click(chromedp.CSS(".tsession a.stitle")), chromedp.WaitVisible(chromedp.CSS(`html[data-ready="1"] .sesshead`)))
	if u := tb.location(t); !strings.Contains(u, "/session/ses_") {
		t.Fatalf("a timeline session opened %s", u)
	}
	tb.checkOrigin(t)
}
