package mcp

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestProtocolPin: initialize always ends on 2025-11-25 or 2025-06-18,
// server/discover offers exactly those, and a stateless-era request is a
// protocol error.
func TestProtocolPin(t *testing.T) {
	home := filepath.Join(t.TempDir(), "no-store")
	for _, tc := range []struct{ asked, want string }{
		{"2025-11-25", "2025-11-25"}, {"2025-06-18", "2025-06-18"}, {"2025-03-26", "2025-11-25"},
		{"2024-11-05", "2025-11-25"}, {"2026-07-28", "2025-11-25"}, {"1999-01-01", "2025-11-25"}, {"", "2025-11-25"},
	} {
		in := fmt.Sprintf(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":%q,"capabilities":{},"clientInfo":{"name":"t","version":"0"}}}`+"\n", tc.asked)
		out, _ := serveBytes(t, home, strings.NewReader(in))
		var r struct {
			Result struct {
				ProtocolVersion string `json:"protocolVersion"`
			} `json:"result"`
		}
		if err := json.Unmarshal([]byte(out), &r); err != nil || r.Result.ProtocolVersion != tc.want {
			t.Errorf("initialize %q: got %q (%v), want %q", tc.asked, r.Result.ProtocolVersion, err, tc.want)
		}
	}
	meta := `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}`
	in := `{"jsonrpc":"2.0","id":"d","method":"server/discover","params":{` + meta + `}}` + "\n" +
		`{"jsonrpc":"2.0","id":"m","method":"tools/list","params":{` + meta + `}}` + "\n"
	out, _ := serveBytes(t, home, strings.NewReader(in))
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		var r struct {
			ID     string `json:"id"`
			Result struct {
				SupportedVersions []string `json:"supportedVersions"`
			} `json:"result"`
			Error *struct{ Code int } `json:"error"`
		}
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatal(err)
		}
		switch r.ID {
		case "d":
			if !slices.Equal(r.Result.SupportedVersions, ProtocolVersions) {
				t.Errorf("discover offers %v", r.Result.SupportedVersions)
			}
		case "m":
			if r.Error == nil || r.Error.Code != -32600 {
				t.Errorf("a 2026-07-28 request must be refused: %s", line)
			}
		}
	}
}
