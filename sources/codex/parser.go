package codex

import (
	"encoding/json"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"ctx/core"
	"ctx/sources/jsonl"
	"ctx/sources/jsonx"
)

// callKind says how a call's output is normalized.
type callKind uint8

const (
	callTool  callKind = iota // any other tool: tool_output
	callShell                 // command_output + command_finish
	callPatch                 // apply_patch: tool_output with the exit code
	callMCP                   // MCP tool: tool_output with Activity
)

// callInfo is what an output needs to know about its call.
type callInfo struct {
	kind      callKind
	tool      string
	command   string
	idx       int  // index of the call event
	fromEvent bool // the call came from an event_msg, not a response item
	server    string
	mcpTool   string
}

// twin is an event-message copy already emitted as content, waiting for its
// response-item twin (which is then skipped).
type twin struct {
	typ  core.EventType
	role core.Role
	text string
}

// parser holds the state of one rollout parse. Every decision depends only
// on the lines read so far, so a prefix of a file yields a prefix of the
// events, with the same ids.
type parser struct {
	f        core.SourceFile
	ps       core.ParsedSession
	problems []core.Problem
	lineNo   int
	records  int
	haveMeta bool
	nativeID string
	lastTS   time.Time
	prevTS   string // raw timestamp of the last timestamped record
	tsN      int    // index of the record among those sharing prevTS
	recKey   string // key of the current record, "" without a timestamp
	model    string // model of the current turn
	latched  bool   // a response item message or reasoning has been seen
	pending  []twin
	calls    map[string]callInfo
	tokens   tokenUsage // the last total_token_usage seen
	// A streamed parse (stream.go) holds in ps.Events the events not yet
	// handed over, the first of them at ordinal base.
	base int
	st   *stream
}

func newParser(f core.SourceFile) *parser {
	return &parser{f: f, calls: map[string]callInfo{}}
}

// line handles one good JSON line.
func (p *parser) line(l jsonl.Line) error {
	p.lineNo = l.No
	if jsonx.FirstByte(l.Data) != '{' {
		p.problem(core.ProblemInvalidRecord)
		return nil
	}
	var rec record
	if err := jsonx.Decode(l.Data, &rec); err != nil {
		// A field of an unexpected type: keep what decoded.
		p.problem(core.ProblemInvalidRecord)
	}
	p.records++
	p.stamp(rec.Timestamp)
	p.dispatch(&rec, l.Data)
	if p.st == nil {
		return nil
	}
	return p.drain(false)
}

// stamp sets the current time and record key from a record's timestamp.
func (p *parser) stamp(ts string) {
	p.recKey = ""
	if ts == "" {
		return
	}
	if t, err := time.Parse(time.RFC3339Nano, ts); err == nil {
		p.lastTS = t.UTC()
	}
	if ts == p.prevTS {
		p.tsN++
	} else {
		p.prevTS, p.tsN = ts, 0
	}
	p.recKey = ts + "#" + strconv.Itoa(p.tsN)
}

// topTypes are the envelope types.
var topTypes = map[string]bool{"session_meta": true, "response_item": true, "event_msg": true,
	"turn_context": true, "compacted": true, "world_state": true, "inter_agent_communication_metadata": true}

func (p *parser) dispatch(rec *record, data []byte) {
	switch {
	case rec.Payload != nil || topTypes[rec.Type]:
		p.envelope(rec, data)
	case rec.RecordType != "":
		if rec.RecordType == "state" {
			p.other("state", "state")
		} else {
			p.unknown("record_type:"+rec.RecordType, data)
		}
	case rec.Type == "" && rec.ID != "":
		it := rec.item
		it.ID, it.Timestamp = rec.ID, rec.Timestamp
		p.sessionMeta(&it)
	case rec.Type != "":
		it := rec.item
		it.Type, it.ID = rec.Type, rec.ID
		p.responseItem(&it, data)
	default:
		p.unknown("", data)
	}
}

