package ui

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"ctx/query"
)

// benchTyped are typed one key at a time: each keystroke's time to its
// results on the page is one sample.
var benchTyped = []string{"flaky test", "parseConfig", "connection refused", "retry backoff", "migration"}

// BenchmarkBrowserFigures measures the viewer over an existing store in a
// real browser, against the built `ctx ui` process:
//
//	CTX_UI_BENCH_STORE=S go test ./ui/ -run '^$' -bench BrowserFigures -benchtime 1x
//
// It reports the sessions and search pages' first screens (navigation start to first
// contentful paint), keystroke to rendered results (p50, p95), the first
// screen of the store's longest session in log mode, and the peak RSS of
// the ctx ui process.
func BenchmarkBrowserFigures(b *testing.B) {
	store := os.Getenv("CTX_UI_BENCH_STORE")
	if store == "" {
		b.Skip("set CTX_UI_BENCH_STORE to a store (docs/benchmarks.md)")
	}
	longest, events := longestSession(b, store)
	proc, url := startUIProcess(b, store)
	rn := &running{base: url[:strings.Index(url, "/?k=")]}
	tb := newBenchTab(b, rn, url)
	for range b.N {
		b.ReportMetric(firstScreen(b, tb, "/"), "sessions-first-screen-ms")
		fcp := firstScreen(b, tb, "/search")
		b.ReportMetric(fcp, "search-first-screen-ms")
		long := firstScreen(b, tb, "/session/"+longest+"?mode=log")
		b.ReportMetric(long, "long-session-first-screen-ms")
		b.Logf("longest session %s: %d events, first screen %.0f ms", longest, events, long)
		p50, p95, n := typing(b, tb)
		b.ReportMetric(p50, "keystroke-p50-ms")
		b.ReportMetric(p95, "keystroke-p95-ms")
		b.Logf("%d keystrokes: p50 %.1f ms, p95 %.1f ms", n, p50, p95)
	}
	b.ReportMetric(peakRSS(b, proc.Process.Pid), "ui-peak-rss-MB")
}

func longestSession(b *testing.B, store string) (string, int) {
	r, err := query.Open(store)
	if err != nil {
		b.Fatal(err)
	}
	defer r.Close()
	tree, err := r.Tree()
	if err != nil {
		b.Fatal(err)
	}
	best, n := "", 0
	for _, e := range tree.Sessions {
		if e.Events > n {
			best, n = e.Session.String(), e.Events
		}
	}
	return best, n
}

// startUIProcess builds and starts ctx ui on the store and returns its URL.
func startUIProcess(b *testing.B, store string) (*exec.Cmd, string) {
	bin := filepath.Join(b.TempDir(), "ctx")
	if out, err := exec.Command("go", "build", "-o", bin, "ctx/cmd/ctx-core").CombinedOutput(); err != nil {
		b.Fatalf("go build: %v\n%s", err, out)
	}
	cmd := exec.Command(bin, "ui")
	cmd.Env = append(os.Environ(), "CTX_HOME="+store, "CTX_DAEMON=off")
	out, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		b.Fatal(err)
	}
	return cmd, strings.TrimSpace(strings.TrimPrefix(line, "ctx ui: "))
}

func newBenchTab(b *testing.B, rn *running, url string) *tab {
	ctx, cancel := chromedp.NewContext(browser(b))
	b.Cleanup(cancel)
	tb := &tab{ctx: ctx, base: rn.base}
	if err := chromedp.Do(ctx, chromedp.Navigate(url), waitReady()); err != nil {
		b.Fatal(err)
	}
	return tb
}

// firstScreen loads path and returns the time from navigation start to the
// first contentful paint.
func firstScreen(b *testing.B, tb *tab, path string) float64 {
	var best []float64
	for range 5 {
		if err := chromedp.Do(tb.ctx, chromedp.Navigate(tb.base+path), waitReady()); err != nil {
			b.Fatal(err)
		}
		v, err := chromedp.Run(tb.ctx, chromedp.Evaluate[float64](
			`new Promise(r => { const f = () => { const p = performance.getEntriesByName("first-contentful-paint")[0]; p ? r(p.startTime) : setTimeout(f, 10) }; f() })`,
			chromedp.EvalAwaitPromise))
		if err != nil {
			b.Fatal(err)
		}
		best = append(best, v)
	}
	slices.Sort(best)
	return best[len(best)/2]
}

// typing types the benchmark queries key by key on the search page and
// returns the p50 and p95 of keystroke-to-results.
func typing(b *testing.B, tb *tab) (float64, float64, int) {
	var all []float64
	for _, q := range benchTyped {
		if err := chromedp.Do(tb.ctx, chromedp.Navigate(tb.base+"/search"), waitReady()); err != nil {
			b.Fatal(err)
		}
		for i := 1; i <= len(q); i++ {
			if q[i-1] == ' ' {
				continue
			}
			if i > 1 && q[i-2] == ' ' {
				if err := chromedp.Do(tb.ctx, chromedp.SendKeys(chromedp.CSS("#q"), " ")); err != nil {
					b.Fatal(err)
				}
			}
			want := strings.TrimSpace(q[:i])
			err := chromedp.Do(tb.ctx, chromedp.SendKeys(chromedp.CSS("#q"), q[i-1:i]),
				chromedp.WaitVisible(chromedp.CSS(`body[data-searched=`+strconv.Quote(want)+`]`)))
			if err != nil {
				b.Fatal(err)
			}
		}
		v, err := chromedp.Run(tb.ctx, chromedp.Evaluate[[]float64](`performance.getEntriesByName("ctx-search").map(e => e.duration)`))
		if err != nil {
			b.Fatal(err)
		}
		all = append(all, v...)
		time.Sleep(50 * time.Millisecond)
	}
	slices.Sort(all)
	return all[len(all)/2], all[len(all)*95/100], len(all)
}

// peakRSS is the VmHWM of the process in MB.
func peakRSS(b *testing.B, pid int) float64 {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		b.Fatal(err)
	}
	for _, l := range strings.Split(string(data), "\n") {
		if strings.HasPrefix(l, "VmHWM:") {
			kb, _ := strconv.Atoi(strings.Fields(l)[1])
			return float64(kb) / 1024
		}
	}
	return 0
}
