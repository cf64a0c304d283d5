package corpus

import (
	"math/rand/v2"
	"path/filepath"
	"strconv"
	"time"
)

// codexVersion is a Codex CLI release with the 0.7x envelope format.
type codexVersion struct {
	cli, originator, source string
	effort                  bool // turn_context carries "effort"
}

var codexVersions = []codexVersion{
	{cli: "0.72.0", originator: "codex_cli_rs", source: "cli"},
	{cli: "0.71.0", originator: "codex_cli_rs", source: "cli"},
	{cli: "0.70.0-alpha.4", originator: "codex_vscode", source: "vscode", effort: true},
}

var codexModels = []string{"gpt-5.1-codex-max", "gpt-5.2-codex", "gpt-5.1-codex"}

// codexZone is the local time zone of rollout file names and date
// directories (Codex uses local time there and UTC inside records). It is
// fixed so output does not depend on the machine's zone.
var codexZone = time.FixedZone("UTC+1", 3600)

// codexSess writes one Codex rollout file.
type codexSess struct {
	g      *gen
	out    *sink
	e      enc
	id     string
	ver    codexVersion
	cwd    string
	model  string
	branch string
	t      time.Time
	events int
	total  [4]int64 // input, cached, output, reasoning tokens so far
	calls  []*ccall
}

func newCodexSess(r *rand.Rand, ws *workspace, t time.Time) *codexSess {
	g := newGen(r, ws)
	s := &codexSess{g: g, cwd: ws.cwd, t: t, id: uuid7(r, t), model: pick(r, codexModels)}
	s.ver = codexVersions[r.IntN(len(codexVersions))]
	s.branch = g.branch()
	return s
}

func writeCodexSession(w *writer, home string, r *rand.Rand, ws *workspace, t0 time.Time, size int) {
	s := newCodexSess(r, ws, t0)
	s.out = w.create(codexPath(home, t0, s.id))
	s.run(size)
	w.finish(s.out, s.events)
}

// codexPath is sessions/YYYY/MM/DD/rollout-<local time>-<id>.jsonl.
func codexPath(home string, t time.Time, id string) string {
	lt := t.In(codexZone)
	return filepath.Join(home, ".codex", "sessions", lt.Format("2006"), lt.Format("01"), lt.Format("02"),
		"rollout-"+lt.Format("2006-01-02T15-04-05")+"-"+id+".jsonl")
}

func (s *codexSess) tick(lo, hi time.Duration) {
	s.t = s.t.Add(lo + time.Duration(s.g.r.Int64N(int64(hi-lo)+1)))
}

// begin opens a {"timestamp","type","payload":{…}} line.
func (s *codexSess) begin(typ string) *enc {
	e := &s.e
	e.reset()
	e.open()
	e.time("timestamp", s.t)
	e.str("type", typ)
	e.obj("payload")
	return e
}

func (s *codexSess) end() {
	s.e.close()
	s.e.close()
	s.out.line(s.e.b)
}

// run writes a whole session of about target events.
func (s *codexSess) run(target int) {
	s.sessionMeta()
	s.environment()
	for first := true; s.events < target; first = false {
		s.turn(target, first)
	}
}

func (s *codexSess) sessionMeta() {
	e := s.begin("session_meta")
	e.str("id", s.id)
	e.time("timestamp", s.t)
	e.str("cwd", s.cwd)
	e.str("originator", s.ver.originator)
	e.str("cli_version", s.ver.cli)
	e.null("instructions")
	e.str("source", s.ver.source)
	e.str("model_provider", "openai")
	e.obj("git")
	e.str("commit_hash", randHex(s.g.r, 40))
	e.str("branch", s.branch)
	e.str("repository_url", "git@git.example.com:dev/"+s.g.ws.name+".git")
	e.close()
	s.end()
	s.events++
}

// environment writes the injected <environment_context> user message.
func (s *codexSess) environment() {
	text := "<environment_context>\n  <cwd>" + s.cwd + "</cwd>\n  <approval_policy>never</approval_policy>\n" +
		"  <sandbox_mode>danger-full-access</sandbox_mode>\n  <network_access>enabled</network_access>\n" +
		"  <shell>bash</shell>\n</environment_context>"
	s.message("user", []byte(text))
	s.events++
}

// message writes a response_item message with one text part.
func (s *codexSess) message(role string, text []byte) {
	e := s.begin("response_item")
	e.str("type", "message")
	e.str("role", role)
	e.arr("content")
	e.open()
	if role == "user" {
		e.str("type", "input_text")
	} else {
		e.str("type", "output_text")
	}
	e.bytes("text", text)
	e.close()
	e.closeArr()
	s.end()
}

// eventMsg writes an event_msg copy of a message (not an event of its own).
func (s *codexSess) eventMsg(typ, key string, text []byte, images bool) {
	e := s.begin("event_msg")
	e.str("type", typ)
	e.bytes(key, text)
	if images {
		e.arr("images")
		e.closeArr()
	}
	s.end()
}

func (s *codexSess) turnContext() {
	e := s.begin("turn_context")
	e.str("cwd", s.cwd)
	e.str("approval_policy", "never")
	e.obj("sandbox_policy")
	e.str("type", "danger-full-access")
	e.close()
	e.str("model", s.model)
	if s.ver.effort {
		e.str("effort", "medium")
	}
	e.str("summary", "auto")
	s.end()
	s.events++
}

func (s *codexSess) ghostSnapshot() {
	e := s.begin("response_item")
	e.str("type", "ghost_snapshot")
	e.obj("ghost_commit")
	e.str("id", randHex(s.g.r, 40))
	e.str("parent", randHex(s.g.r, 40))
	e.arr("preexisting_untracked_files")
	e.closeArr()
	e.arr("preexisting_untracked_dirs")
	e.closeArr()
	e.close()
	s.end()
	s.events++
}

func (s *codexSess) tokenCount(empty bool) {
	g := s.g
	e := s.begin("event_msg")
	e.str("type", "token_count")
	if empty {
		e.null("info")
	} else {
		last := [4]int64{int64(3000 + g.r.IntN(12000)), 0, int64(20 + g.r.IntN(600)), 0}
		last[1] = last[0] * int64(70+g.r.IntN(29)) / 100
		last[3] = last[2] * int64(g.r.IntN(80)) / 100
		for i := range s.total {
			s.total[i] += last[i]
		}
		e.obj("info")
		usageObj(e, "total_token_usage", s.total)
		usageObj(e, "last_token_usage", last)
		e.int("model_context_window", 258400)
		e.close()
	}
	s.rateLimits(e)
	s.end()
	s.events++
}

func usageObj(e *enc, k string, u [4]int64) {
	e.obj(k)
	e.int("input_tokens", u[0])
	e.int("cached_input_tokens", u[1])
	e.int("output_tokens", u[2])
	e.int("reasoning_output_tokens", u[3])
	e.int("total_tokens", u[0]+u[2])
	e.close()
}

func (s *codexSess) rateLimits(e *enc) {
	e.obj("rate_limits")
	for i, k := range []string{"primary", "secondary"} {
		e.obj(k)
		e.float("used_percent", float64(1+i*5+int(s.total[0]/400000)%90))
		e.int("window_minutes", []int64{300, 10080}[i])
		e.int("resets_at", s.t.Unix()+int64(3600*(1+i*40)))
		e.close()
	}
	e.obj("credits")
	e.bool("has_credits", false)
	e.bool("unlimited", false)
	e.null("balance")
	e.close()
	e.null("plan_type")
	e.close()
}

func formatSecs(x float64) string { return strconv.FormatFloat(x, 'f', -1, 64) }