func (p *parser) envelope(rec *record, data []byte) {
	it := rec.Payload
	if it == nil {
		it = &item{}
	}
	switch rec.Type {
	case "session_meta":
		p.sessionMeta(it)
	case "response_item":
		p.responseItem(it, data)
	case "event_msg":
		p.eventMsg(it, data)
	case "turn_context":
		p.turnContext(it)
	case "compacted":
		p.add(core.Event{Role: core.RoleSystem, Type: core.TypeSummary, Native: "compacted",
			Text: it.Message, Key: p.key("sum:")})
	case "world_state", "inter_agent_communication_metadata":
		p.other(rec.Type, snippet(data))
	default:
		p.unknown(rec.Type, data)
	}
}

// sessionMeta takes the session identity from the first meta record; every
// meta record is also kept as an other event.
func (p *parser) sessionMeta(it *item) {
	if !p.haveMeta {
		p.haveMeta = true
		s := &p.ps.Session
		p.nativeID = it.ID
		if it.Cwd != "" {
			s.Workspace = it.Cwd
		}
		if it.Git != nil {
			s.GitBranch = it.Git.Branch
		}
		if it.Model != "" {
			s.Model = it.Model
		}
		if t, err := time.Parse(time.RFC3339Nano, it.Timestamp); err == nil {
			s.Started = t.UTC()
			if p.lastTS.IsZero() {
				p.lastTS = s.Started
			}
		}
		p.subagent(it.Source)
	}
	text := strings.Join(core.NonEmpty("session", it.ID, it.Originator, it.CLIVersion, prefixed("cwd=", it.Cwd)), " ")
	p.other("session_meta", text)
}

// subagent reads source:{"subagent":{"thread_spawn":{"parent_thread_id":…}}}
// or source:{"subagent":"review"}.
func (p *parser) subagent(raw json.RawMessage) {
	if jsonx.FirstByte(raw) != '{' {
		return
	}
	var src struct {
		Subagent json.RawMessage `json:"subagent"`
	}
	if jsonx.Decode(raw, &src) != nil {
		return
	}
	if jsonx.FirstByte(src.Subagent) == '"' {
		p.ps.Session.AgentType = jsonString(src.Subagent)
		return
	}
	var sub struct {
		ThreadSpawn *struct {
			Parent string `json:"parent_thread_id"`
			Role   string `json:"agent_role"`
		} `json:"thread_spawn"`
	}
	if jsonx.Decode(src.Subagent, &sub) != nil || sub.ThreadSpawn == nil {
		return
	}
	if sub.ThreadSpawn.Parent != "" {
		p.ps.ParentNativeID = sub.ThreadSpawn.Parent
		p.ps.RootNativeID = sub.ThreadSpawn.Parent
	}
	p.ps.Session.AgentType = sub.ThreadSpawn.Role
}

func (p *parser) turnContext(it *item) {
	s := &p.ps.Session
	if s.Workspace == "" {
		s.Workspace = it.Cwd
	}
	if it.Model != "" {
		p.model = it.Model
		if s.Model == "" {
			s.Model = it.Model
		}
	}
	text := strings.Join(core.NonEmpty(prefixed("model=", it.Model), prefixed("effort=", it.Effort),
		prefixed("cwd=", it.Cwd)), " ")
	p.other("turn_context", text)
}

// add appends an event stamped with the current time and returns its
// ordinal.
func (p *parser) add(e core.Event) int {
	e.Timestamp = p.lastTS
	if p.st != nil {
		p.st.bytes += len(e.Text)
	}
	return p.base + p.ps.Append(e)
}

// next returns the ordinal of the next event.
func (p *parser) next() int { return p.base + len(p.ps.Events) }

// event returns the event of ordinal i, or nil when a streamed parse has
// handed it over: the parse then stops, since only the whole parse can
// still change it.
func (p *parser) event(i int) *core.Event {
	if i < p.base {
		p.st.fail(core.ErrParseWhole)
		return nil
	}
	return &p.ps.Events[i-p.base]
}

