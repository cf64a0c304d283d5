package corpus_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// claudeFacts accumulates what the Claude transcripts of a corpus show.
type claudeFacts struct {
	streamed, bashErrors, compactions, edits, mcp int
	spawned                                       map[string]bool // agentIds named in Task/Agent results
	agents                                        map[string]bool // agentIds with a transcript
}

func TestClaudeTranscripts(t *testing.T) {
	f := &claudeFacts{spawned: map[string]bool{}, agents: map[string]bool{}}
	for _, rel := range files(t, sharedHome) {
		switch layoutKind(rel) {
		case "session", "subagent", "oldSubagent":
			checkClaudeFile(t, rel, f)
		}
	}
	if f.streamed == 0 || f.bashErrors == 0 || f.compactions == 0 || f.edits == 0 || f.mcp == 0 {
		t.Errorf("missing features: %+v", f)
	}
	for id := range f.spawned {
		if !f.agents[id] {
			t.Errorf("Task result names agent %s, which has no transcript", id)
		}
	}
	if len(f.spawned) != len(f.agents) {
		t.Errorf("%d agents spawned, %d transcripts", len(f.spawned), len(f.agents))
	}
}

var exitCodeRE = regexp.MustCompile(`^Exit code [1-9][0-9]*\n`)

func checkClaudeFile(t *testing.T, rel string, f *claudeFacts) {
	t.Helper()
	path := filepath.Join(sharedHome, rel)
	projDir := strings.Split(rel, "/")[2]
	base := strings.TrimSuffix(filepath.Base(rel), ".jsonl")
	wantSession := base
	switch layoutKind(rel) {
	case "subagent":
		wantSession = strings.Split(rel, "/")[3]
	case "oldSubagent":
		wantSession = oldSubagentSession(t, path)
	}
	agent := strings.TrimPrefix(base, "agent-")
	if agent != base {
		f.agents[agent] = true
	}
	known := map[string]bool{}
	msgLines := map[string]int{}
	var lastTS string
	for no, raw := range lines(t, path) {
		var l claudeLine
		mustUnmarshal(t, raw, &l)
		if l.SessionID != "" && l.SessionID != wantSession {
			t.Fatalf("%s:%d: sessionId %s, want %s", rel, no+1, l.SessionID, wantSession)
		}
		if l.UUID == "" {
			continue // bookkeeping without a chain
		}
		checkChain(t, rel, l, known, agent != base)
		if l.Cwd == "" || claudeSlugOf(l.Cwd) != projDir {
			t.Fatalf("%s: cwd %q does not give project dir %s", rel, l.Cwd, projDir)
		}
		if l.Timestamp < lastTS {
			t.Fatalf("%s: timestamp %s before %s", rel, l.Timestamp, lastTS)
		}
		lastTS = l.Timestamp
		known[l.UUID] = true
		claudeFeatures(t, l, msgLines, f)
	}
	for _, n := range msgLines {
		if n > 1 {
			f.streamed++
		}
	}
}

var nonAlnum = regexp.MustCompile(`[^A-Za-z0-9]`)

func claudeSlugOf(cwd string) string { return nonAlnum.ReplaceAllString(cwd, "-") }

// oldSubagentSession returns the session id of an old-layout subagent file
// after checking that the parent session file is beside it.
func oldSubagentSession(t *testing.T, path string) string {
	t.Helper()
	var l claudeLine
	mustUnmarshal(t, lines(t, path)[0], &l)
	parent := filepath.Join(filepath.Dir(path), l.SessionID+".jsonl")
	if _, err := os.Stat(parent); err != nil {
		t.Fatalf("%s: parent session: %v", path, err)
	}
	return l.SessionID
}

// checkChain checks the uuid/parentUuid chain and the sidechain fields.
func checkChain(t *testing.T, rel string, l claudeLine, known map[string]bool, sub bool) {
	t.Helper()
	first := len(known) == 0
	switch {
	case l.ParentUUID == nil && l.Type == "system":
		if !known[l.Logical] {
			t.Fatalf("%s: compact_boundary logicalParentUuid %s unknown", rel, l.Logical)
		}
	case l.ParentUUID == nil:
		if !first {
			t.Fatalf("%s: parentUuid null in the middle of the chain (%s)", rel, l.UUID)
		}
	case !known[*l.ParentUUID]:
		t.Fatalf("%s: parentUuid %s not seen before", rel, *l.ParentUUID)
	}
	if sub != l.Sidechain || sub != (l.AgentID != "") {
		t.Fatalf("%s: isSidechain %v agentId %q in a subagent=%v file", rel, l.Sidechain, l.AgentID, sub)
	}
}

func claudeFeatures(t *testing.T, l claudeLine, msgLines map[string]int, f *claudeFacts) {
	var m claudeMessage
	if l.Type == "system" {
		f.compactions++
	}
	if len(l.MessageJSON) == 0 {
		return
	}
	mustUnmarshal(t, l.MessageJSON, &m)
	if l.Type == "assistant" {
		msgLines[m.ID]++
	}
	if len(m.Content) == 0 || m.Content[0] != '[' {
		return
	}
	var bs []block
	mustUnmarshal(t, m.Content, &bs)
	for _, b := range bs {
		if strings.HasPrefix(b.Name, "mcp__") {
			f.mcp++
		}
		if b.Type == "tool_result" {
			toolResultFeatures(t, b, l.ToolUseRes, f)
		}
	}
}

func toolResultFeatures(t *testing.T, b block, res json.RawMessage, f *claudeFacts) {
	var s string
	if b.IsError {
		mustUnmarshal(t, b.Content, &s)
		if !exitCodeRE.MatchString(s) {
			t.Fatalf("error result does not start with Exit code: %.80q", s)
		}
		f.bashErrors++
	}
	var r struct {
		AgentID         string `json:"agentId"`
		StructuredPatch []any  `json:"structuredPatch"`
		OldString       string `json:"oldString"`
	}
	if len(res) > 0 && res[0] == '{' {
		mustUnmarshal(t, res, &r)
	}
	if r.AgentID != "" {
		f.spawned[r.AgentID] = true
	}
	if r.OldString != "" && len(r.StructuredPatch) > 0 {
		f.edits++
	}
}

func TestSubagentMeta(t *testing.T) {
	for _, rel := range files(t, sharedHome) {
		if layoutKind(rel) != "meta" {
			continue
		}
		b, err := os.ReadFile(filepath.Join(sharedHome, rel))
		if err != nil {
			t.Fatal(err)
		}
		var m map[string]string
		mustUnmarshal(t, b, &m)
		if m["agentType"] == "" || m["description"] == "" {
			t.Errorf("%s: %s", rel, b)
		}
	}
}
