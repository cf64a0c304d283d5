package gemini

import (
	"path/filepath"
	"sort"
	"strings"
	"time"

	"ctx/core"
)

// entry is one place in a session's message order: a message (the last
// record with its id) or a marker event (a checkpoint, an unknown record).
type entry struct {
	msg    *message
	line   int // line of the message's last record (0 in a document)
	marker *core.Event
}

// builder holds the state of one chat parse: the session metadata and the
// ordered entries while records are read, then the events built from them.
type builder struct {
	f        core.SourceFile
	ws       Workspace
	problems []core.Problem
	invalid  bool // the file is not a chat at all (a torn legacy document)
	records  int
	haveMeta bool
	meta     meta
	entries  []entry
	pos      map[string]int // message id → index in entries

	others      int // unknown records read so far (their marker keys)
	checkpoints int // $set.messages checkpoints read so far

	ps      core.ParsedSession
	calls   map[string]bool // call ids whose call event was built
	outputs map[string]bool // call ids whose output events were built
}

func newBuilder(f core.SourceFile, ws Workspace) *builder {
	return &builder{f: f, ws: ws, pos: map[string]int{}}
}

func (b *builder) problemAt(code string, line int) {
	b.problems = append(b.problems, core.Problem{Code: code, Provider: ProviderID, Path: b.f.Path, Line: line})
}

// mergeMeta folds a metadata record or patch into the session metadata:
// identity and start are the first values seen, the rest the latest.
func (b *builder) mergeMeta(m meta) {
	cur := &b.meta
	if cur.SessionID == "" {
		cur.SessionID = m.SessionID
	}
	if cur.ProjectHash == "" {
		cur.ProjectHash = m.ProjectHash
	}
	if cur.StartTime == "" {
		cur.StartTime = m.StartTime
	}
	latest(&cur.LastUpdated, m.LastUpdated)
	latest(&cur.Summary, m.Summary)
	latest(&cur.Kind, m.Kind)
	if m.Directories != nil {
		cur.Directories = m.Directories
	}
}

func latest(dst *string, src string) {
	if src != "" {
		*dst = src
	}
}

// upsert stores a message record: a known id keeps its place and takes the
// new record (last record wins), a new id goes to the end.
func (b *builder) upsert(m message, line int) {
	if i, ok := b.pos[m.ID]; ok {
		b.entries[i] = entry{msg: &m, line: line}
		return
	}
	b.pos[m.ID] = len(b.entries)
	b.entries = append(b.entries, entry{msg: &m, line: line})
}

// mark appends a marker event to the message order.
func (b *builder) mark(e core.Event, line int) {
	b.entries = append(b.entries, entry{marker: &e, line: line})
}

// finish builds the events and returns the parse result: one finalized
// session, or none when the file held no chat.
func (b *builder) finish() core.ParseResult {
	var res core.ParseResult
	switch {
	case b.invalid:
	case len(b.entries) == 0 && !b.haveMeta:
		if b.records == 0 && len(b.problems) == 0 {
			b.problemAt(core.ProblemEmptyFile, 0)
		}
	default:
		b.buildEvents()
		b.fillSession()
		b.ps.Finalize()
		res.Sessions = []core.ParsedSession{b.ps}
	}
	sort.SliceStable(b.problems, func(i, j int) bool { return b.problems[i].Line < b.problems[j].Line })
	res.Problems = b.problems
	return res
}

func (b *builder) fillSession() {
	s := &b.ps.Session
	s.Provider = ProviderID
	s.NativeID = b.meta.SessionID
	if s.NativeID == "" {
		s.NativeID = idFromName(b.f.Path)
	}
	s.Workspace = b.workspace()
	s.Title = b.meta.Summary
	s.Started = parseTime(b.meta.StartTime)
	if end := parseTime(b.meta.LastUpdated); !end.Before(s.Started) {
		s.Ended = end
	}
	if parent := parentFromPath(b.f.Path); parent != "" && parent != s.NativeID {
		b.ps.ParentNativeID, b.ps.RootNativeID = parent, parent
	}
	s.Source = core.SourceRef{Provider: ProviderID, Path: b.f.Path, Root: b.f.Root, Group: b.f.Group}
}

// workspace is the project root named beside the chat, else the root whose
// hash is the chat's projectHash, else the first workspace directory.
func (b *builder) workspace() string {
	if b.ws.Root != "" {
		return b.ws.Root
	}
	if root := b.ws.ByHash[b.meta.ProjectHash]; root != "" {
		return root
	}
	if len(b.meta.Directories) > 0 {
		return b.meta.Directories[0]
	}
	return ""
}

// idFromName is the native id of a chat without metadata: its file name
// without extension (a subagent's is its session id).
func idFromName(path string) string {
	base := filepath.Base(path)
	base = strings.TrimSuffix(strings.TrimSuffix(base, ".jsonl"), ".json")
	if base == "" || base == "." || base == string(filepath.Separator) {
		return "unknown"
	}
	return base
}

// parseTime parses an RFC 3339 timestamp as UTC; anything else is zero.
func parseTime(s string) time.Time {
	if s == "" {
		return time.Time{}
	}
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return time.Time{}
	}
	return t.UTC()
}
