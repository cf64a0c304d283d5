package index

import (
	"regexp"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/analysis/analyzer/keyword"
	"github.com/blevesearch/bleve/v2/mapping"

	"ctx/core"
	"ctx/objects"
)

// Field names of a shard document.
const (
	fieldSession     = "ctx_session_id"
	fieldRoot        = "root_session_id"
	fieldSubagent    = "is_subagent"
	fieldType        = "event_type"
	fieldRole        = "role"
	fieldProvider    = "provider"
	fieldWorkspace   = "workspace"
	fieldSourceRoot  = "source_root"
	fieldSourceGroup = "source_group"
	fieldFiles       = "files"
	fieldTool        = "tool"
	fieldDay         = "day"
	fieldTS          = "ts"
	fieldEvents      = "ev"
	fieldHit         = "hit"
	fieldText        = "text"
)

// shardDoc is the document indexed for one group: consecutive events of one
// chunk of one session, up to a whole chunk (core.ChunkSize events). A
// document per group instead of per event holds each distinct term of the
// group once, measured at 2.4× fewer postings than per event for 64-event
// chunks, and pays the fixed per-field costs once per group. Searches match
// groups and then score the group's events from their text (see eval.go).
// Session-level fields are exact; the per-event fields (type, role, files,
// tool, day) hold the union of the group's values, which Search checks again
// on each event. Hit is the only stored field (see encodeHit).
type shardDoc struct {
	Session     string   `json:"ctx_session_id"`
	Root        string   `json:"root_session_id"`
	Subagent    bool     `json:"is_subagent"`
	Type        []string `json:"event_type"`
	Role        []string `json:"role,omitempty"`
	Provider    string   `json:"provider"`
	Workspace   string   `json:"workspace"`
	SourceRoot  string   `json:"source_root,omitempty"`
	SourceGroup string   `json:"source_group,omitempty"`
	Files       []string `json:"files,omitempty"`
	Tool        []string `json:"tool,omitempty"`
	Day         []string `json:"day,omitempty"`
	TS          string   `json:"ts,omitempty"`
	Events      []string `json:"ev"`
	Hit         string   `json:"hit"`
	Text        string   `json:"text"`
}

// newMapping returns the lean static mapping of a shard: no dynamic fields,
// no _all, keyword fields for filters and exact matches, the text field
// analyzed with CodeAnalyzer and neither stored nor with term vectors, and
// one stored field holding what a Hit needs.
func newMapping() *mapping.IndexMappingImpl {
	dm := bleve.NewDocumentStaticMapping()
	// Fields that exact-token clauses score keep frequencies and norms;
	// without them bleve's tf-idf score is NaN. Filter-only fields skip them.
	for _, f := range []string{fieldSession, fieldRoot, fieldFiles} {
		dm.AddFieldMappingsAt(f, keywordField(true))
	}
	for _, f := range []string{fieldType, fieldRole, fieldProvider, fieldWorkspace, fieldSourceRoot,
		fieldSourceGroup, fieldTool, fieldEvents} {
		dm.AddFieldMappingsAt(f, keywordField(false))
	}
	dm.AddFieldMappingsAt(fieldSubagent, &mapping.FieldMapping{Type: "boolean", Index: true})
	// Time is two keywords of one term each, not a datetime field: bleve
	// indexes about 16 prefix-coded terms per numeric value, which cost a
	// third of the indexing CPU and over a quarter of the shard bytes. day
	// serves range filters (a term range over the group's days; Search
	// checks the exact bound on each event), ts the newest-first order (the
	// group's newest time, in doc values; bleve keeps doc values only for
	// indexed fields).
	dm.AddFieldMappingsAt(fieldDay, keywordField(false))
	tsField := keywordField(false)
	tsField.DocValues = true
	dm.AddFieldMappingsAt(fieldTS, tsField)
	dm.AddFieldMappingsAt(fieldHit, &mapping.FieldMapping{Type: "text", Analyzer: keyword.Name, Store: true})
	dm.AddFieldMappingsAt(fieldText, &mapping.FieldMapping{Type: "text", Analyzer: TermsAnalyzer, Index: true})
	dm.AddSubDocumentMapping("_all", bleve.NewDocumentDisabledMapping())

	im := bleve.NewIndexMapping()
	im.DefaultMapping = dm
	im.DefaultAnalyzer = QueryAnalyzer
	im.StoreDynamic, im.IndexDynamic, im.DocValuesDynamic = false, false, false
	return im
}

func keywordField(scored bool) *mapping.FieldMapping {
	return &mapping.FieldMapping{Type: "text", Analyzer: keyword.Name, Index: true, SkipFreqNorm: !scored}
}

// chunkGroup is the events of one chunk indexed as one document: pos[i] is the
// index of events[i] in its chunk.
type chunkGroup struct {
	session *core.Session
	chunk   objects.ID
	events  []*core.Event
	pos     []int
}

