// Command ctx-mcpbench drives one ctx mcp serve over stdio with the
// official MCP Go SDK client and prints figures of the running server:
//
//	ctx-mcpbench -ctx BIN [-searches 300] [-mixed 2000] [-concurrency 20] [-page-largest]
//
// The server runs with the environment of the driver (HOME, CTX_HOME;
// set CTX_DAEMON=off to measure the server alone). It measures search
// latency over varied queries after a warm-up, runs a mixed load of every
// reading tool at a given concurrency and counts failures, and with
// -page-largest pages the store's largest session through show_session to
// its end, checking that every event arrives exactly once. Every JSON-RPC
// line the server writes is measured; the driver fails when one reaches
// the 1 MiB MCP response limit.
package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// maxResponseLine is the spec's aggregate MCP response limit.
const maxResponseLine = 1 << 20

// queries are varied searches over the synthetic corpus vocabulary.
var queries = []string{"flaky test timeout", "parseConfig", "connection refused", "apply_patch",
	"retry backoff", "nil pointer dereference", "go test ./...", "migration rollback", "cache invalidation",
	"race condition", "docker compose", "rate limit", "unit tests", "refactor handler", "database schema",
	"lint errors", "build failed", "config file", "error handling", "pull request"}

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "ctx-mcpbench:", err)
		os.Exit(1)
	}
}

type figures struct {
	Searches    int     `json:"searches"`
	SearchP50MS float64 `json:"search_p50_ms"`
	SearchP95MS float64 `json:"search_p95_ms"`
	SearchP99MS float64 `json:"search_p99_ms"`
	// SearchTookP50MS is the median of the server's own metadata.took_ms:
	// the query alone, without transport and client.
	SearchTookP50MS float64 `json:"search_took_p50_ms"`
	Mixed           int     `json:"mixed_requests,omitempty"`
	Concurrency     int     `json:"concurrency,omitempty"`
	MixedErrors     int64   `json:"mixed_errors"`
	MixedSeconds    float64 `json:"mixed_seconds,omitempty"`
	MixedP50MS      float64 `json:"mixed_p50_ms,omitempty"`
	MixedP95MS      float64 `json:"mixed_p95_ms,omitempty"`
	PagedEvents     int     `json:"paged_events,omitempty"`
	PagedPages      int     `json:"paged_pages,omitempty"`
	Lines           int64   `json:"response_lines"`
	MaxLineBytes    int64   `json:"max_response_line_bytes"`
	ServerMaxRSS    int64   `json:"server_peak_rss_kib"`
}

func run() error {
	bin := flag.String("ctx", "ctx", "the ctx binary")
	searches := flag.Int("searches", 300, "timed search calls")
	mixed := flag.Int("mixed", 2000, "mixed requests")
	conc := flag.Int("concurrency", 20, "concurrent callers of the mixed load")
	page := flag.Bool("page-largest", false, "page the largest session through show_session")
	flag.Parse()

	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, *bin, "mcp", "serve")
	cmd.Stderr = os.Stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return err
	}
	meter := &lineMeter{r: stdout}
	client := sdk.NewClient(&sdk.Implementation{Name: "ctx-mcpbench", Version: "1"}, nil)
	cs, err := client.Connect(ctx, &sdk.IOTransport{Reader: meter, Writer: stdin, MaxLineLength: -1},
		&sdk.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	if err != nil {
		return fmt.Errorf("connect: %w", err)
	}
	b := &bench{ctx: ctx, cs: cs}
	var f figures
	if *searches > 0 {
		if err := b.searchLatency(*searches, &f); err != nil {
			return err
		}
	}
	if *mixed > 0 {
		if err := b.mixedLoad(*mixed, *conc, &f); err != nil {
			return err
		}
	}
	if *page {
		if err := b.pageLargest(&f); err != nil {
			return err
		}
	}
	f.ServerMaxRSS = peakRSS(cmd.Process.Pid)
	cs.Close()
	_ = cmd.Wait()
	f.Lines, f.MaxLineBytes = meter.lines.Load(), meter.max.Load()
	line, _ := json.Marshal(f)
	fmt.Printf("%s\n", line)
	if f.MaxLineBytes >= maxResponseLine {
		return fmt.Errorf("a response line of %d bytes reached the 1 MiB limit", f.MaxLineBytes)
	}
	if f.MixedErrors > 0 {
		return fmt.Errorf("%d of the mixed requests failed", f.MixedErrors)
	}
	return nil
}

