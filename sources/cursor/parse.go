package cursor

import (
	"encoding/json"
	"strings"

	"ctx/core"
)

// Newest value versions (_v) this parser was written against; newer values
// are parsed best-effort and counted as unknown_version.
const (
	maxComposerVersion = 16
	maxBubbleVersion   = 3
)

// Key prefixes of cursorDiskKV.
const (
	prefixComposer = "composerData:"
	prefixBubble   = "bubbleId:"
	prefixContent  = "composer.content."
)

// options are what Parse knows of the database's surroundings.
type options struct {
	scope     string // the directory holding the database (a workspace hash)
	workspace string // the folder of a workspace database (workspace.json)
}

// parser turns the rows of one database into sessions.
type parser struct {
	f    core.SourceFile
	opt  options
	st   store
	res  core.ParseResult
	seen map[string]bool // native ids of the sessions made so far
}

// parseStore reads every conversation of the store: the composers of
// cursorDiskKV, then the chat keys of ItemTable. It fails only when the
// store fails.
func parseStore(st store, f core.SourceFile, opt options) (core.ParseResult, error) {
	p := &parser{f: f, opt: opt, st: st, seen: map[string]bool{}}
	comps, err := p.loadComposers()
	if err != nil {
		return core.ParseResult{}, err
	}
	links := linkComposers(comps)
	for _, c := range comps {
		if err := p.composerSession(c, links); err != nil {
			return core.ParseResult{}, err
		}
	}
	if err := p.itemTable(); err != nil {
		return core.ParseResult{}, err
	}
	return p.res, nil
}

func (p *parser) problem(code string) {
	p.res.Problems = append(p.res.Problems, core.Problem{Code: code, Provider: ProviderID, Path: p.f.Path})
}

// decode unmarshals a value, counting invalid JSON and wrong shapes.
func (p *parser) decode(value []byte, v any) bool {
	if value == nil {
		p.problem(core.ProblemInvalidRecord)
		return false
	}
	if err := json.Unmarshal(value, v); err != nil {
		if json.Valid(value) {
			p.problem(core.ProblemInvalidRecord)
		} else {
			p.problem(core.ProblemInvalidJSON)
		}
		return false
	}
	return true
}

// loadComposers decodes every composerData row, in key order.
func (p *parser) loadComposers() ([]*composer, error) {
	var out []*composer
	err := p.st.scan(prefixComposer, func(key string, value []byte) error {
		c := &composer{}
		if !p.decode(value, c) {
			return nil
		}
		if id := strings.TrimPrefix(key, prefixComposer); c.ComposerID == "" || c.ComposerID != id {
			c.ComposerID = id
		}
		out = append(out, c)
		return nil
	})
	return out, err
}

// composerLinks maps a subagent composer to its parent.
type composerLinks struct {
	parent map[string]string
}

// linkComposers links subagents to their parents: a parent lists its
// children in subagentComposerIds, and a child may name its parent in
// subagentInfo.parentComposerId.
func linkComposers(comps []*composer) composerLinks {
	l := composerLinks{parent: map[string]string{}}
	for _, c := range comps {
		for _, child := range c.SubagentComposerIDs {
			if child != "" && child != c.ComposerID {
				l.parent[child] = c.ComposerID
			}
		}
	}
	for _, c := range comps {
		if c.SubagentInfo != nil && c.SubagentInfo.ParentComposerID != "" && l.parent[c.ComposerID] == "" &&
			c.SubagentInfo.ParentComposerID != c.ComposerID {
			l.parent[c.ComposerID] = c.SubagentInfo.ParentComposerID
		}
	}
	return l
}

// root follows parent links to the top; a cycle stops where it closes.
func (l composerLinks) root(id string) string {
	seen := map[string]bool{id: true}
	for {
		up, ok := l.parent[id]
		if !ok || seen[up] {
			return id
		}
		seen[up] = true
		id = up
	}
}

// composerSession builds the session of one composer; a composer without
// any event (a draft) yields none.
func (p *parser) composerSession(c *composer, links composerLinks) error {
	if c.V.Bad || (c.V.Set && c.V.N > maxComposerVersion) {
		p.problem(ProblemUnknownVersion)
	}
	b := p.newSession(c.ComposerID, c.Name)
	c.fillSession(&b.ps.Session)
	if parent := links.parent[c.ComposerID]; parent != "" {
		b.ps.ParentNativeID = parent
		b.ps.RootNativeID = links.root(parent)
	}
	b.codeBlocks = c.CodeBlockData
	if len(c.Headers) > 0 {
		if err := p.headerBubbles(b, c); err != nil {
			return err
		}
	} else {
		for _, raw := range c.Conversation {
			b.bubble(raw, "")
		}
	}
	if b.err != nil {
		return b.err
	}
	p.finish(b)
	return nil
}

// headerBubbles reads the composer's bubble rows and adds them in header
// order. A bubble without a row is taken from the composer's
// conversationMap; one in neither is counted as missing.
func (p *parser) headerBubbles(b *sessionBuilder, c *composer) error {
	prefix := prefixBubble + c.ComposerID + ":"
	rows := map[string][]byte{}
	err := p.st.scan(prefix, func(key string, value []byte) error {
		rows[strings.TrimPrefix(key, prefix)] = value
		return nil
	})
	if err != nil {
		return err
	}
	for _, h := range c.Headers {
		value, ok := rows[h.BubbleID]
		if !ok {
			value, ok = c.ConversationMap[h.BubbleID]
		}
		if !ok || h.BubbleID == "" {
			p.problem(ProblemMissingBubble)
			continue
		}
		b.bubble(value, h.BubbleID)
	}
	return nil
}

// newSession starts a session of this provider.
func (p *parser) newSession(native, title string) *sessionBuilder {
	return &sessionBuilder{p: p, ps: core.ParsedSession{Session: core.Session{
		Provider: ProviderID, NativeID: native, Title: strings.TrimSpace(title), Workspace: p.opt.workspace}}}
}

// finish finalizes a session with events and adds it to the result. A
// conversation stored twice in one database (a composer both in
// cursorDiskKV and in ItemTable) is kept once, as first read.
func (p *parser) finish(b *sessionBuilder) {
	if len(b.ps.Events) == 0 || p.seen[b.ps.Session.NativeID] {
		return
	}
	p.seen[b.ps.Session.NativeID] = true
	s := &b.ps.Session
	if s.Model == "" {
		s.Model = b.model
	}
	if !s.Started.IsZero() && s.Ended.Before(s.Started) {
		s.Ended = s.Started
	}
	b.ps.Finalize()
	p.res.Sessions = append(p.res.Sessions, b.ps)
}
