package ui

import (
	"context"
	"strings"
	"testing"

	cdpbrowser "github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/chromedp"

	"ctx/app"
)

// grantClipboard lets the page of origin write and read the clipboard, as
// a person's browser does after they allow it.
func grantClipboard(t *testing.T, tb *tab) {
	t.Helper()
	for _, name := range []string{"clipboard-read", "clipboard-write"} {
		tb.run(t, func(ctx context.Context, tg *chromedp.Target) (chromedp.Void, error) {
			_, err := cdp.Call(ctx, tg, cdpbrowser.SetPermission, cdpbrowser.SetPermissionParams{
				Permission: &cdpbrowser.PermissionDescriptor{Name: name}, Setting: cdpbrowser.PermissionSettingGranted, Origin: tb.base})
			return chromedp.Void{}, err
		})
	}
}

// TestBrowserSessionResume copies a session's resume command with its
// button, links a parent session to each subagent and a subagent back to
// its parent, and says plainly when an agent cannot resume.
func TestBrowserSessionResume(t *testing.T) {
	w := getWorld(t)
	rn := startServer(t, w)
	tb := newTab(t, rn)
	grantClipboard(t, tb)

	res, err := rn.srv.app.Resume(context.Background(), w.hostile.String())
	if err != nil || !res.Supported {
		t.Fatalf("resume of the hostile session: %+v, %v", res, err)
	}
	tb.open(t, "/session/"+w.hostile.String())
	if got := eval[string](t, tb, `document.getElementById("resumecmd").textContent`); got != res.CommandLine {
		t.Fatalf("the page shows the resume command %q, want %q", got, res.CommandLine)
	}
	if !strings.Contains(res.CommandLine, "claude --resume 0000feed-") {
		t.Fatalf("resume command %q", res.CommandLine)
	}
	tb.run(t, chromedp.Click(chromedp.CSS("button.copy")),
		chromedp.WaitVisible(chromedp.CSS(`button.copy[data-copied="1"]`)))
	clip, err := chromedp.Run(tb.ctx, chromedp.Evaluate[string](`navigator.clipboard.readText()`, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatal(err)
	}
	if clip != res.CommandLine {
		t.Fatalf("the clipboard holds %q, want %q", clip, res.CommandLine)
	}
	tb.screenshot(t, "session-resume")

	// A parent session lists its subagents; each links to its page, which
	// links back to the parent.
	list, err := rn.srv.app.ListSessions(context.Background(), app.SessionsRequest{Limit: app.MaxSessionsLimit})
	if err != nil {
		t.Fatal(err)
	}
	var parent string
	for _, row := range list.Sessions {
		if row.Subagents > 0 {
			parent = row.CtxSessionID
			break
		}
	}
	if parent == "" {
		t.Fatal("no fixture session has subagents")
	}
	tb.open(t, "/session/"+parent)
	if n := eval[int](t, tb, `document.querySelectorAll(".subagents li a").length`); n == 0 {
		t.Fatal("the parent session lists no subagent")
	}
	tb.run(t, chromedp.Click(chromedp.CSS(".subagents li a")), chromedp.WaitVisible(chromedp.CSS(`html[data-ready="1"] .sesshead`)))
	if u := tb.location(t); !strings.Contains(u, "/session/ses_") || strings.Contains(u, parent) {
		t.Fatalf("the subagent link opened %s", u)
	}
	up := eval[string](t, tb, `[...document.querySelectorAll(".facts a")].map(a => a.getAttribute("href")).join(" ")`)
	if !strings.Contains(up, "/session/"+parent) {
		t.Fatalf("the subagent page links %q, not its parent %s", up, parent)
	}
	if !strings.Contains(eval[string](t, tb, `document.querySelector(".resume").textContent`), "root session") {
		t.Fatal("a subagent's resume does not say it goes through the root session")
	}

	// An agent without a resume command says so, with no command to copy.
	plain := false
	for _, row := range list.Sessions {
		r, err := rn.srv.app.Resume(context.Background(), row.CtxSessionID)
		if err != nil {
			t.Fatal(err)
		}
		if r.Supported {
			continue
		}
		tb.open(t, "/session/"+row.CtxSessionID)
		if n := eval[int](t, tb, `document.querySelectorAll("#resumecmd, button.copy").length`); n != 0 {
			t.Fatal("an agent without resume shows a command")
		}
		if txt := eval[string](t, tb, `document.querySelector(".resumenote.none").textContent`); !strings.HasPrefix(txt, "No resume command:") {
			t.Fatalf("no plain note: %q", txt)
		}
		plain = true
		break
	}
	if !plain {
		t.Fatal("no fixture session of an agent without resume")
	}
	tb.checkOrigin(t)
}