type bench struct {
	ctx context.Context
	cs  *sdk.ClientSession
}

// call calls a tool and returns its structuredContent; a tool error is an
// error.
func (b *bench) call(name string, args map[string]any) (map[string]any, error) {
	res, err := b.cs.CallTool(b.ctx, &sdk.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	raw, _ := json.Marshal(res.StructuredContent)
	var obj map[string]any
	if err := json.Unmarshal(raw, &obj); err != nil {
		return nil, fmt.Errorf("%s: structuredContent: %w", name, err)
	}
	if res.IsError {
		return obj, fmt.Errorf("%s: tool error %v", name, obj["error_code"])
	}
	return obj, nil
}

func (b *bench) searchLatency(n int, f *figures) error {
	for i := range 30 { // warm-up: every query once or more
		if _, err := b.call("search", map[string]any{"query": queries[i%len(queries)]}); err != nil {
			return err
		}
	}
	lat := make([]time.Duration, 0, n)
	took := make([]time.Duration, 0, n)
	for i := range n {
		start := time.Now()
		res, err := b.call("search", map[string]any{"query": queries[i%len(queries)]})
		if err != nil {
			return err
		}
		lat = append(lat, time.Since(start))
		if md, ok := res["metadata"].(map[string]any); ok {
			ms, _ := md["took_ms"].(float64)
			took = append(took, time.Duration(ms*float64(time.Millisecond)))
		}
	}
	f.Searches = n
	f.SearchP50MS, f.SearchP95MS, f.SearchP99MS = pct(lat, 50), pct(lat, 95), pct(lat, 99)
	f.SearchTookP50MS = pct(took, 50)
	return nil
}

// target is an event found by search, for the show calls of the load.
type target struct{ session, event string }

func (b *bench) targets() ([]target, error) {
	var out []target
	for _, q := range queries {
		res, err := b.call("search", map[string]any{"query": q, "limit": 10})
		if err != nil {
			return nil, err
		}
		hits, _ := res["results"].([]any)
		for _, h := range hits {
			m := h.(map[string]any)
			out = append(out, target{m["ctx_session_id"].(string), m["ctx_event_id"].(string)})
		}
	}
	if len(out) == 0 {
		return nil, errors.New("search found nothing to show")
	}
	return out, nil
}

func (b *bench) mixedLoad(n, conc int, f *figures) error {
	ts, err := b.targets()
	if err != nil {
		return err
	}
	var next, failures atomic.Int64
	lat := make([]time.Duration, n)
	var wg sync.WaitGroup
	var firstMu sync.Mutex
	var first error
	start := time.Now()
	for range conc {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1) - 1)
				if i >= n {
					return
				}
				t := ts[i%len(ts)]
				t0 := time.Now()
				err := b.mixedCall(i, t)
				lat[i] = time.Since(t0)
				if err != nil {
					failures.Add(1)
					firstMu.Lock()
					if first == nil {
						first = err
					}
					firstMu.Unlock()
				}
			}
		}()
	}
	wg.Wait()
	f.Mixed, f.Concurrency, f.MixedErrors = n, conc, failures.Load()
	f.MixedSeconds = time.Since(start).Seconds()
	f.MixedP50MS, f.MixedP95MS = pct(lat, 50), pct(lat, 95)
	if first != nil {
		fmt.Fprintln(os.Stderr, "first failure:", first)
	}
	return nil
}

