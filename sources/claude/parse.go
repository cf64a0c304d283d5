package claude

import (
	"fmt"
	"io"
	"sort"
	"time"

	"ctx/core"
	"ctx/sources/jsonl"
)

// parser holds the state of one transcript being read.
type parser struct {
	file     core.SourceFile
	meta     *SubagentMeta
	events   []core.Event
	merge    map[string]int      // key of a message or reasoning event → its index
	calls    map[string]*call    // tool_use id → the call
	seen     map[string]struct{} // record uuids already read
	problems []core.Problem
	last     time.Time // timestamp of the previous timestamped record
	records  int
	info     sessionInfo
	usage    map[string]*usage // message id → its token usage
	base     int               // ordinal of events[0]: earlier events were handed over (stream.go)
	st       *stream           // nil when the file is parsed whole
	uuid     string            // uuid of the record being handled
}

// usage is a message's token usage: Claude Code repeats it on every record
// of a streamed message (the last is complete), so it is kept per message
// id and given to the message's first event when the session is built.
type usage struct {
	tokens  core.Tokens
	at      int // ordinal of the message's first event, -1 until it has one
	touched int // the next ordinal when it was last noted
}

// sessionInfo gathers session metadata while reading.
type sessionInfo struct {
	sessionID, agentID   string
	cwd, branch, model   string
	customTitle, aiTitle string
	summaryTitle         string
}

// ParseReader parses one Claude Code transcript from r. f names the file: its
// path gives the fallback session id and tells a subagent file apart. meta is
// the new-layout subagent's meta.json, or nil. Bad records become problems;
// only a read error fails the parse. The result holds exactly one finalized
// session.
func ParseReader(r io.Reader, f core.SourceFile, meta *SubagentMeta) (core.ParseResult, error) {
	p := newParser(f, meta)
	problems, err := p.read(r)
	if err != nil {
		return core.ParseResult{}, err
	}
	s := p.session()
	return core.ParseResult{Sessions: []core.ParsedSession{s}, Problems: problems}, nil
}

func newParser(f core.SourceFile, meta *SubagentMeta) *parser {
	return &parser{
		file:  f,
		meta:  meta,
		merge: make(map[string]int),
		calls: make(map[string]*call),
		seen:  make(map[string]struct{}),
	}
}

// read reads every line and returns the file's problems, sorted by line.
func (p *parser) read(r io.Reader) ([]core.Problem, error) {
	problems, err := jsonl.Read(r, p.line)
	if p.st != nil && p.st.err != nil {
		return nil, p.st.err // the sink's, or ErrParseWhole: not a read error
	}
	if err != nil {
		return nil, fmt.Errorf("claude: read %s: %w", p.file.Path, err)
	}
	problems = append(problems, p.problems...)
	if p.records == 0 && len(problems) == 0 { // a file of bad lines is not empty: its lines are counted
		problems = append(problems, core.Problem{Code: core.ProblemEmptyFile})
	}
	sort.SliceStable(problems, func(i, j int) bool { return problems[i].Line < problems[j].Line })
	for i := range problems {
		problems[i].Provider, problems[i].Path = core.ProviderClaude, p.file.Path
	}
	return problems, nil
}

// line handles one valid JSON line.
func (p *parser) line(l jsonl.Line) error {
	var rec record
	if !decodeRecord(l.Data, &rec) {
		p.problem(core.ProblemInvalidRecord, l.No)
		return nil
	}
	p.records++
	if p.dup(rec.UUID) {
		return nil
	}
	p.uuid = rec.UUID
	_, open := p.merge[rec.UUID]
	p.note(&rec)
	ts := p.stamp(rec.Timestamp)
	switch rec.Type {
	case "user":
		p.user(&rec, ts, l.No)
	case "assistant":
		p.assistant(&rec, ts, l.No)
	case "system":
		p.system(&rec, ts)
	default:
		if bookkeepingTypes[rec.Type] {
			p.bookkeeping(&rec, ts)
		} else {
			p.unknown(&rec, ts, l)
		}
	}
	if p.st == nil {
		return nil
	}
	if !open {
		// A key that is its record's uuid merges only within the record:
		// a later record with that uuid is a duplicate (see dup).
		delete(p.merge, rec.UUID)
	}
	return p.drain(false)
}

