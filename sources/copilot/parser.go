package copilot

import (
	"cmp"
	"encoding/json"
	"sort"
	"strings"
	"time"

	"ctx/core"
	"ctx/sources/jsonl"
)

// session is the main session or one subagent's, as it is being built.
type session struct {
	key       string // "" for the main session, "agent-<id>" or "task-<call id>"
	ps        core.ParsedSession
	messages  map[string]int  // assistant message id → event index
	reasoning map[string]bool // reasoning texts already emitted
}

// parser holds the state of one events.jsonl parse. Every decision depends
// only on the lines read so far, so a prefix of a file yields a prefix of
// the events, with the same ids.
type parser struct {
	f        core.SourceFile
	ws       *Workspace
	main     *session
	children []*session
	byKey    map[string]*session
	calls    map[string]*callRef
	agents   map[string]data // subagent.started data by the spawning call id
	problems []core.Problem
	lineNo   int
	records  int
	ts       time.Time
	model    string // the model in use
	startID  string // session.start's sessionId
	cwd      string
	branch   string
	title    string
}

func newParser(f core.SourceFile, ws *Workspace) *parser {
	p := &parser{f: f, ws: ws, byKey: map[string]*session{}, calls: map[string]*callRef{}, agents: map[string]data{}}
	p.main = newSession("")
	return p
}

func newSession(key string) *session {
	return &session{key: key, messages: map[string]int{}, reasoning: map[string]bool{}}
}

// line handles one good JSON line.
func (p *parser) line(l jsonl.Line) error {
	p.lineNo = l.No
	if len(l.Data) == 0 || l.Data[0] != '{' {
		p.problem(core.ProblemInvalidRecord)
		return nil
	}
	var rec record
	if err := json.Unmarshal(l.Data, &rec); err != nil || rec.Type == "" {
		// A field of an unexpected type or no type: keep what decoded.
		p.problem(core.ProblemInvalidRecord)
	}
	p.records++
	if t, err := time.Parse(time.RFC3339Nano, rec.Timestamp); err == nil {
		p.ts = t.UTC()
	}
	p.dispatch(p.route(&rec, &rec.Data), &rec, &rec.Data, l.Data)
	return nil
}

// route returns the session an event belongs to: a subagent's when the
// event carries an agentId (newer builds) or a parentToolCallId (the call
// that spawned the subagent), else the main session.
func (p *parser) route(rec *record, d *data) *session {
	var key string
	switch {
	case rec.AgentID != "":
		key = "agent-" + rec.AgentID
	case d.ParentToolCallID != "":
		key = "task-" + d.ParentToolCallID
	default:
		return p.main
	}
	s := p.byKey[key]
	if s == nil {
		s = newSession(key)
		p.byKey[key] = s
		p.children = append(p.children, s)
	}
	if a, ok := p.agents[d.ParentToolCallID]; ok && s.ps.Session.AgentType == "" {
		s.ps.Session.AgentType, s.ps.Session.Title = a.AgentName, a.AgentDescription
	}
	return s
}

func (p *parser) dispatch(s *session, rec *record, d *data, raw []byte) {
	switch rec.Type {
	case "session.start":
		p.sessionStart(s, rec, d)
	case "session.model_change":
		p.model = d.NewModel
		p.other(s, rec, strings.TrimSpace("model "+d.NewModel+" (was "+d.PreviousModel+")"))
	case "session.title_changed":
		p.title = d.Title
		p.other(s, rec, d.Title)
	case "user.message":
		p.userMessage(s, rec, d)
	case "assistant.message":
		p.assistantMessage(s, rec, d)
	case "assistant.reasoning":
		p.addReasoning(s, d.Content, cmp.Or(d.ReasoningID, rec.ID))
	case "system.message":
		p.add(s, core.Event{Role: core.RoleSystem, Type: core.TypeOther, Native: rec.Type,
			Text: core.Clip(d.Content, maxOther), Key: rec.ID})
	case "tool.execution_start":
		p.toolCall(s, d.ToolCallID, d.ToolName, d.Arguments, d.MCPServerName, d.MCPToolName)
	case "tool.execution_complete":
		p.toolComplete(s, rec, d)
	case "subagent.started":
		p.agents[d.ToolCallID] = *d
		p.other(s, rec, strings.TrimSpace(d.AgentName+" "+d.AgentDescription))
	case "session.compaction_start", "session.truncation":
		p.add(s, core.Event{Role: core.RoleSystem, Type: core.TypeCompaction, Native: rec.Type,
			Text: rec.Type, Key: rec.ID})
	case "session.compaction_complete":
		p.compacted(s, rec, d)
	case "":
		// Already counted as invalid_record; kept as an other event.
		p.add(s, core.Event{Role: core.RoleSystem, Type: core.TypeOther, Native: "unknown",
			Text: core.Clip(string(raw), maxOther), Key: rec.ID})
	default:
		if !bookkeeping[rec.Type] && !strings.HasSuffix(rec.Type, "_delta") {
			p.problem(core.ProblemUnknownRecord)
			p.other(s, rec, core.Clip(string(raw), maxOther))
			return
		}
		p.other(s, rec, otherText(rec, d))
	}
}