// mixedCall is request i of the mixed load: search, a show_session page and
// the next one, show_event with a window, query_events of a session, status.
func (b *bench) mixedCall(i int, t target) error {
	var err error
	switch i % 5 {
	case 0:
		_, err = b.call("search", map[string]any{"query": queries[i%len(queries)], "limit": 10})
	case 1:
		var p map[string]any
		p, err = b.call("show_session", map[string]any{"ctx_session_id": t.session, "limit": 50})
		if err == nil {
			if pg := p["pagination"].(map[string]any); pg["has_more"] == true {
				_, err = b.call("show_session", map[string]any{"ctx_session_id": t.session, "limit": 50,
					"cursor": pg["next_cursor"]})
			}
		}
	case 2:
		_, err = b.call("show_event", map[string]any{"ctx_event_id": t.event, "window": 3})
	case 3:
		_, err = b.call("query_events", map[string]any{"sessions": []string{t.session}, "limit": 50, "content": "text"})
	case 4:
		_, err = b.call("status", nil)
	}
	return err
}

// pageLargest finds the session with the most events (query_events over
// the whole store, content none) and pages it to the end in log mode.
func (b *bench) pageLargest(f *figures) error {
	counts := map[string]int{}
	args := map[string]any{"content": "none", "limit": 1000}
	for {
		p, err := b.call("query_events", args)
		if err != nil {
			return err
		}
		for _, e := range p["events"].([]any) {
			counts[e.(map[string]any)["ctx_session_id"].(string)]++
		}
		next, ok := p["next_cursor"]
		if !ok {
			break
		}
		args["cursor"] = next
	}
	best := ""
	for s, n := range counts {
		if best == "" || n > counts[best] {
			best = s
		}
	}
	seen := map[string]bool{}
	last := -1
	pargs := map[string]any{"ctx_session_id": best, "mode": "log", "limit": 4096}
	want := 0
	for {
		p, err := b.call("show_session", pargs)
		if err != nil {
			return err
		}
		f.PagedPages++
		want = int(p["session"].(map[string]any)["event_count"].(float64))
		for _, e := range p["events"].([]any) {
			m := e.(map[string]any)
			id, ord := m["ctx_event_id"].(string), int(m["ordinal"].(float64))
			if seen[id] || ord <= last {
				return fmt.Errorf("event %s (ordinal %d) arrived twice or out of order", id, ord)
			}
			seen[id], last = true, ord
		}
		pg := p["pagination"].(map[string]any)
		if pg["has_more"] != true {
			break
		}
		pargs["cursor"] = pg["next_cursor"]
	}
	f.PagedEvents = len(seen)
	if len(seen) != want || len(seen) != counts[best] {
		return fmt.Errorf("paged %d events of a session of %d (query_events counted %d)", len(seen), want, counts[best])
	}
	return nil
}

func pct(d []time.Duration, p int) float64 {
	s := slices.Clone(d)
	slices.Sort(s)
	if len(s) == 0 {
		return 0
	}
	i := (len(s)*p + 99) / 100
	if i > 0 {
		i--
	}
	return float64(s[i].Microseconds()) / 1000
}

// lineMeter passes the server's stdout through, measuring every line.
type lineMeter struct {
	r     io.ReadCloser
	cur   int64
	max   atomic.Int64
	lines atomic.Int64
}

func (m *lineMeter) Read(p []byte) (int, error) {
	n, err := m.r.Read(p)
	for _, c := range p[:n] {
		m.cur++
		if c == '\n' {
			if m.cur > m.max.Load() {
				m.max.Store(m.cur)
			}
			m.lines.Add(1)
			m.cur = 0
		}
	}
	return n, err
}

func (m *lineMeter) Close() error { return m.r.Close() }

// peakRSS returns the server's peak resident set (VmHWM) in KiB.
func peakRSS(pid int) int64 {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		var kib int64
		if n, _ := fmt.Sscanf(sc.Text(), "VmHWM: %d kB", &kib); n == 1 {
			return kib
		}
	}
	return 0
}