// dup reports whether a record's uuid was read before, and notes it.
func (p *parser) dup(uuid string) bool {
	if uuid == "" {
		return false
	}
	if p.st != nil {
		return !p.st.seen.Add(p.st.h.Key("r", uuid))
	}
	if _, dup := p.seen[uuid]; dup {
		return true
	}
	p.seen[uuid] = struct{}{}
	return false
}

func (p *parser) problem(code string, line int) {
	p.problems = append(p.problems, core.Problem{Code: code, Line: line})
}

// add appends an event and returns its ordinal.
func (p *parser) add(e core.Event) int {
	p.events = append(p.events, e)
	if p.st != nil {
		p.st.added(&e, p.uuid)
	}
	return p.next() - 1
}

// next is the ordinal of the next event.
func (p *parser) next() int { return p.base + len(p.events) }

// at returns the event of an ordinal not yet handed over.
func (p *parser) at(i int) *core.Event { return &p.events[i-p.base] }

// stamp parses a record timestamp; records without one (or with a bad one)
// take the previous record's.
func (p *parser) stamp(s string) time.Time {
	if s == "" {
		return p.last
	}
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return p.last
	}
	p.last = t.UTC()
	return p.last
}

// note records session metadata: the first value of each field wins, except
// titles, where the latest rename or generated title wins.
func (p *parser) note(rec *record) {
	in := &p.info
	first(&in.sessionID, rec.SessionID)
	first(&in.agentID, rec.AgentID)
	first(&in.cwd, rec.Cwd)
	first(&in.branch, rec.GitBranch)
	if rec.Type == "assistant" && rec.Message != nil && rec.Message.Model != "<synthetic>" {
		first(&in.model, rec.Message.Model)
	}
	switch rec.Type {
	case "summary":
		first(&in.summaryTitle, rec.Summary)
	case "ai-title":
		latest(&in.aiTitle, rec.AITitle)
	case "custom-title":
		latest(&in.customTitle, rec.CustomTitle)
	}
}

func first(dst *string, v string) {
	if *dst == "" {
		*dst = v
	}
}

func latest(dst *string, v string) {
	if v != "" {
		*dst = v
	}
}

// session builds the finalized session of the file.
func (p *parser) session() core.ParsedSession {
	p.attachUsage()
	ps := p.shell()
	ps.Events = p.events
	ps.Finalize()
	return ps
}

// shell is the session of the file as read so far, without its events,
// its identity finalized.
func (p *parser) shell() core.ParsedSession {
	in := &p.info
	native, parent, agent := p.identity()
	ps := core.ParsedSession{
		Session: core.Session{
			Provider:  core.ProviderClaude,
			NativeID:  native,
			AgentID:   agent,
			Workspace: in.cwd,
			GitBranch: in.branch,
			Model:     in.model,
			Title:     p.title(),
			Source:    core.SourceRef{Provider: core.ProviderClaude, Root: p.file.Root, Group: p.file.Group, Path: p.file.Path},
		},
		ParentNativeID: parent,
		RootNativeID:   parent,
	}
	if p.meta != nil {
		ps.Session.AgentType = p.meta.AgentType
	}
	ps.FinalizeIdentity()
	return ps
}

// title picks a custom title, then a generated one, then the first legacy
// summary, then a subagent's description.
func (p *parser) title() string {
	in := &p.info
	for _, t := range []string{in.customTitle, in.aiTitle, in.summaryTitle} {
		if t != "" {
			return t
		}
	}
	if p.meta != nil {
		return p.meta.Description
	}
	return ""
}
