package corpus

import (
	"math/rand/v2"
	"time"
)

// claudeVersion is a Claude Code release whose record layout we imitate.
// Legacy (2.0.x) puts the envelope fields first and writes subagents as
// agent-<8 hex>.jsonl beside the session; modern (2.1.x) puts them last and
// writes <session>/subagents/agent-<17 hex>.jsonl plus a .meta.json.
type claudeVersion struct {
	name   string
	modern bool
	slug   bool // records carry a session slug
}

var claudeVersions = []claudeVersion{
	{name: "2.0.37"}, {name: "2.1.114", modern: true}, {name: "2.1.143", modern: true, slug: true},
}

var claudeModels = []string{"claude-opus-4-7", "claude-sonnet-4-5-20250929", "claude-opus-4-1-20250805"}

// claudeSess writes one Claude Code transcript (a session or a subagent).
type claudeSess struct {
	g         *gen
	out       *sink
	e         enc
	projDir   string // <home>/.claude/projects/<slug>
	sessionID string
	agentID   string // set in subagent files
	side      bool   // isSidechain
	ver       claudeVersion
	entry     string // entrypoint
	cwd       string
	branch    string
	slug      string
	model     string
	promptID  string
	parent    string // uuid of the last chained record ("" = null)
	t         time.Time
	events    int
	bare      bool // no toolUseResult on results (new-layout subagents)
	hooks     bool // the user has hooks configured: attachment records
	subs      []subPlan
	calls     []*call
	lastText  []byte // text of the last assistant message
	prompt    []byte // the last user prompt
	tools     int    // tool calls written
	w         *writer
}

func newClaudeSess(r *rand.Rand, ws *workspace, t time.Time) *claudeSess {
	g := newGen(r, ws)
	s := &claudeSess{g: g, cwd: ws.cwd, t: t, sessionID: uuid4(r), entry: "cli"}
	s.ver = claudeVersions[0]
	if g.chance(75) {
		s.ver = claudeVersions[1+r.IntN(2)]
	}
	if s.ver.modern && g.chance(20) {
		s.entry = "claude-vscode"
	}
	if s.ver.slug {
		s.slug = pick(r, slugWords) + "-" + pick(r, slugWords) + "-" + pick(r, slugWords)
	}
	s.branch = g.branch()
	s.model = pick(r, claudeModels)
	s.hooks = s.ver.modern && g.chance(30)
	return s
}

// claudeSlug is the project directory name: the cwd with every
// non-alphanumeric character replaced by '-'.
func claudeSlug(cwd string) string {
	b := []byte(cwd)
	for i, c := range b {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			b[i] = '-'
		}
	}
	return string(b)
}

func (s *claudeSess) tick(lo, hi time.Duration) {
	s.t = s.t.Add(lo + time.Duration(s.g.r.Int64N(int64(hi-lo)+1)))
}

// pre opens a chained record and writes the fields that precede its body.
func (s *claudeSess) pre(withPrompt bool) {
	e := &s.e
	e.reset()
	e.open()
	e.strOrNull("parentUuid", s.parent)
	e.bool("isSidechain", s.side)
	if !s.ver.modern {
		s.origin(false)
	} else if withPrompt && s.promptID != "" {
		e.str("promptId", s.promptID)
	}
	if s.agentID != "" {
		e.str("agentId", s.agentID)
	}
}

// origin writes where the record comes from: the user type, the entry
// point (modern versions write it), the working directory, the session,
// the version and the branch. Older versions write these before the
// body, modern ones after it.
func (s *claudeSess) origin(entrypoint bool) {
	e := &s.e
	e.str("userType", "external")
	if entrypoint {
		e.str("entrypoint", s.entry)
	}
	e.str("cwd", s.cwd)
	e.str("sessionId", s.sessionID)
	e.str("version", s.ver.name)
	e.str("gitBranch", s.branch)
}

// stamp writes a new uuid and the timestamp and makes the record the
// chain's tip.
func (s *claudeSess) stamp() { s.stampID(uuid4(s.g.r)) }

func (s *claudeSess) stampID(u string) {
	s.e.str("uuid", u)
	s.e.time("timestamp", s.t)
	s.parent = u
}