// maxIndexPiece bounds the text of one event analyzed at once. Bleve holds
// 25 to 80 times a document's text while it indexes it, so a 30 MB message
// indexed whole took about 800 MiB; a longer text is indexed in pieces
// (see newShardDocs), which bounds the index's memory by the pieces in
// flight. The offline builder's batches count documents (39 of them), so
// the piece size bounds a batch's text: 32 KiB pieces import a 30 MB
// message at a 247 MiB peak, where 256 KiB pieces took 896 MiB.
const maxIndexPiece = 32 << 10

// newShardDocs converts a group to its documents, handing each to add as
// it is built: one for the group (see newShardDoc) and, for each event
// whose text is longer than maxIndexPiece, one piece document per further
// piece of its text (the group's document holds the terms of the first).
// A piece document names only its event and holds its piece's terms
// without eventTerm, so a word of any piece finds the event and the pieces
// add no event to the counts BM25 uses; a search scores the event from its
// bytes in the store. Each piece is analyzed on its own, twice (once to
// count the event's tokens, which every document of the event records,
// once to build its document), so what is held at once is bounded by the
// group's short texts and one piece, not by the event. sc is the calling
// writer's scratch space.
func newShardDocs(g *chunkGroup, sc *termScratch, add func(piece int, d *shardDoc) error) error {
	texts := make([]string, len(g.events))
	extra := make([]int, len(g.events)) // tokens of the pieces after the first
	var long []int
	for i, e := range g.events {
		t := eventText(e)
		if len(t) <= maxIndexPiece {
			texts[i] = t
			continue
		}
		texts[i] = t[:pieceEnd(t, maxIndexPiece)]
		long = append(long, i)
		for rest := t[len(texts[i]):]; rest != ""; {
			cut := pieceEnd(rest, maxIndexPiece)
			b, n := groupTerms(sc.group[:0], rest[:cut], sc)
			sc.group = b
			extra[i] += n
			rest = rest[cut:]
		}
	}
	d, lens := buildShardDoc(g, texts, extra, sc)
	if err := add(0, d); err != nil {
		return err
	}
	n := 0
	for _, i := range long {
		one := &chunkGroup{session: g.session, chunk: g.chunk, events: g.events[i : i+1], pos: g.pos[i : i+1]}
		t := eventText(g.events[i])
		for rest := t[len(texts[i]):]; rest != ""; {
			cut := pieceEnd(rest, maxIndexPiece)
			terms, _ := groupTerms(sc.group[:0], rest[:cut], sc)
			sc.group = terms
			p := newDocFields(one)
			p.Text = string(terms[len(eventTerm):]) // the piece's terms, no event marker
			p.Hit = encodeHit(p, one, lens[i:i+1])
			n++
			if err := add(n, p); err != nil {
				return err
			}
			rest = rest[cut:]
		}
	}
	return nil
}

// pieceEnd is where the first piece of s at most n bytes long ends: at a
// white space when the last 4 KiB before the bound hold one (so that no
// word is cut), else at a rune boundary.
func pieceEnd(s string, n int) int {
	if len(s) <= n {
		return len(s)
	}
	cut := n
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	from := max(0, cut-4096)
	if i := strings.LastIndexAny(s[from:cut], " \t\n\r"); i >= 0 {
		cut = from + i + 1
	}
	if cut == 0 {
		cut = n
	}
	return cut
}

// newShardDoc converts a group to the indexed document, each event's text
// whole. Its text field is the group's events analyzed here (groupTerms),
// which also gives each event's length for the stored hit.
func newShardDoc(g *chunkGroup) *shardDoc {
	texts := make([]string, len(g.events))
	for i, e := range g.events {
		texts[i] = eventText(e)
	}
	d, _ := buildShardDoc(g, texts, make([]int, len(g.events)), nil)
	return d
}

// newDocFields fills a group's document fields but its text and hit.
func newDocFields(g *chunkGroup) *shardDoc {
	s := g.session
	root := s.RootSessionID
	if root.IsZero() {
		root = s.ID
	}
	d := &shardDoc{
		Session:     s.ID.String(),
		Root:        root.String(),
		Subagent:    s.IsSubagent,
		Provider:    s.Provider,
		Workspace:   s.Workspace,
		SourceRoot:  s.Source.Root,
		SourceGroup: s.Source.Group,
	}
	var newest time.Time
	for _, e := range g.events {
		d.Type = addOnce(d.Type, string(e.Type))
		if e.Role != "" {
			d.Role = addOnce(d.Role, string(e.Role))
		}
		for _, f := range core.FileTerms(e.Files) {
			d.Files = addOnce(d.Files, f)
		}
		for _, t := range toolTerms(e) {
			d.Tool = addOnce(d.Tool, t)
		}
		if indexedTime(e.Timestamp) {
			d.Day = addOnce(d.Day, dayTerm(e.Timestamp))
			if e.Timestamp.After(newest) {
				newest = e.Timestamp
			}
		}
		d.Events = append(d.Events, eventKey(e.ID))
	}
	if !newest.IsZero() {
		d.TS = tsTerm(newest)
	}
	return d
}

