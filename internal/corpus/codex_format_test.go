package corpus_test

import (
	"encoding/json"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

type codexItem struct {
	Timestamp string `json:"timestamp"`
	Type      string `json:"type"`
	Payload   struct {
		Type      string `json:"type"`
		ID        string `json:"id"`
		Timestamp string `json:"timestamp"`
		Role      string `json:"role"`
		Name      string `json:"name"`
		CallID    string `json:"call_id"`
		Arguments string `json:"arguments"`
		Input     string `json:"input"`
		Output    string `json:"output"`
		Message   string `json:"message"`
		Content   []struct {
			Text string `json:"text"`
		} `json:"content"`
	} `json:"payload"`
}

var (
	shellOutRE = regexp.MustCompile(`^Exit code: \d+\nWall time: [0-9.]+ seconds\nOutput:\n`)
	rolloutRE  = regexp.MustCompile(`^\.codex/sessions/(\d{4})/(\d{2})/(\d{2})/rollout-(\S{19})-(\S{36})\.jsonl$`)
)

func TestCodexRollouts(t *testing.T) {
	n := 0
	for _, rel := range files(t, sharedHome) {
		if layoutKind(rel) == "rollout" {
			checkRollout(t, rel)
			n++
		}
	}
	if n == 0 {
		t.Fatal("no rollouts")
	}
}

func checkRollout(t *testing.T, rel string) {
	t.Helper()
	raw := lines(t, filepath.Join(sharedHome, rel))
	items := make([]codexItem, len(raw))
	for i, b := range raw {
		mustUnmarshal(t, b, &items[i])
	}
	checkRolloutName(t, rel, items[0])
	if items[1].Payload.Role != "user" || !strings.HasPrefix(items[1].Payload.Content[0].Text, "<environment_context>") {
		t.Fatalf("%s: line 2 is not the environment context", rel)
	}
	calls := map[string]string{}
	var last string
	for i, it := range items {
		if it.Timestamp < last {
			t.Fatalf("%s:%d: timestamp goes back", rel, i+1)
		}
		last = it.Timestamp
		checkCodexItem(t, rel, items, i, calls)
	}
}

// checkRolloutName checks that the date directories and the file name are
// the session start in local time (UTC+1) and the id is session_meta's.
func checkRolloutName(t *testing.T, rel string, meta codexItem) {
	t.Helper()
	m := rolloutRE.FindStringSubmatch(rel)
	if meta.Type != "session_meta" || m == nil || m[5] != meta.Payload.ID {
		t.Fatalf("%s: first line %s id %s", rel, meta.Type, meta.Payload.ID)
	}
	ts, err := time.Parse(time.RFC3339Nano, meta.Payload.Timestamp)
	if err != nil {
		t.Fatal(err)
	}
	local := ts.In(time.FixedZone("", 3600))
	if m[1]+"/"+m[2]+"/"+m[3] != local.Format("2006/01/02") || m[4] != local.Format("2006-01-02T15-04-05") {
		t.Fatalf("%s: does not match local start %s", rel, local)
	}
}

func checkCodexItem(t *testing.T, rel string, items []codexItem, i int, calls map[string]string) {
	t.Helper()
	p := items[i].Payload
	switch p.Type {
	case "user_message", "agent_message":
		next := items[i+1].Payload
		if i > 0 && p.Type == "user_message" {
			next = items[i-1].Payload
		}
		if next.Type != "message" || next.Content[0].Text != p.Message {
			t.Fatalf("%s:%d: %s is not a copy of an adjacent message", rel, i+1, p.Type)
		}
	case "function_call":
		if !json.Valid([]byte(p.Arguments)) {
			t.Fatalf("%s:%d: arguments are not JSON: %q", rel, i+1, p.Arguments)
		}
		calls[p.CallID] = p.Name
	case "custom_tool_call":
		if !strings.HasPrefix(p.Input, "*** Begin Patch\n*** ") || !strings.HasSuffix(p.Input, "\n*** End Patch") {
			t.Fatalf("%s:%d: not a patch: %.60q", rel, i+1, p.Input)
		}
		calls[p.CallID] = p.Name
	case "function_call_output", "custom_tool_call_output":
		name, ok := calls[p.CallID]
		if !ok {
			t.Fatalf("%s:%d: output for unknown call %s", rel, i+1, p.CallID)
		}
		if name == "shell_command" && !shellOutRE.MatchString(p.Output) {
			t.Fatalf("%s:%d: shell output %.60q", rel, i+1, p.Output)
		}
	}
}