// post writes the trailing envelope fields and emits the line.
func (s *claudeSess) post() {
	e := &s.e
	if s.ver.modern {
		s.origin(true)
		if s.slug != "" {
			e.str("slug", s.slug)
		}
	}
	e.close()
	s.out.line(e.b)
}

// userPrompt writes a typed user prompt (1 event), preceded by a
// file-history-snapshot (1 event) in top-level sessions.
func (s *claudeSess) userPrompt(text []byte) {
	s.tick(20*time.Second, 8*time.Minute)
	u := uuid4(s.g.r)
	if s.agentID == "" {
		s.promptID = uuid4(s.g.r)
		s.snapshot(u)
	}
	s.userMessage(text)
	s.stampID(u)
	if s.ver.modern && s.agentID == "" {
		s.e.str("permissionMode", "acceptEdits")
	}
	s.post()
	s.events++
}

// userMessage begins a user record whose message content is text.
func (s *claudeSess) userMessage(text []byte) {
	s.pre(true)
	s.e.str("type", "user")
	s.e.obj("message")
	s.e.str("role", "user")
	s.e.bytes("content", text)
	s.e.close()
}

// apiMsg is one model response, written as one line per content block.
type apiMsg struct {
	id, req, stop string
	usage         []byte
}

func (s *claudeSess) newMsg(stop string) *apiMsg {
	r := s.g.r
	m := &apiMsg{id: msgID(r), req: requestID(r), stop: stop}
	var u enc
	u.open()
	u.int("input_tokens", int64(1+r.IntN(9)))
	u.int("cache_creation_input_tokens", int64(r.IntN(40000)))
	u.int("cache_read_input_tokens", int64(r.IntN(150000)))
	if !s.ver.modern {
		u.obj("cache_creation")
		u.int("ephemeral_5m_input_tokens", int64(r.IntN(9000)))
		u.int("ephemeral_1h_input_tokens", 0)
		u.close()
	}
	u.int("output_tokens", int64(20+r.IntN(3000)))
	if s.ver.modern {
		u.obj("server_tool_use")
		u.int("web_search_requests", 0)
		u.int("web_fetch_requests", 0)
		u.close()
	}
	u.str("service_tier", "standard")
	u.close()
	m.usage = u.b
	return m
}

// assistantLine writes one streamed line of m holding the block that
// block() encodes, and returns the line's uuid.
func (s *claudeSess) assistantLine(m *apiMsg, block func(e *enc)) string {
	s.tick(200*time.Millisecond, 4*time.Second)
	s.pre(false)
	e := &s.e
	e.obj("message")
	e.str("model", s.model)
	e.str("id", m.id)
	e.str("type", "message")
	e.str("role", "assistant")
	e.arr("content")
	e.open()
	block(e)
	e.close()
	e.closeArr()
	e.str("stop_reason", m.stop)
	e.null("stop_sequence")
	if s.ver.modern {
		e.null("stop_details")
	}
	e.raw("usage", m.usage)
	e.close()
	e.str("requestId", m.req)
	e.str("type", "assistant")
	s.stamp()
	s.post()
	return s.parent
}

// prose writes the thinking and/or text lines of m; they count as one event.
func (s *claudeSess) prose(m *apiMsg, final bool) {
	g := s.g
	think := g.chance(45)
	if think && !s.ver.modern {
		txt := g.prose(g.buf[:0], g.between(80, 600))
		s.assistantLine(m, func(e *enc) {
			e.str("type", "thinking")
			e.bytes("thinking", txt)
			e.str("signature", signature(g.r, "Eq", g.between(80, 240)))
		})
	} else if think {
		s.assistantLine(m, func(e *enc) {
			e.str("type", "thinking")
			e.str("thinking", "")
			e.str("signature", signature(g.r, "Ep", g.between(80, 240)))
		})
	}
	if final {
		s.lastText = g.report(s.lastText[:0], g.between(200, 1400))
	} else {
		s.lastText = g.prose(s.lastText[:0], g.between(60, 700))
	}
	s.assistantLine(m, func(e *enc) {
		e.str("type", "text")
		e.bytes("text", s.lastText)
	})
	s.events++
}
