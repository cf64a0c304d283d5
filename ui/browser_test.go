package ui

import (
	"bytes"
	"context"
	"flag"
	"image"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
)

// -screenshots DIR writes each page's screenshot there (docs/ui).
var screenshotDir = flag.String("screenshots", "", "write the browser tests' screenshots to this directory")

var (
	browserOnce   sync.Once
	browserCtx    context.Context
	browserCancel context.CancelFunc
	browserPath   string
	browserDir    string
)

// chromium finds the Debian chromium (or $CTX_CHROMIUM).
func chromium() string {
	if p := os.Getenv("CTX_CHROMIUM"); p != "" {
		return p
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// browser returns a context of one shared headless Chromium, started with
// a fresh profile and every background network feature off. Without a
// Chromium the test skips with one line, except under CI, which must run
// it (.ci/run installs the package).
func browser(t testing.TB) context.Context {
	t.Helper()
	browserOnce.Do(func() {
		browserPath = chromium()
		if browserPath == "" {
			return
		}
		browserDir, _ = os.MkdirTemp("", "ctx-ui-chromium-")
		opts := []chromedp.ExecAllocatorOption{
			chromedp.ExecPath(browserPath), chromedp.UserDataDir(browserDir),
			chromedp.Flag("headless", true), chromedp.NoSandbox, chromedp.DisableGPU,
			chromedp.Flag("disable-quic", true), chromedp.NoFirstRun, chromedp.NoDefaultBrowserCheck,
			chromedp.Flag("disable-background-networking", true), chromedp.Flag("disable-component-update", true),
			chromedp.Flag("disable-sync", true), chromedp.Flag("disable-dev-shm-usage", true),
			chromedp.Flag("hide-scrollbars", true), chromedp.Flag("mute-audio", true),
			chromedp.WindowSize(1280, 800),
		}
		actx, _ := chromedp.NewExecAllocator(context.Background(), opts...)
		browserCtx, browserCancel = chromedp.NewContext(actx)
		if err := chromedp.Do(browserCtx); err != nil {
			browserCancel()
			browserCtx, browserPath = nil, ""
		}
	})
	if browserCtx == nil {
		if os.Getenv("CI") != "" {
			t.Fatal("no Chromium found: CI must run the browser tests (.ci/run installs chromium)")
		}
		t.Skip("no Chromium found (apt-get install chromium): skipping the browser tests")
	}
	return browserCtx
}

func stopBrowser() {
	if browserCancel != nil {
		browserCancel()
	}
	if browserDir != "" {
		os.RemoveAll(browserDir)
	}
}

// tab is a browser tab on a running server that records every request the
// page makes, so a test can prove none left the server's origin.
type tab struct {
	ctx  context.Context
	base string
	mu   sync.Mutex
	urls []string
}

func newTab(t *testing.T, rn *running) *tab {
	t.Helper()
	tabCtx, cancel := chromedp.NewContext(browser(t))
	t.Cleanup(cancel)
	tb := &tab{base: rn.base}
	err := chromedp.Listen(tabCtx, func(ev any) {
		if e, ok := ev.(*network.EventRequestWillBeSent); ok {
			tb.mu.Lock()
			tb.urls = append(tb.urls, e.Request.URL)
			tb.mu.Unlock()
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel2 := context.WithTimeout(tabCtx, 5*time.Minute) // a hang guard, not a timing check
	t.Cleanup(cancel2)
	tb.ctx = ctx
	tb.run(t, chromedp.Navigate(rn.srv.URL()), waitReady())
	return tb
}

func (tb *tab) run(t *testing.T, actions ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	if err := chromedp.Do(tb.ctx, actions...); err != nil {
		t.Fatal(err)
	}
}

// eval evaluates js in the page and returns its value.
func eval[T any](t *testing.T, tb *tab, js string) T {
	t.Helper()
	v, err := chromedp.Run(tb.ctx, chromedp.Evaluate[T](js))
	if err != nil {
		t.Fatalf("%s: %v", js, err)
	}
	return v
}

// waitReady waits for the page's module to have run.
func waitReady() chromedp.Action[chromedp.Void] {
	return chromedp.WaitVisible(chromedp.CSS(`html[data-ready="1"] main`))
}

// open navigates to path and waits for the page.
func (tb *tab) open(t *testing.T, path string) {
	t.Helper()
	tb.run(t, chromedp.Navigate(tb.base+path), waitReady())
}

func (tb *tab) location(t *testing.T) string {
	t.Helper()
	u, err := chromedp.Run(tb.ctx, chromedp.Location())
	if err != nil {
		t.Fatal(err)
	}
	return u
}

// checkOrigin fails when the page asked anything of another origin.
func (tb *tab) checkOrigin(t *testing.T) {
	t.Helper()
	tb.mu.Lock()
	defer tb.mu.Unlock()
	for _, u := range tb.urls {
		if !strings.HasPrefix(u, tb.base+"/") && !strings.HasPrefix(u, "data:") {
			t.Errorf("the page requested another origin: %.120s", u)
		}
	}
}

// screenshot takes the viewport, checks that it is not blank (enough
// distinct colours in a real page of text) and writes it when asked.
func (tb *tab) screenshot(t *testing.T, name string) {
	t.Helper()
	buf, err := chromedp.Run(tb.ctx, chromedp.CaptureScreenshot())
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(buf))
	if err != nil {
		t.Fatal(err)
	}
	if n := colours(img); n < 8 {
		t.Fatalf("%s: the screenshot is blank (%d colours)", name, n)
	}
	if *screenshotDir != "" {
		if err := os.WriteFile(filepath.Join(*screenshotDir, name+".png"), buf, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func colours(img image.Image) int {
	seen := map[uint32]bool{}
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y += 3 {
		for x := b.Min.X; x < b.Max.X; x += 3 {
			r, g, bl, _ := img.At(x, y).RGBA()
			seen[(r>>12)<<8|(g>>12)<<4|bl>>12] = true
		}
	}
	return len(seen)
}
