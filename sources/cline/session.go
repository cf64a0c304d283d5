package cline

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"ctx/core"
	"ctx/sources/jsonx"
)

// callKind says how a call's result is normalized.
type callKind uint8

const (
	callTool    callKind = iota // tool_output
	callCommand                 // command_output + command_finish
	callMCP                     // tool_output with Activity
	callEdit                    // tool_output with the user's edits as a patch
)

// call is a tool call waiting for its result.
type call struct {
	key     string // event key of the call
	id      string // provider call id ("" for XML tool calls and UI rows)
	name    string
	kind    callKind
	command string
	path    string
	server  string
	tool    string
	idx     int // index of the call event
}

// builder collects one task's session. Every event key derives from a
// message's ts (or its index), a block index and provider call ids, never
// from byte offsets, so a rewritten file keeps unchanged events' ids.
type builder struct {
	provider  string
	f         core.SourceFile
	ps        core.ParsedSession
	problems  []core.Problem
	torn      bool // a file was not valid JSON: no session is returned
	now       time.Time
	path      string // file of the current record, for problems
	line      int    // 1-based array index of the current record
	pending   []*call
	calls     map[string]*call
	cwd       string
	model     string
	title     string
	history   historyItem
	metaModel string
	ranges    string // last conversationHistoryDeletedRange seen
	out       int    // index of the open command_output event of a UI log, -1 when none
	mcp       *call  // last MCP call of a UI log
}

func newBuilder(provider string, f core.SourceFile) *builder {
	return &builder{provider: provider, f: f, calls: map[string]*call{}, out: -1}
}

// sibling returns the path of a file in the task directory.
func (b *builder) sibling(name string) string {
	return filepath.Join(filepath.Dir(b.f.Path), name)
}

// decodeArray decodes a whole-file JSON array. An empty file or one that
// is not valid JSON is a file caught mid-rewrite: counted, and the parse
// returns no session. Valid JSON that is not an array is an invalid record.
func (b *builder) decodeArray(data []byte, path string) ([]json.RawMessage, bool) {
	if len(bytes.TrimSpace(data)) == 0 {
		b.fileProblem(core.ProblemEmptyFile, path)
		b.torn = true
		return nil, false
	}
	var raws []json.RawMessage
	if code := jsonx.Unmarshal(data, &raws); code != "" {
		b.fileProblem(code, path)
		if code == core.ProblemInvalidJSON {
			b.torn = true
		}
		return nil, false
	}
	return raws, true
}

// decodeObject decodes a companion JSON object with the same rules.
func (b *builder) decodeObject(data []byte, path string, v any) {
	if data == nil {
		return
	}
	if len(bytes.TrimSpace(data)) == 0 || !json.Valid(data) {
		b.fileProblem(core.ProblemInvalidJSON, path)
		b.torn = true
		return
	}
	if jsonx.FirstByte(data) != '{' || json.Unmarshal(data, v) != nil {
		b.fileProblem(core.ProblemInvalidRecord, path)
	}
}

// companions reads history_item.json and task_metadata.json.
func (b *builder) companions(t Task) {
	b.decodeObject(t.HistoryItem, b.sibling(HistoryItemFile), &b.history)
	var meta taskMetadata
	b.decodeObject(t.Metadata, b.sibling(MetadataFile), &meta)
	for _, m := range meta.ModelUsage {
		if m.ModelID != "" {
			b.metaModel = m.ModelID
			break
		}
	}
}

// at sets the file and record number problems refer to.
func (b *builder) at(path string, index int) {
	b.path, b.line = path, index+1
}

func (b *builder) fileProblem(code, path string) {
	b.problems = append(b.problems, core.Problem{Code: code, Provider: b.provider, Path: path})
}

// problem counts a problem at the current record.
func (b *builder) problem(code string) {
	b.problems = append(b.problems, core.Problem{Code: code, Provider: b.provider, Path: b.path, Line: b.line})
}

// add appends an event, stamped with the current time unless it has its
// own, and returns its index.
func (b *builder) add(e core.Event) int {
	if e.Timestamp.IsZero() {
		e.Timestamp = b.now
	}
	return b.ps.Append(e)
}

func (b *builder) other(key, native, text string) {
	b.add(core.Event{Role: core.RoleSystem, Type: core.TypeOther, Native: native,
		Text: core.Clip(text, maxOther), Key: key})
}

// unknown keeps a record or block of an unknown type as an other event and
// counts it.
func (b *builder) unknown(key, native string) {
	b.problem(core.ProblemUnknownRecord)
	b.other(key, native, native)
}

// prompt emits a user prompt; the first one names the session.
func (b *builder) prompt(key, text string) {
	text = strings.TrimSpace(text)
	if text == "" {
		return
	}
	if b.title == "" {
		b.title = text
	}
	b.add(core.Event{Role: core.RoleUser, Type: core.TypeMessage, Text: text, Key: key})
}

// finish returns the parse result: one finalized session, or none when
// the task has no events or a file was caught mid-rewrite.
func (b *builder) finish() core.ParseResult {
	res := core.ParseResult{Problems: b.problems}
	if b.torn || len(b.ps.Events) == 0 {
		return res
	}
	s := &b.ps.Session
	s.Provider = b.provider
	s.NativeID = b.taskID()
	s.Workspace = first(b.history.Workspace, b.cwd)
	s.Model = first(b.model, b.metaModel)
	s.Title = title(first(b.history.Task, b.title))
	if p := b.history.ParentTaskID; p != "" && p != s.NativeID {
		b.ps.ParentNativeID = p
		b.ps.RootNativeID = first(b.history.RootTaskID, p)
		s.AgentType = b.history.Mode
	}
	b.ps.Finalize()
	res.Sessions = []core.ParsedSession{b.ps}
	return res
}

// taskID is the task directory's name (Cline's task id, epoch ms).
func (b *builder) taskID() string {
	dir := filepath.Base(filepath.Dir(b.f.Path))
	if b.f.Path == "" || dir == "." || dir == string(filepath.Separator) {
		return first(b.history.ID, "unknown")
	}
	return dir
}

// created is the task's creation time when its id is epoch ms (Cline's
// task ids): the time of events before the first timestamped record.
func (b *builder) created() time.Time {
	n, err := strconv.ParseInt(b.taskID(), 10, 64)
	if err != nil || n < 1e12 || n > 1e14 {
		return time.Time{}
	}
	return millis(n)
}

// title is the first line of the task text, clipped.
func title(s string) string {
	s = strings.TrimSpace(s)
	if line, _, ok := strings.Cut(s, "\n"); ok {
		s = strings.TrimSpace(line)
	}
	return core.Clip(s, 200)
}

func first(ss ...string) string {
	for _, s := range ss {
		if s != "" {
			return s
		}
	}
	return ""
}
