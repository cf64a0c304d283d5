package core

import (
	"maps"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Digest bounds.
const (
	// DigestTitleRunes is the longest title a digest keeps.
	DigestTitleRunes = 160
	// DigestMaxFiles is the most edited paths a digest lists; Edited
	// counts them all.
	DigestMaxFiles = 64
	// DigestMaxModels is the most model names a digest lists.
	DigestMaxModels = 8
)

// Title sources of Digest.TitleSource.
const (
	TitleFromAgent  = "agent"  // the agent's own title of the session
	TitleFromPrompt = "prompt" // the first real user prompt
)

// Digest is what a session browser, a timeline and usage statistics need
// of a session, computed once when the session is written and kept in its
// tree entry, so that listing every session of a large store reads the
// tree alone. Counts are of events; Tokens only where the agent records
// usage.
type Digest struct {
	Title       string    `json:"title,omitempty"`
	TitleSource string    `json:"title_source,omitempty"`
	NativeID    string    `json:"native_id,omitempty"`
	Parent      SessionID `json:"parent,omitempty"`
	Subagent    bool      `json:"subagent,omitempty"`
	SourceRoot  string    `json:"source_root,omitempty"`
	SourceGroup string    `json:"source_group,omitempty"`
	Prompts     int       `json:"prompts,omitempty"`
	Messages    int       `json:"messages,omitempty"`
	ToolCalls   int       `json:"tool_calls,omitempty"`
	Commands    int       `json:"commands,omitempty"`
	Errors      int       `json:"errors,omitempty"`
	Compactions int       `json:"compactions,omitempty"`
	Edited      int       `json:"edited,omitempty"` // distinct files edited
	Files       []string  `json:"files,omitempty"`  // the first DigestMaxFiles of them
	Models      []string  `json:"models,omitempty"`
	Tokens      *Tokens   `json:"tokens,omitempty"`
}

// Tokens is the token usage an agent recorded for a session or an event.
type Tokens struct {
	Input       int64 `json:"input"`
	Output      int64 `json:"output"`
	CacheRead   int64 `json:"cache_read,omitempty"`
	CacheCreate int64 `json:"cache_create,omitempty"`
}

// Add adds o to t.
func (t *Tokens) Add(o *Tokens) {
	t.Input += o.Input
	t.Output += o.Output
	t.CacheRead += o.CacheRead
	t.CacheCreate += o.CacheCreate
}

// Total is input plus output tokens.
func (t *Tokens) Total() int64 { return t.Input + t.Output }

// FilesComplete reports whether Files lists every edited file.
func (d *Digest) FilesComplete() bool { return d.Edited <= len(d.Files) }

// Summarize computes the digest of a session from its events in order.
func Summarize(s *Session, events []Event) *Digest {
	b := NewDigestBuilder(s)
	for i := range events {
		b.Add(&events[i])
	}
	return b.Digest()
}

// DigestBuilder accumulates a digest event by event, for callers that
// stream a session's chunks.
type DigestBuilder struct {
	d      Digest
	seen   map[string]bool
	models map[string]bool
	later  bool // the session comes at the end (DigestFor)
}

// NewDigestBuilder starts the digest of s.
func NewDigestBuilder(s *Session) *DigestBuilder {
	d := Digest{NativeID: s.NativeID, Parent: s.ParentSessionID, Subagent: s.IsSubagent,
		SourceRoot: s.Source.Root, SourceGroup: s.Source.Group}
	if t := clipTitle(s.Title); t != "" {
		d.Title, d.TitleSource = t, TitleFromAgent
	}
	b := &DigestBuilder{d: d, seen: map[string]bool{}, models: map[string]bool{}}
	b.model(s.Model)
	return b
}

// NewLaterDigestBuilder starts a digest whose session is known only once
// its events are counted, for a caller that reads the session as it
// streams: DigestFor then gives what Summarize gives.
func NewLaterDigestBuilder() *DigestBuilder {
	return &DigestBuilder{seen: map[string]bool{}, models: map[string]bool{}, later: true}
}

// DigestFor returns the digest of s, counted by a NewLaterDigestBuilder.
func (b *DigestBuilder) DigestFor(s *Session) *Digest {
	d := b.d
	d.NativeID, d.Parent, d.Subagent = s.NativeID, s.ParentSessionID, s.IsSubagent
	d.SourceRoot, d.SourceGroup = s.Source.Root, s.Source.Group
	if t := clipTitle(s.Title); t != "" {
		d.Title, d.TitleSource = t, TitleFromAgent
	}
	// The session's model comes first, as NewDigestBuilder counts it.
	d.Models = nil
	for _, m := range append([]string{s.Model}, b.d.Models...) {
		if m != "" && !slices.Contains(d.Models, m) && len(d.Models) < DigestMaxModels {
			d.Models = append(d.Models, m)
		}
	}
	return &d
}

// Add counts one event.
func (b *DigestBuilder) Add(e *Event) {
	d := &b.d
	switch e.Type {
	case TypeMessage:
		d.Messages++
		if e.Role == RoleUser && RealPrompt(e.Text) {
			d.Prompts++
			if d.Title == "" {
				d.Title, d.TitleSource = clipTitle(e.Text), TitleFromPrompt
			}
		}
	case TypeToolCall:
		d.ToolCalls++
	case TypeCommandStart:
		d.Commands++
	case TypeCompaction:
		d.Compactions++
	}
	if e.IsError {
		d.Errors++
	}
	b.model(e.Model)
	if e.Tokens != nil {
		if d.Tokens == nil {
			d.Tokens = &Tokens{}
		}
		d.Tokens.Add(e.Tokens)
	}
	for _, f := range e.Files {
		if f.Op == OpRead || f.Path == "" || b.seen[f.Path] {
			continue
		}
		b.seen[f.Path] = true
		d.Edited++
		if len(d.Files) < DigestMaxFiles {
			d.Files = append(d.Files, f.Path)
		}
	}
}

func (b *DigestBuilder) model(m string) {
	limit := DigestMaxModels
	if b.later {
		limit++ // one may be the session's own, which DigestFor puts first
	}
	if m == "" || b.models[m] || len(b.d.Models) >= limit {
		return
	}
	b.models[m] = true
	b.d.Models = append(b.d.Models, m)
}

// Digest returns the digest so far.
func (b *DigestBuilder) Digest() *Digest {
	d := b.d
	return &d
}

// RealPrompt reports whether the text of a user message is something the
// user typed, not what an agent put in the user's turn: command wrappers
// and outputs (<command-name>, <local-command-stdout>), injected context
// (<environment_context>, <user_instructions>, system reminders) and
// caveats.
func RealPrompt(text string) bool {
	t := strings.TrimSpace(text)
	if t == "" || strings.HasPrefix(t, "<") || strings.HasPrefix(t, "Caveat:") {
		return false
	}
	return !strings.HasPrefix(t, "[Request interrupted")
}

// clipTitle makes one line of at most DigestTitleRunes runes of text, with
// control characters (ANSI escapes included) dropped.
func clipTitle(text string) string {
	var sb strings.Builder
	n, space, esc := 0, false, 0
	for _, r := range strings.TrimSpace(text) {
		if esc = ansiState(esc, r); esc != 0 {
			continue
		}
		if n >= DigestTitleRunes {
			return strings.TrimSpace(sb.String()) + "…"
		}
		switch {
		case unicode.IsSpace(r):
			space = sb.Len() > 0
			continue
		case unicode.IsControl(r) || r == utf8.RuneError:
			continue
		}
		if space {
			sb.WriteByte(' ')
			n++
			space = false
		}
		sb.WriteRune(r)
		n++
	}
	return sb.String()
}

// ansiState steps a small machine that skips ANSI escape sequences (ESC,
// then a CSI "[" with parameters up to a final letter, or one character):
// it returns non-zero while r belongs to a sequence.
func ansiState(state int, r rune) int {
	switch {
	case r == 0x1b:
		return 1
	case state == 1 && r == '[':
		return 2
	case state == 1:
		return 3 // a two-character escape: r ends it
	case state == 2 && (r < 0x40 || r > 0x7e):
		return 2
	case state == 2:
		return 3 // the final byte of a CSI sequence
	}
	return 0
}

// Clone returns a builder that goes on from b's count, independent of it.
func (b *DigestBuilder) Clone() *DigestBuilder {
	c := &DigestBuilder{d: b.d, seen: maps.Clone(b.seen), models: maps.Clone(b.models), later: b.later}
	c.d.Files, c.d.Models = slices.Clone(b.d.Files), slices.Clone(b.d.Models)
	if b.d.Tokens != nil {
		t := *b.d.Tokens
		c.d.Tokens = &t
	}
	return c
}
