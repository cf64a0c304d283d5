package corpus_test

import (
	"bufio"
	"encoding/json"
	"os"
	"strings"
	"testing"
)

// An independent re-count of normalized events from the files, following
// the rules in doc.go, so Stats.Events is checked against the bytes on disk.

type claudeLine struct {
	Type        string          `json:"type"`
	UUID        string          `json:"uuid"`
	ParentUUID  *string         `json:"parentUuid"`
	Logical     string          `json:"logicalParentUuid"`
	SessionID   string          `json:"sessionId"`
	AgentID     string          `json:"agentId"`
	Sidechain   bool            `json:"isSidechain"`
	Cwd         string          `json:"cwd"`
	Timestamp   string          `json:"timestamp"`
	CompactSum  bool            `json:"isCompactSummary"`
	ToolUseRes  json.RawMessage `json:"toolUseResult"`
	MessageJSON json.RawMessage `json:"message"`
}

type claudeMessage struct {
	ID      string          `json:"id"`
	Role    string          `json:"role"`
	Content json.RawMessage `json:"content"`
}

type block struct {
	Type      string          `json:"type"`
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	ToolUseID string          `json:"tool_use_id"`
	Content   json.RawMessage `json:"content"`
	IsError   bool            `json:"is_error"`
	Text      string          `json:"text"`
}

type codexLine struct {
	Timestamp string `json:"timestamp"`
	Type      string `json:"type"`
	Payload   struct {
		Type    string `json:"type"`
		Role    string `json:"role"`
		Name    string `json:"name"`
		CallID  string `json:"call_id"`
		ID      string `json:"id"`
		Content []struct {
			Text string `json:"text"`
		} `json:"content"`
	} `json:"payload"`
}

// lines returns the lines of a file and fails the test on any invalid JSON.
func lines(t *testing.T, path string) [][]byte {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out [][]byte
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for no := 1; sc.Scan(); no++ {
		b := append([]byte(nil), sc.Bytes()...)
		if !json.Valid(b) {
			t.Fatalf("%s:%d: invalid JSON: %.200s", path, no, b)
		}
		out = append(out, b)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

func countClaude(t *testing.T, path string) int {
	t.Helper()
	n := 0
	groups := map[string]bool{}
	shells := map[string]bool{}
	for _, raw := range lines(t, path) {
		var l claudeLine
		mustUnmarshal(t, raw, &l)
		switch l.Type {
		case "assistant":
			var m claudeMessage
			mustUnmarshal(t, l.MessageJSON, &m)
			var bs []block
			mustUnmarshal(t, m.Content, &bs)
			for _, b := range bs {
				if b.Type == "tool_use" {
					n++
					shells[b.ID] = b.Name == "Bash"
				} else if !groups[m.ID] {
					groups[m.ID] = true
					n++
				}
			}
		case "user":
			n += countClaudeUser(t, l, shells)
		default: // system compact_boundary and bookkeeping records
			n++
		}
	}
	return n
}

func countClaudeUser(t *testing.T, l claudeLine, shells map[string]bool) int {
	var m claudeMessage
	mustUnmarshal(t, l.MessageJSON, &m)
	if len(m.Content) > 0 && m.Content[0] == '"' {
		return 1 // prompt or compaction summary
	}
	var bs []block
	mustUnmarshal(t, m.Content, &bs)
	n := 0
	for _, b := range bs {
		if b.Type == "tool_result" {
			n++
			if shells[b.ToolUseID] {
				n++
			}
		}
	}
	return n
}

func countCodex(t *testing.T, path string) int {
	t.Helper()
	n := 0
	shells := map[string]bool{}
	for _, raw := range lines(t, path) {
		var l codexLine
		mustUnmarshal(t, raw, &l)
		p := l.Payload
		switch {
		case l.Type == "event_msg" && p.Type != "token_count":
			// duplicates of response items
		case p.Type == "function_call" && p.Name == "shell_command":
			shells[p.CallID] = true
			n++
		case p.Type == "function_call_output" && shells[p.CallID]:
			n += 2
		default:
			n++
		}
	}
	return n
}

func countFile(t *testing.T, path string) int {
	if strings.Contains(path, "/.codex/") {
		return countCodex(t, path)
	}
	return countClaude(t, path)
}

func mustUnmarshal(t *testing.T, b []byte, v any) {
	t.Helper()
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("unmarshal %.200s: %v", b, err)
	}
}