// call returns the call of id. A streamed parse that forgot it (see
// flush) stops: the whole parse still knows it.
func (p *parser) call(id string) (callInfo, bool) {
	ci, ok := p.calls[id]
	if !ok && p.st != nil && p.st.shut.Len() > 0 && p.st.shut.Has(p.st.h.Key("c", id)) {
		p.st.fail(core.ErrParseWhole)
	}
	return ci, ok
}

// key derives an event key from the current record; "" (the ordinal) for
// records without a timestamp.
func (p *parser) key(prefix string) string {
	if p.recKey == "" {
		return ""
	}
	return prefix + p.recKey
}

// itemKey prefers the item's own provider id.
func (p *parser) itemKey(prefix string, it *item) string {
	if it.ID != "" {
		return prefix + it.ID
	}
	return p.key(prefix)
}

// callKey keys call events by the provider call id.
func (p *parser) callKey(callID, suffix string) string {
	if callID != "" {
		return callID + suffix
	}
	if p.recKey != "" {
		return "call:" + p.recKey + suffix
	}
	return ""
}

func (p *parser) other(native, text string) {
	p.add(core.Event{Role: core.RoleSystem, Type: core.TypeOther, Native: native,
		Text: core.Clip(text, maxOther), Key: p.key("oth:")})
}

// unknown keeps a record of an unknown type as an other event and counts it.
func (p *parser) unknown(native string, data []byte) {
	p.problem(core.ProblemUnknownRecord)
	if native == "" {
		native = "unknown"
	}
	p.other(native, snippet(data))
}

func (p *parser) problem(code string) {
	p.problems = append(p.problems, core.Problem{Code: code, Provider: core.ProviderCodex,
		Path: p.f.Path, Line: p.lineNo})
}

// finish returns the parse result: one finalized session, or none when the
// file held no records.
func (p *parser) finish() core.ParseResult {
	res := core.ParseResult{Problems: p.sortedProblems()}
	if p.next() == 0 && !p.haveMeta {
		return res
	}
	ps := p.header()
	ps.Events = p.ps.Events
	ps.Finalize()
	res.Sessions = []core.ParsedSession{ps}
	return res
}

// sortedProblems returns the parse's problems by line, with the empty
// file's when it held neither a record nor a bad line.
func (p *parser) sortedProblems() []core.Problem {
	sort.SliceStable(p.problems, func(i, j int) bool { return p.problems[i].Line < p.problems[j].Line })
	if p.next() == 0 && !p.haveMeta && p.records == 0 && len(p.problems) == 0 {
		return []core.Problem{{Code: core.ProblemEmptyFile, Provider: core.ProviderCodex, Path: p.f.Path}}
	}
	return p.problems
}

// header returns the session read so far without its events, its identity
// derived.
func (p *parser) header() core.ParsedSession {
	ps := p.ps
	ps.Events = nil
	s := &ps.Session
	s.Provider = core.ProviderCodex
	s.NativeID = p.nativeID
	if s.NativeID == "" {
		s.NativeID = idFromName(p.f.Path)
	}
	s.Source = core.SourceRef{Provider: core.ProviderCodex, Path: p.f.Path, Root: p.f.Root, Group: p.f.Group}
	ps.FinalizeIdentity()
	return ps
}

// idFromName returns the session uuid at the end of a rollout file name, or
// the name itself.
func idFromName(path string) string {
	base := strings.TrimSuffix(filepath.Base(path), ".jsonl")
	if len(base) >= 36 {
		if id := base[len(base)-36:]; core.IsUUID(id) {
			return id
		}
	}
	if base == "" || base == "." || base == string(filepath.Separator) {
		return "unknown"
	}
	return base
}

func prefixed(prefix, s string) string {
	if s == "" {
		return ""
	}
	return prefix + s
}
