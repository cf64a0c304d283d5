package corpus

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"
)

// probe holds the fields Append needs from any line of either format.
type probe struct {
	Type      string          `json:"type"`
	Payload   json.RawMessage `json:"payload"`
	Timestamp string          `json:"timestamp"`
	UUID      string          `json:"uuid"`
	SessionID string          `json:"sessionId"`
	AgentID   string          `json:"agentId"`
	Sidechain bool            `json:"isSidechain"`
	Cwd       string          `json:"cwd"`
	GitBranch string          `json:"gitBranch"`
	Version   string          `json:"version"`
	Entry     string          `json:"entrypoint"`
	Slug      string          `json:"slug"`
	PromptID  string          `json:"promptId"`
	Message   struct {
		Model string `json:"model"`
	} `json:"message"`
}

// codexPayload holds the session_meta and turn_context fields Append needs.
type codexPayload struct {
	ID         string `json:"id"`
	Cwd        string `json:"cwd"`
	Originator string `json:"originator"`
	CLIVersion string `json:"cli_version"`
	Source     any    `json:"source"`
	Model      string `json:"model"`
	Effort     string `json:"effort"`
	Git        struct {
		Branch string `json:"branch"`
	} `json:"git"`
}

// tail is what Append learned from an existing file.
type tail struct {
	codex   bool
	last    probe // merged envelope of the file's records, latest wins
	chain   string
	t       time.Time
	meta    codexPayload
	newline bool // the file ends with a newline
	size    int64
}

// Append adds about events more events to a generated session file of
// either format, continuing its session (same ids and workspace, new
// message and call ids, later timestamps), and returns the events added.
func Append(path string, events int, seed int64) (int, error) {
	if events < 1 {
		return 0, fmt.Errorf("%w: events must be positive", ErrOptions)
	}
	tl, err := readTail(path)
	if err != nil {
		return 0, err
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		return 0, err
	}
	out := &sink{f: f, w: bufio.NewWriterSize(f, 256<<10)}
	if !tl.newline {
		out.w.WriteByte('\n')
	}
	r := newRand(uint64(seed), uint64(tl.size))
	ws := theLexicon().workspaceFor(tl.last.Cwd)
	t := tl.t.Add(time.Minute + time.Duration(r.Int64N(int64(30*time.Minute))))
	var added int
	if tl.codex {
		added = appendCodex(out, tl, newGen(r, ws), t, events)
	} else {
		added = appendClaude(out, tl, newGen(r, ws), t, events)
	}
	return added, out.close()
}

func readTail(path string) (*tail, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	tl := &tail{}
	br := bufio.NewReaderSize(f, 256<<10)
	for no := 1; ; no++ {
		line, err := br.ReadBytes('\n')
		tl.size += int64(len(line))
		if len(line) > 0 {
			tl.newline = line[len(line)-1] == '\n'
			tl.absorb(bytes.TrimSpace(line), no)
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
	}
	if tl.last.SessionID == "" && tl.meta.ID == "" {
		return nil, errors.New("corpus: " + path + " is not a Claude Code or Codex session file")
	}
	return tl, nil
}

// absorb takes what it needs from one line; lines that are not JSON are
// skipped like a reader of live files would.
func (tl *tail) absorb(line []byte, no int) {
	var p probe
	if len(line) == 0 || json.Unmarshal(line, &p) != nil {
		return
	}
	if no == 1 && p.Payload != nil {
		tl.codex = true
	}
	if t, err := time.Parse(time.RFC3339Nano, p.Timestamp); err == nil && t.After(tl.t) {
		tl.t = t
	}
	if tl.codex {
		var c codexPayload
		if json.Unmarshal(p.Payload, &c) == nil {
			tl.mergeCodex(p.Type, c)
		}
		return
	}
	tl.mergeClaude(p)
}

func (tl *tail) mergeCodex(typ string, c codexPayload) {
	switch typ {
	case "session_meta":
		tl.meta.ID, tl.meta.Cwd, tl.meta.Originator = c.ID, c.Cwd, c.Originator
		tl.meta.CLIVersion, tl.meta.Source, tl.meta.Git = c.CLIVersion, c.Source, c.Git
		tl.last.Cwd = c.Cwd
	case "turn_context":
		tl.meta.Model, tl.meta.Effort = c.Model, c.Effort
	}
}

func (tl *tail) mergeClaude(p probe) {
	l := &tl.last
	set := func(dst *string, v string) {
		if v != "" {
			*dst = v
		}
	}
	set(&l.SessionID, p.SessionID)
	set(&l.AgentID, p.AgentID)
	set(&l.Cwd, p.Cwd)
	set(&l.GitBranch, p.GitBranch)
	set(&l.Version, p.Version)
	set(&l.Entry, p.Entry)
	set(&l.Slug, p.Slug)
	set(&l.PromptID, p.PromptID)
	set(&l.Message.Model, p.Message.Model)
	set(&tl.chain, p.UUID)
	if p.UUID != "" {
		l.Sidechain = p.Sidechain
	}
}

func appendClaude(out *sink, tl *tail, g *gen, t time.Time, events int) int {
	l := tl.last
	s := &claudeSess{g: g, out: out, sessionID: l.SessionID, agentID: l.AgentID, side: l.Sidechain,
		entry: l.Entry, cwd: l.Cwd, branch: l.GitBranch, slug: l.Slug, model: l.Message.Model,
		promptID: l.PromptID, parent: tl.chain, t: t}
	s.ver = claudeVersion{name: l.Version, slug: l.Slug != "",
		modern: !strings.HasPrefix(l.Version, "2.0") && !strings.HasPrefix(l.Version, "1.")}
	for _, v := range claudeVersions {
		if v.name == l.Version {
			s.ver = v
		}
	}
	s.bare = s.ver.modern && s.agentID != ""
	if s.entry == "" {
		s.entry = "cli"
	}
	if s.model == "" {
		s.model = claudeModels[0]
	}
	for s.events < events {
		s.turn(events, g.prompt(nil, g.between(60, 600)))
	}
	return s.events
}

func appendCodex(out *sink, tl *tail, g *gen, t time.Time, events int) int {
	m := tl.meta
	s := &codexSess{g: g, out: out, id: m.ID, cwd: m.Cwd, model: m.Model, branch: m.Git.Branch, t: t}
	src, _ := m.Source.(string)
	s.ver = codexVersion{cli: m.CLIVersion, originator: m.Originator, source: src, effort: m.Effort != ""}
	if s.model == "" {
		s.model = codexModels[0]
	}
	for s.events < events {
		s.turn(events, false)
	}
	return s.events
}
