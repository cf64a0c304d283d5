package mcp

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sort"
	"sync"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"ctx/app"
	"ctx/bearer"
	"ctx/sources/reported"
)

// BenchmarkHTTPDoor: 2,000 requests over the HTTP door at concurrency 20
// (20 Go SDK clients, each its own MCP session), mixed get_context,
// list_threads and save_session; reports p50, p95 and errors per round.
// The rate limit is off: it would refuse a single token's burst by design.
func BenchmarkHTTPDoor(b *testing.B) {
	home := b.TempDir()
	root := filepath.Join(home, "repo")
	os.MkdirAll(root, 0o700)
	os.WriteFile(filepath.Join(root, "README.md"), []byte("# bench\n"), 0o600)
	tok, _, err := bearer.Open(home).Create("bench", nil, 0, time.Now())
	if err != nil {
		b.Fatal(err)
	}
	set := app.DefaultHandoffSettings()
	set.RatePerMinute = 0
	s := New(Config{CtxHome: home, Door: reported.DoorHTTP, Root: root, Handoff: set})
	srv := httptest.NewServer(s.HTTPHandler(nil))
	defer srv.Close()
	const workers, total = 20, 2000
	for b.Loop() {
		var mu sync.Mutex
		var lat []time.Duration
		errs := 0
		var wg sync.WaitGroup
		for w := 0; w < workers; w++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				ctx := context.Background()
				c := sdk.NewClient(&sdk.Implementation{Name: "bench-client", Version: "1"}, nil)
				cs, err := c.Connect(ctx, &sdk.StreamableClientTransport{Endpoint: srv.URL + HTTPPath,
					HTTPClient: &http.Client{Transport: bearerRT{tok}}}, nil)
				if err != nil {
					mu.Lock()
					errs += total / workers
					mu.Unlock()
					return
				}
				defer cs.Close()
				for i := 0; i < total/workers; i++ {
					p := &sdk.CallToolParams{Name: "get_context"}
					switch i % 3 {
					case 1:
						p = &sdk.CallToolParams{Name: "list_threads"}
					case 2:
						p = &sdk.CallToolParams{Name: "save_session", Arguments: map[string]any{
							"summary": fmt.Sprintf("bench save %d", i), "thread": "bench"}}
					}
					start := time.Now()
					res, err := cs.CallTool(ctx, p)
					d := time.Since(start)
					mu.Lock()
					lat = append(lat, d)
					if err != nil || res.IsError {
						errs++
					}
					mu.Unlock()
				}
			}()
		}
		wg.Wait()
		sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
		if len(lat) == 0 {
			b.Fatal("no requests answered")
		}
		b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "p50-ms")
		b.ReportMetric(float64(lat[len(lat)*95/100].Microseconds())/1000, "p95-ms")
		b.ReportMetric(float64(errs), "errors")
		b.ReportMetric(float64(len(lat)), "requests")
	}
}
