package query

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"testing"
	"time"

	"ctx/core"
)

// The read-model benchmarks run on a store of about 1,000,000 events: 3,600
// sessions over 90 days plus one session of 50,000 events, written without
// an index (list sessions, the timeline, stats and export never open one).
// CTX_READMODEL_BENCH_STORE names its directory: built there when missing
// and kept, so the ctx binary can be timed on it as a process
// (scripts/bench-readmodels.sh).
const (
	benchSessions     = 3600
	benchEvents       = 264 // per session: 950,400 events, plus the long one
	benchLongEvents   = 50000
	benchLongNativeID = "long-session"
)

// benchStart is when the first benchmark session starts.
var benchStart = time.Date(2026, 6, 1, 9, 0, 0, 0, time.UTC)

func readModelStore(b *testing.B) string {
	home := os.Getenv("CTX_READMODEL_BENCH_STORE")
	if home == "" {
		b.Skip("set CTX_READMODEL_BENCH_STORE to a directory (built there on first use)")
	}
	if _, err := os.Stat(filepath.Join(home, "refs")); err == nil {
		return home
	}
	var all []*core.ParsedSession
	for i := range benchSessions {
		all = append(all, benchSession(fmt.Sprintf("bench-%05d", i), benchEvents,
			benchStart.Add(time.Duration(i)*36*time.Minute), i))
	}
	all = append(all, benchSession(benchLongNativeID, benchLongEvents, benchStart.Add(45*24*time.Hour), 8))
	publishSynth(b, home, all...)
	return home
}

// benchSession is a session of n events cycling through a prompt, an
// answer, an edit and its output, in one of a few workspaces.
func benchSession(native string, n int, t0 time.Time, k int) *core.ParsedSession {
	ws := fmt.Sprintf("/src/project-%d", k%12)
	ps := &core.ParsedSession{Session: core.Session{Provider: []string{core.ProviderClaude, core.ProviderCodex}[k%2],
		NativeID: native, Workspace: ws, Model: "model-" + fmt.Sprint(k%3),
		Source: core.SourceRef{Provider: core.ProviderClaude, Path: "/bench/" + native}}}
	for i := range n {
		e := core.Event{Timestamp: t0.Add(time.Duration(i) * 2 * time.Second)}
		switch i % 4 {
		case 0:
			e.Role, e.Type = core.RoleUser, core.TypeMessage
			e.Text = fmt.Sprintf("please fix the failing test number %d in %s <b>now</b>", i, ws)
		case 1:
			e.Role, e.Type, e.Tokens = core.RoleAssistant, core.TypeMessage, &core.Tokens{Input: 1200, Output: 300}
			e.Text = "Looking at the test output first; the failure is in the parser's handling of empty input."
		case 2:
			e.Role, e.Type, e.Tool, e.CallID = core.RoleAssistant, core.TypeToolCall, "Edit", fmt.Sprint("c", i)
			e.Files = []core.FileTouch{{Path: fmt.Sprintf("%s/pkg/f%d.go", ws, i%9), Op: core.OpEdit,
				OldText: "if len(b) == 0 {\n\treturn nil\n}", NewText: "if len(b) == 0 {\n\treturn ErrEmpty\n}"}}
		default:
			e.Role, e.Type, e.Tool, e.CallID = core.RoleTool, core.TypeToolOutput, "Edit", fmt.Sprint("c", i-1)
			e.Text = "The file has been updated.\n" + fmt.Sprintf("ok  \tpkg\t0.%03ds\n", i%1000)
		}
		ps.Events = append(ps.Events, e)
	}
	ps.Finalize()
	return ps
}

// openBench pins the store as a command does: open, read, close.
func openBench(b *testing.B, home string) *Reader {
	r, err := Open(home)
	if err != nil {
		b.Fatal(err)
	}
	return r
}

func BenchmarkReadModelListSessions(b *testing.B) {
	home := readModelStore(b)
	defer reportCPU(b, cpuTime(b))
	for b.Loop() {
		r := openBench(b, home)
		if _, err := r.ListSessions(SessionsRequest{}); err != nil {
			b.Fatal(err)
		}
		r.Close()
	}
}

func BenchmarkReadModelTimeline30d(b *testing.B) {
	home := readModelStore(b)
	since := benchStart.Add(30 * 24 * time.Hour)
	defer reportCPU(b, cpuTime(b))
	for b.Loop() {
		r := openBench(b, home)
		tl, err := r.Timeline(TimelineRequest{Filter: core.Filter{Since: since, Until: since.Add(30 * 24 * time.Hour)}})
		if err != nil || tl.Sessions == 0 {
			b.Fatal(err, tl.Sessions)
		}
		r.Close()
	}
}

func BenchmarkReadModelStats(b *testing.B) {
	home := readModelStore(b)
	defer reportCPU(b, cpuTime(b))
	for b.Loop() {
		r := openBench(b, home)
		if _, err := r.Stats(StatsRequest{Period: PeriodWeek}); err != nil {
			b.Fatal(err)
		}
		r.Close()
	}
}

// BenchmarkReadModelStreamLong reads the 50,000-event session through
// StreamSession, as export does (export's own benchmark renders it).
func BenchmarkReadModelStreamLong(b *testing.B) {
	home := readModelStore(b)
	id := core.NewSessionID(core.ProviderClaude, benchLongNativeID)
	defer reportCPU(b, cpuTime(b))
	for b.Loop() {
		r := openBench(b, home)
		n := 0
		if err := r.StreamSession(id, 0, -1, func(e *core.Event) error { n++; _, err := io.WriteString(io.Discard, e.Text); return err }); err != nil || n != benchLongEvents {
			b.Fatal(err, n)
		}
		r.Close()
	}
}

// reportCPU reports the process CPU time per op since start: on a shared
// machine it moves far less with the load than wall time does.
func reportCPU(b *testing.B, start time.Duration) {
	b.ReportMetric(float64((cpuTime(b)-start).Microseconds())/1000/float64(b.N), "cpu-ms/op")
}