// buildShardDoc converts a group to the indexed document holding the terms
// of texts[i] for g.events[i], whose length is its tokens there plus
// extra[i] (the pieces indexed apart); it returns the document and the
// events' lengths. The text is built in sc's buffer, then copied once.
func buildShardDoc(g *chunkGroup, texts []string, extra []int, sc *termScratch) (*shardDoc, []int) {
	d := newDocFields(g)
	lens := make([]int, 0, len(g.events))
	if sc == nil {
		sc = &termScratch{}
	}
	text := sc.group[:0]
	for i := range g.events {
		var n int
		text, n = groupTerms(text, texts[i], sc)
		lens = append(lens, n+extra[i])
	}
	sc.group = text
	d.Text = string(text)
	d.Hit = encodeHit(d, g, lens)
	return d, lens
}

// eventKey is the term of an event id in the ev field: its first 64 bits
// in hex, half the dictionary of the whole id; a lookup checks the whole id
// on the event it loads.
func eventKey(id core.EventID) string {
	s := id.String()
	return s[:min(len(s), len("evt_")+16)]
}

func addOnce(list []string, s string) []string {
	if contains(list, s) {
		return list
	}
	return append(list, s)
}

// indexedTime reports whether t is indexed for time filters and order:
// known and within the int64 nanosecond range.
func indexedTime(t time.Time) bool {
	y := t.UTC().Year()
	return !t.IsZero() && y > 1677 && y < 2262
}

// dayTerm is the UTC day of t as YYYYMMDD, which sorts as the days do.
func dayTerm(t time.Time) string { return t.UTC().Format("20060102") }

// tsTerm is t as 16 hex digits that sort as the times do (nanoseconds since
// the epoch, offset to be unsigned).
func tsTerm(t time.Time) string {
	const hexDigits = "0123456789abcdef"
	u := uint64(t.UnixNano()) ^ 1<<63
	var b [16]byte
	for i := 15; i >= 0; i-- {
		b[i] = hexDigits[u&0xf]
		u >>= 4
	}
	return string(b[:])
}

// eventText is what the text field indexes: the event text, then its
// command, tool name, file paths and MCP server/tool names; nothing for a
// noise event (see isNoise), which stays in the store, in show and in
// exact id lookups but is never a text match.
func eventText(e *core.Event) string {
	if isNoise(e) {
		return ""
	}
	parts := []string{e.Text}
	if e.Command != "" && !strings.Contains(e.Text, e.Command) {
		parts = append(parts, e.Command)
	}
	if e.Tool != "" {
		parts = append(parts, e.Tool)
	}
	for _, f := range e.Files {
		parts = append(parts, f.Path)
		if f.MovedTo != "" {
			parts = append(parts, f.MovedTo)
		}
	}
	if a := e.Activity; a != nil {
		parts = append(parts, a.Invocation.Server, a.Invocation.Tool)
	}
	if len(parts) == 1 {
		return e.Text
	}
	return strings.Join(parts, "\n")
}

func toolTerms(e *core.Event) []string {
	var out []string
	if e.Tool != "" {
		out = append(out, e.Tool)
	}
	if a := e.Activity; a != nil && a.Invocation.Tool != "" && !contains(out, a.Invocation.Tool) {
		out = append(out, a.Invocation.Tool)
	}
	return out
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// statusRE matches the text of a command finish that says only how it
// ended.
var statusRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^(?:exit code -?[0-9]+|failed \(exit code unknown\)|exit code unknown|failed|ok)?$`)
})

// bookkeeping are the words of bookkeeping records' rendered text that say
// nothing of their own (token counts, turn markers, snapshots).
var bookkeeping = map[string]bool{
	"token": true, "tokens": true, "count": true, "total": true, "last": true, "window": true,
	"turn": true, "start": true, "end": true, "started": true, "complete": true, "snapshot": true,
	"update": true, "file": true, "history": true, "prompt": true, "progress": true, "idle": true,
	"usage": true, "assistant": true,
}

// isNoise reports whether an event has no searchable words of its own: a
// command finish whose text is only its exit status (its command is found
// through the command's start), or a bookkeeping record whose text is only
// its record type, bookkeeping words and numbers (Codex token counts,
// Copilot turn markers, Claude Code file history snapshots).
func isNoise(e *core.Event) bool {
	switch e.Type {
	case core.TypeCommandFinish:
		return statusRE().MatchString(strings.TrimSpace(e.Text)) && len(e.Files) == 0
	case core.TypeOther:
		if e.Command != "" || len(e.Files) > 0 || e.Activity != nil {
			return false
		}
		own := map[string]bool{}
		for _, w := range words(e.Native) {
			own[w] = true
		}
		for _, w := range words(e.Text) {
			if !own[w] && !bookkeeping[w] && strings.Trim(w, "0123456789") != "" {
				return false
			}
		}
		return true
	}
	return false
}