// sessionStart takes the session identity and context from the first
// session.start; every one is also kept as an other event.
func (p *parser) sessionStart(s *session, rec *record, d *data) {
	if p.startID == "" {
		p.startID = d.SessionID
		if c := d.Context; c != nil {
			p.cwd, p.branch = c.Cwd, c.Branch
		}
	}
	if d.SelectedModel != "" {
		p.model = d.SelectedModel
	}
	cwd := ""
	if d.Context != nil {
		cwd = "cwd=" + d.Context.Cwd
	}
	p.other(s, rec, strings.Join(core.NonEmpty("session", d.SessionID, "copilot", d.CopilotVersion, cwd), " "))
}

func (p *parser) compacted(s *session, rec *record, d *data) {
	if d.SummaryContent != "" {
		p.add(s, core.Event{Role: core.RoleSystem, Type: core.TypeSummary, Native: rec.Type,
			Text: d.SummaryContent, Key: rec.ID})
		return
	}
	p.add(s, core.Event{Role: core.RoleSystem, Type: core.TypeCompaction, Native: rec.Type,
		Text: strings.TrimSpace(rec.Type + " " + toolError(d.Error)), IsError: len(d.Error) > 0, Key: rec.ID})
}

// add appends an event stamped with the current time and returns its
// index; the first model of an assistant event is the session's model.
func (p *parser) add(s *session, e core.Event) int {
	e.Timestamp = p.ts
	if e.Model != "" && s.ps.Session.Model == "" {
		s.ps.Session.Model = e.Model
	}
	return s.ps.Append(e)
}

// maxOther bounds the text of bookkeeping events.
const maxOther = 2000

func (p *parser) other(s *session, rec *record, text string) {
	p.add(s, core.Event{Role: core.RoleSystem, Type: core.TypeOther, Native: rec.Type, Text: text, Key: rec.ID})
}

// otherText is a short description of a bookkeeping event.
func otherText(rec *record, d *data) string {
	parts := core.NonEmpty(rec.Type, jsonString(d.TurnID), d.InfoType, d.WarningType, d.ErrorType, d.Reason,
		d.Intent, d.AgentName, d.ToolName, d.Message)
	return core.Clip(strings.Join(parts, " "), maxOther)
}

func (p *parser) problem(code string) {
	p.problems = append(p.problems, core.Problem{Code: code, Provider: ProviderID, Path: p.f.Path, Line: p.lineNo})
}

// finish returns the main session and its subagents, finalized.
func (p *parser) finish() core.ParseResult {
	sort.SliceStable(p.problems, func(i, j int) bool { return p.problems[i].Line < p.problems[j].Line })
	res := core.ParseResult{Problems: p.problems}
	if p.records == 0 {
		if len(p.problems) == 0 {
			res.Problems = append(res.Problems, core.Problem{Code: core.ProblemEmptyFile, Provider: ProviderID, Path: p.f.Path})
		}
		return res
	}
	native := nativeID(p.f.Path, p.startID)
	meta := p.meta()
	for _, s := range append([]*session{p.main}, p.children...) {
		ss := &s.ps.Session
		ss.Provider, ss.NativeID = ProviderID, native
		ss.Workspace, ss.GitBranch = meta.Cwd, meta.Branch
		ss.Source = core.SourceRef{Provider: ProviderID, Path: p.f.Path, Root: p.f.Root, Group: p.f.Group}
		if ss.Model == "" {
			ss.Model = p.model
		}
		if s.key == "" {
			ss.Title = meta.Summary
		} else {
			ss.NativeID = native + "/" + s.key
			s.ps.ParentNativeID, s.ps.RootNativeID = native, native
			if id, ok := strings.CutPrefix(s.key, "agent-"); ok {
				ss.AgentID = id
			}
		}
		s.ps.Finalize()
		res.Sessions = append(res.Sessions, s.ps)
	}
	return res
}

// meta merges session.start's context and the latest title over
// workspace.yaml.
func (p *parser) meta() Workspace {
	var w Workspace
	if p.ws != nil {
		w = *p.ws
	}
	if p.cwd != "" {
		w.Cwd = p.cwd
	}
	if p.branch != "" {
		w.Branch = p.branch
	}
	if p.title != "" {
		w.Summary = p.title
	}
	return w
}
