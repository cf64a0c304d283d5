package mcp

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"ctx/query"
)

// usageInput is a session with counted and uncounted requests.
func usageInput() string {
	var in strings.Builder
	in.WriteString(handshake)
	in.WriteString(`{"jsonrpc":"2.0","id":"list","method":"tools/list"}` + "\n")
	in.WriteString(`{"jsonrpc":"2.0","id":"ping","method":"ping"}` + "\n")
	for i := range 3 {
		fmt.Fprintf(&in, `{"jsonrpc":"2.0","id":"s%d","method":"tools/call","params":{"name":"status"}}`+"\n", i)
	}
	in.WriteString(`{"jsonrpc":"2.0","id":"q","method":"tools/call","params":{"name":"search","arguments":{"query":7}}}` + "\n")
	in.WriteString(`{"jsonrpc":"2.0","id":"u","method":"tools/call","params":{"name":"unknown_tool"}}` + "\n")
	in.WriteString(`{"jsonrpc":"2.0","method":"tools/call","params":{"name":"status"}}` + "\n")
	in.WriteString(`{"jsonrpc":"2.0","id":{"bad":"id"},"method":"tools/call","params":{"name":"status"}}` + "\n")
	in.WriteString(`{"jsonrpc":"1.0","id":"old","method":"tools/call","params":{"name":"status"}}` + "\n")
	in.WriteString(`{bad` + "\n")
	return in.String()
}

// responseBytes sums the bytes of the response lines with these ids.
func responseBytes(out string, ids ...string) int64 {
	var n int64
	for _, line := range strings.SplitAfter(out, "\n") {
		for _, id := range ids {
			if strings.HasPrefix(line, `{"jsonrpc":"2.0","id":"`+id+`",`) {
				n += int64(len(line))
			}
		}
	}
	return n
}

func TestUsageRecordsDeliveredCalls(t *testing.T) {
	home := t.TempDir()
	out, _ := serveBytes(t, home, strings.NewReader(usageInput()))
	agg, err := readUsage(home)
	if err != nil {
		t.Fatalf("usage.json: %v", err)
	}
	if len(agg.Tools) != 2 {
		t.Fatalf("tools counted: %v (only recognized tools/call requests count)", agg.Tools)
	}
	st, se := agg.Tools["status"], agg.Tools["search"]
	if st.Calls != 3 || st.OK != 3 || se.Calls != 1 || se.ToolErrors != 1 {
		t.Fatalf("status %+v search %+v", st, se)
	}
	if want := responseBytes(out, "s0", "s1", "s2"); st.MCPResponseBytes != want || want == 0 {
		t.Fatalf("status mcp_response_bytes %d, want %d (serialized lines with their newline)", st.MCPResponseBytes, want)
	}
	if want := responseBytes(out, "q"); se.MCPResponseBytes != want {
		t.Fatalf("search mcp_response_bytes %d, want %d", se.MCPResponseBytes, want)
	}
	fi, err := os.Stat(filepath.Join(home, UsageFile))
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("usage.json mode %v, %v", fi.Mode(), err)
	}
	if agg.DefinitionVersion != UsageDefinitionVersion || agg.RetentionVersion != UsageRetentionVersion {
		t.Fatalf("versions %d %d", agg.DefinitionVersion, agg.RetentionVersion)
	}
	serveBytes(t, home, strings.NewReader(usageInput()))
	if agg, _ := readUsage(home); agg.Tools["status"].Calls != 6 {
		t.Fatalf("a second server adds to the aggregate: %+v", agg.Tools["status"])
	}
}

func TestUsageDisabled(t *testing.T) {
	home := t.TempDir()
	if err := os.WriteFile(filepath.Join(home, UsageDisabledFile), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	out, _ := serveBytes(t, home, strings.NewReader(usageInput()))
	if _, err := os.Stat(filepath.Join(home, UsageFile)); !os.IsNotExist(err) {
		t.Fatalf("usage.json written while disabled: %v", err)
	}
	var res struct {
		Result struct {
			StructuredContent StatusOutput `json:"structuredContent"`
		} `json:"result"`
	}
	line := out[strings.Index(out, `{"jsonrpc":"2.0","id":"s0"`):]
	if err := json.Unmarshal([]byte(line[:strings.IndexByte(line, '\n')]), &res); err != nil {
		t.Fatal(err)
	}
	lu := res.Result.StructuredContent.LocalUsage
	if lu.Enabled || lu.State != query.UsageStateDisabled || !res.Result.StructuredContent.ReadOnly {
		t.Fatalf("local_usage %+v", lu)
	}
}

// TestUsageControlPerCall: the control is re-read for every record, so
// turning it off takes effect without a restart, and on again likewise.
func TestUsageControlPerCall(t *testing.T) {
	home := t.TempDir()
	u := NewUsage(home, time.Now)
	recordLine(u, `{"jsonrpc":"2.0","id":1,"result":{}}`+"\n")
	u.Flush(time.Second)
	off := filepath.Join(home, UsageDisabledFile)
	os.WriteFile(off, nil, 0o600)
	recordLine(u, `{"jsonrpc":"2.0","id":2,"result":{}}`+"\n")
	u.Flush(time.Second)
	if agg, _ := readUsage(home); agg.Tools["status"].Calls != 1 {
		t.Fatalf("recorded while disabled: %+v", agg.Tools["status"])
	}
	if r := u.Report(); r.Enabled || r.State != query.UsageStateDisabled {
		t.Fatalf("report %+v", r)
	}
	os.Remove(off)
	recordLine(u, `{"jsonrpc":"2.0","id":3,"error":{"code":-32602,"message":"x"}}`+"\n")
	u.Flush(time.Second)
	if agg, _ := readUsage(home); agg.Tools["status"].Calls != 2 || agg.Tools["status"].ProtocolErrors != 1 {
		t.Fatalf("not recorded after re-enabling: %+v", agg.Tools["status"])
	}
}

// TestUsageInvalidAggregate: a damaged aggregate is reported by a
// content-free code and left alone.
func TestUsageInvalidAggregate(t *testing.T) {
	home := t.TempDir()
	path := filepath.Join(home, UsageFile)
	os.WriteFile(path, []byte("not json"), 0o600)
	u := NewUsage(home, time.Now)
	if r := u.Report(); r.State != query.UsageStateUnavailable || r.ErrorCode != query.UsageErrInvalid || !r.Enabled {
		t.Fatalf("report %+v", r)
	}
	recordLine(u, "{}\n")
	u.Flush(time.Second)
	if b, _ := os.ReadFile(path); string(b) != "not json" {
		t.Fatal("a damaged aggregate was overwritten")
	}
	if r := NewUsage(filepath.Join(home, "missing"), time.Now).Report(); r.State != query.UsageStateEmpty {
		t.Fatalf("report without a store %+v", r)
	}
}

// recordLine records a delivered status call whose response is line.
func recordLine(u *Usage, line string) {
	u.Record("status", []byte(line), int64(len(line)), time.Millisecond)
}
