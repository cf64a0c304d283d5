package ui

import (
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestBrowserSearch types a query, waits for results as you type, opens a
// hit in its session and comes back with the back button.
func TestBrowserSearch(t *testing.T) {
	w := getWorld(t)
	rn := startServer(t, w)
	tb := newTab(t, rn)
	tb.open(t, "/search")
	tb.run(t, chromedp.SendKeys(chromedp.CSS("#q"), "orchestrate"),
		chromedp.WaitVisible(chromedp.CSS(`body[data-searched="orchestrate"] .hit mark`)))
	if n := eval[int](t, tb, `document.querySelectorAll(".hit").length`); n == 0 {
		t.Fatal("no hits")
	}
	if m := eval[string](t, tb, `document.querySelector(".hit mark").textContent`); !strings.EqualFold(m, "orchestrate") {
		t.Fatalf("highlighted %q", m)
	}
	if u := tb.location(t); !strings.Contains(u, "q=orchestrate") {
		t.Fatalf("the URL does not follow the query: %s", u)
	}
	tb.screenshot(t, "search")
	href := eval[string](t, tb, `document.querySelector(".hit a").getAttribute("href")`)
	tb.run(t, chromedp.Click(chromedp.CSS(".hit a")), chromedp.WaitVisible(chromedp.CSS(`html[data-ready="1"] .sesshead`)))
	u := tb.location(t)
	frag := href[strings.Index(href, "#")+1:]
	if !strings.Contains(u, "/session/ses_") || !strings.HasSuffix(u, "#"+frag) {
		t.Fatalf("the hit opened %s, want its event %s", u, frag)
	}
	if !eval[bool](t, tb, `!!document.getElementById(`+jsString(frag)+`)`) {
		t.Fatal("the hit's event is not on its session page")
	}
	tb.run(t, chromedp.NavigateBack(), chromedp.WaitVisible(chromedp.CSS(`#results .hit`)))
	if v := eval[string](t, tb, `document.getElementById("q").value`); v != "orchestrate" {
		t.Fatalf("back: the query is %q", v)
	}
	tb.checkOrigin(t)
}

// TestBrowserSessionFolds opens a session in log mode and folds and
// unfolds a tool call with the mouse and with the keyboard.
func TestBrowserSessionFolds(t *testing.T) {
	w := getWorld(t)
	rn := startServer(t, w)
	tb := newTab(t, rn)
	tb.open(t, "/session/"+w.hostile.String()+"?mode=log")
	if n := eval[int](t, tb, `document.querySelectorAll("details.call").length`); n == 0 {
		t.Fatal("no folded call in log mode")
	}
	if eval[bool](t, tb, `document.querySelector("details.call").open`) {
		t.Fatal("a call starts unfolded")
	}
	if n := eval[int](t, tb, `document.querySelectorAll("details.call .output").length`); n == 0 {
		t.Fatal("the call's output is not folded under it")
	}
	tb.run(t, chromedp.Click(chromedp.CSS("details.call > summary")))
	if !eval[bool](t, tb, `document.querySelector("details.call").open`) {
		t.Fatal("a click does not unfold the call")
	}
	if n := eval[int](t, tb, `document.querySelectorAll("details.call[open] pre.diff .d-add").length`); n < 3 {
		t.Fatalf("the Write shows %d added lines, want its file as a diff", n)
	}
	tb.screenshot(t, "hostile-write")
	tb.run(t, chromedp.Click(chromedp.CSS("details.call > summary")))
	if eval[bool](t, tb, `document.querySelector("details.call").open`) {
		t.Fatal("a second click does not fold the call")
	}
	// Keys: j moves to the next event; o on a call unfolds it.
	eval[bool](t, tb, `document.activeElement.blur(), true`)
	for range 10 {
		if eval[bool](t, tb, `document.activeElement.tagName === "DETAILS"`) {
			break
		}
		tb.run(t, chromedp.KeyEvent("j"))
	}
	if !eval[bool](t, tb, `document.activeElement.tagName === "DETAILS"`) {
		t.Fatal("j never reached the call")
	}
	tb.run(t, chromedp.KeyEvent("o"))
	if !eval[bool](t, tb, `document.activeElement.open`) {
		t.Fatal("o does not unfold the focused call")
	}
	tb.run(t, chromedp.KeyEvent("/"))
	if id := eval[string](t, tb, `document.activeElement.name`); id != "q" {
		t.Fatalf("/ focused %q", id)
	}
	// A real Codex session's patches, unfolded.
	tb.open(t, "/search?q=apply_patch&provider=codex&scope=calls")
	tb.run(t, chromedp.Click(chromedp.CSS(".hit a")), chromedp.WaitVisible(chromedp.CSS(`html[data-ready="1"] details.call[open]`)))
	if n := eval[int](t, tb, `document.querySelectorAll("details.call[open] pre.diff span").length`); n == 0 {
		t.Fatal("the opened patch shows no diff")
	}
	tb.screenshot(t, "session-log")
	tb.open(t, "/session/"+eval[string](t, tb, `location.pathname.split("/")[2]`))
	tb.screenshot(t, "session")
	tb.checkOrigin(t)
}

// TestBrowserBlame follows a line of a linked file to the session and the
// event that wrote it.
func TestBrowserBlame(t *testing.T) {
	w := getWorld(t)
	rn := startServer(t, w)
	tb := newTab(t, rn)
	tb.open(t, "/blame?"+url.Values{"repo": {w.repo}, "file": {w.hostileFile}}.Encode())
	if n := eval[int](t, tb, `document.querySelectorAll("table.blame tbody tr").length`); n != 4 {
		t.Fatalf("%d blamed lines, want 4", n)
	}
	if n := eval[int](t, tb, `document.querySelectorAll("table.blame tr.agent").length`); n == 0 {
		t.Fatal("no line carries agent evidence")
	}
	tb.screenshot(t, "blame")
	tb.run(t, chromedp.Click(chromedp.CSS("tr.agent a.evt")), chromedp.WaitVisible(chromedp.CSS(`html[data-ready="1"] .ev.target`)))
	if u := tb.location(t); !strings.Contains(u, "/session/"+w.hostile.String()) {
		t.Fatalf("the evidence opened %s", u)
	}
	tb.open(t, "/blame/pr?"+url.Values{"repo": {w.repo}, "range": {"HEAD~0..HEAD"}}.Encode())
	tb.open(t, "/blame/commit?"+url.Values{"repo": {w.repo}, "rev": {"HEAD"}}.Encode())
	if n := eval[int](t, tb, `document.querySelectorAll("section.cfile").length`); n != 1 {
		t.Fatalf("the commit view lists %d files, want hello.go", n)
	}
	tb.screenshot(t, "blame-commit")
	tb.checkOrigin(t)
}

// TestBrowserHostile renders the hostile session in both modes and proves
// nothing in it ran, navigated or broke the page.
func TestBrowserHostile(t *testing.T) {
	w := getWorld(t)
	rn := startServer(t, w)
	tb := newTab(t, rn)
	for _, mode := range []string{"transcript", "log"} {
		tb.open(t, "/session/"+w.hostile.String()+"?mode="+mode)
		eval[bool](t, tb, `document.querySelectorAll("details").forEach(d => d.open = true), true`)
		if v := eval[string](t, tb, `String(window.__pwned)`); v != "undefined" {
			t.Fatalf("%s: hostile text ran: %s", mode, v)
		}
		if n := eval[int](t, tb, `[...document.scripts].filter(s => !s.src.endsWith("/assets/app.js")).length`); n != 0 {
			t.Fatalf("%s: %d script elements came from the transcript", mode, n)
		}
		if n := eval[int](t, tb, `document.querySelectorAll("img, iframe, object, embed, [onerror], [onclick]").length`); n != 0 {
			t.Fatalf("%s: %d active elements came from the transcript", mode, n)
		}
		if n := eval[int](t, tb, `[...document.links].filter(a => !a.href.startsWith(location.origin)).length`); n != 0 {
			t.Fatalf("%s: %d links leave the viewer", mode, n)
		}
		body := eval[string](t, tb, `document.getElementById("events").textContent`)
		for _, want := range []string{hostileScript, "javascript:alert(1)", "red alert", "The end of the hostile session."} {
			if !strings.Contains(body, want) {
				t.Fatalf("%s: the page does not show %q as text: ...%s", mode, want, body[max(0, len(body)-1500):])
			}
		}
		if strings.Contains(body, "\x1b") || strings.Contains(body, "[31m") {
			t.Fatalf("%s: a terminal escape reached the page", mode)
		}
		if !strings.Contains(body, "HUGE-LINE-START") || strings.Contains(body, "HUGE-LINE-END") ||
			eval[int](t, tb, `document.querySelectorAll(".clipped a[href^='/raw/']").length`) == 0 {
			t.Fatalf("%s: the 5 MB line is not clipped with a link to its whole text", mode)
		}
		if eval[int](t, tb, `document.documentElement.scrollWidth - document.documentElement.clientWidth`) > 1 {
			t.Fatalf("%s: the page scrolls sideways", mode)
		}
		tb.screenshot(t, "hostile-"+mode)
	}
	raw := eval[string](t, tb, `document.querySelector(".clipped a[href^='/raw/']").getAttribute("href")`)
	rn.login(t)
	code, text := rn.get(t, raw)
	if code != 200 || !strings.HasSuffix(text, "HUGE-LINE-END") {
		t.Fatalf("raw text: %d, %d bytes", code, len(text))
	}
	tb.checkOrigin(t)
}

// TestBrowserPhone renders each page at a phone's width without sideways
// scrolling.
func TestBrowserPhone(t *testing.T) {
	w := getWorld(t)
	rn := startServer(t, w)
	tb := newTab(t, rn)
	tb.run(t, chromedp.EmulateViewport(390, 844, chromedp.EmulateScale(2), chromedp.EmulateMobile))
	for name, path := range map[string]string{
		"search":   "/search?q=orchestrate",
		"session":  "/session/" + w.hostile.String() + "?mode=log",
		"blame":    "/blame?" + url.Values{"repo": {w.repo}, "file": {w.hostileFile}}.Encode(),
		"timeline": "/timeline?since=2000-01-01",
		"stats":    "/stats?since=2000-01-01",
	} {
		tb.open(t, path)
		if d := eval[int](t, tb, `document.documentElement.scrollWidth - document.documentElement.clientWidth`); d > 1 {
			t.Errorf("%s scrolls sideways by %d px on a phone", name, d)
		}
		tb.screenshot(t, "phone-"+name)
	}
}

func jsString(s string) string {
	return "'" + strings.NewReplacer(`\`, `\\`, `'`, `\'`).Replace(s) + "'"
}

// TestBrowserSessions lists sessions, scrolls to load the next pages,
// filters by agent and opens a session.
func TestBrowserSessions(t *testing.T) {
	w := getWorld(t)
	rn := startServer(t, w)
	rn.srv.sessionsLimit = 3
	tb := newTab(t, rn)
	tb.open(t, "/")
	total := eval[int](t, tb, `parseInt(document.querySelector("p.meta").textContent)`)
	if total < 5 {
		t.Fatalf("%d sessions listed in all", total)
	}
	for range 20 {
		if eval[int](t, tb, `document.querySelectorAll(".srow").length`) == total {
			break
		}
		// Scrolled by script: waiting for a.more would hang once the
		// last page, loaded meanwhile, has taken the link away.
		eval[bool](t, tb, `window.scrollTo(0, document.body.scrollHeight), true`)
		tb.run(t, chromedp.Sleep(300*time.Millisecond))
	}
	if n := eval[int](t, tb, `document.querySelectorAll(".srow").length`); n != total {
		t.Fatalf("scrolling loaded %d of %d sessions", n, total)
	}
	tb.open(t, "/?provider=codex")
	if n := eval[int](t, tb, `[...document.querySelectorAll(".srow .badge")].filter(b => b.textContent === "claude-code").length`); n != 0 {
		t.Fatal("the agent filter lets other agents through")
	}
	tb.open(t, "/")
	tb.screenshot(t, "sessions")
	tb.run(t, chromedp.Click(chromedp.CSS(".srow a.stitle")), chromedp.WaitVisible(chromedp.CSS(`html[data-ready="1"] .sesshead`)))
	if u := tb.location(t); !strings.Contains(u, "/session/ses_") {
		t.Fatalf("a session title opened %s", u)
	}
	tb.checkOrigin(t)
}
