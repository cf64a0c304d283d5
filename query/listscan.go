package query

import (
	"context"
	"encoding/json"
	"iter"
	"math"
	"sort"
	"strings"

	"ctx/core"
)

// visitFunc receives each selected event in order with its session's tree
// index; it returns true to stop the walk.
type visitFunc func(ti int, s *core.Session, e *core.Event) (bool, error)

// listWalk visits the events a plan selects, lazily: sessions one at a
// time in tree order, chunks one at a time, starting at a cursor position
// by seeking to the chunk that holds its ordinal.
type listWalk struct {
	r    *Reader
	ctx  context.Context
	p    *listPlan
	tree *core.Tree
}

// run visits from the beginning (start nil) or from just after start.
func (w *listWalk) run(start *cursorPos, visit visitFunc) error {
	from := -1
	if start != nil {
		from = int(start.Session)
	}
	for ti := range w.candidates(from) {
		entry := w.tree.Sessions[ti]
		if !w.p.keepEntry(&entry) {
			continue
		}
		so, err := w.r.loadSession(entry)
		if err != nil {
			return err
		}
		if !w.p.keepSession(&so.Session) {
			continue
		}
		ord := 0
		if w.p.desc {
			ord = math.MaxInt
		}
		if start != nil && ti == int(start.Session) {
			if ord = int(start.Ordinal) + 1; w.p.desc {
				ord = int(start.Ordinal) - 1
			}
		}
		stop, err := w.session(ti, so, ord, visit)
		if stop || err != nil {
			return err
		}
	}
	return nil
}

// candidates yields tree indices in visiting order, from the position
// from (inclusive; -1 for the beginning). A session filter visits only its
// sessions.
func (w *listWalk) candidates(from int) iter.Seq[int] {
	n := len(w.tree.Sessions)
	idx := []int(nil)
	if len(w.p.sessions) > 0 {
		for _, id := range w.p.sessions {
			if i, ok := treeIndex(w.tree, id); ok {
				idx = append(idx, i)
			}
		}
		sort.Ints(idx)
	}
	return func(yield func(int) bool) {
		if idx == nil && len(w.p.sessions) > 0 {
			return
		}
		step, i := 1, max(from, 0)
		if w.p.desc {
			step, i = -1, n-1
			if from >= 0 {
				i = from
			}
		}
		if idx != nil { // position within the session filter's indices
			k := sort.SearchInts(idx, i)
			if w.p.desc && (k == len(idx) || idx[k] != i) {
				k--
			}
			for ; k >= 0 && k < len(idx); k += step {
				if !yield(idx[k]) {
					return
				}
			}
			return
		}
		for ; i >= 0 && i < n; i += step {
			if !yield(i) {
				return
			}
		}
	}
}

func treeIndex(t *core.Tree, id core.SessionID) (int, bool) {
	i := sort.Search(len(t.Sessions), func(i int) bool {
		return string(t.Sessions[i].Session[:]) >= string(id[:])
	})
	return i, i < len(t.Sessions) && t.Sessions[i].Session == id
}

// session visits the selected events of one session from ordinal from on
// (backwards under desc), reading only the chunks it needs.
func (w *listWalk) session(ti int, so *core.SessionObject, from int, visit visitFunc) (bool, error) {
	chunks, step := so.Chunks, 1
	if w.p.desc {
		step = -1
	}
	k := chunkAt(chunks, from)
	if k < 0 {
		if w.p.desc {
			return false, nil
		}
		k = 0
	}
	for ; k >= 0 && k < len(chunks); k += step {
		if err := w.ctx.Err(); err != nil {
			return false, err
		}
		c, err := w.r.loadChunk(chunks[k].ID)
		if err != nil {
			return false, err
		}
		stop, err := w.chunk(ti, &so.Session, c, from, visit)
		if stop || err != nil {
			return stop, err
		}
	}
	return false, nil
}

func (w *listWalk) chunk(ti int, s *core.Session, c *core.Chunk, from int, visit visitFunc) (bool, error) {
	n := len(c.Events)
	for j := range n {
		e := &c.Events[j]
		if w.p.desc {
			e = &c.Events[n-1-j]
		}
		if (!w.p.desc && e.Ordinal < from) || (w.p.desc && e.Ordinal > from) || !w.p.keepEvent(e) {
			continue
		}
		if stop, err := visit(ti, s, e); stop || err != nil {
			return stop, err
		}
	}
	return false, nil
}

// chunkAt returns the index of the chunk holding ordinal ord (the last
// chunk starting at or before it), or -1 when ord precedes every chunk.
func chunkAt(chunks []core.ChunkRef, ord int) int {
	return sort.Search(len(chunks), func(i int) bool { return chunks[i].First > ord }) - 1
}

// keepEntry decides what a tree entry knows of its session, sparing the
// load of its object; keepSession decides the rest (entries of older trees
// know no workspace or span).
func (p *listPlan) keepEntry(e *core.TreeEntry) bool {
	m := p.match
	if !m.Provider(e.Provider) || !m.SessionID(e.Session, e.Root) || !m.Machine(e.Machine) {
		return false
	}
	if e.Workspace != "" && !m.Workspace(e.Workspace) {
		return false
	}
	if started, ended, ok := e.Span(); ok && !m.Span(started, ended) {
		return false
	}
	return true
}

func (p *listPlan) keepSession(s *core.Session) bool {
	m := p.match
	return m.Primary(s.IsSubagent) && m.Source(s.Source.Root, s.Source.Group) && m.Workspace(s.Workspace) &&
		m.Span(s.Started, s.Ended)
}

func (p *listPlan) keepEvent(e *core.Event) bool { return p.match.Event(e) }

// projectRow builds the row of an event under a content projection.
func projectRow(s *core.Session, e *core.Event, content string) EventRow {
	root := s.RootSessionID
	if root.IsZero() {
		root = s.ID
	}
	row := EventRow{CtxEventID: e.ID.String(), CtxSessionID: s.ID.String(), RootSessionID: root.String(),
		IsSubagent: s.IsSubagent, Provider: s.Provider, Workspace: s.Workspace, SourceRoot: s.Source.Root,
		SourceGroup: s.Source.Group, Machine: s.Machine, Ordinal: e.Ordinal, Timestamp: e.Timestamp.UTC(), Role: string(e.Role),
		EventType: string(e.Type), ExitCode: e.ExitCode, IsError: e.IsError, Tool: e.Tool, CallID: e.CallID,
		Model: e.Model, NativeType: e.Native}
	if content != ContentNone {
		text := e.Text
		row.Text, row.Command = &text, e.Command
	}
	if content == ContentFull {
		row.Files, row.Activity = e.Files, e.Activity
		return row
	}
	for _, f := range e.Files {
		row.Files = append(row.Files, core.FileTouch{Path: f.Path, Op: f.Op, MovedTo: f.MovedTo})
	}
	return row
}

// fillPage walks from start and fills page with up to the plan's limit of
// rows within its byte budget, then looks one selected event ahead to set
// Complete and NextCursor.
func (r *Reader) fillPage(ctx context.Context, p *listPlan, tree *core.Tree, start *cursorPos, page *EventRangePage, key keyFunc) error {
	base, err := pageBase(page)
	if err != nil {
		return err
	}
	var last cursorPos
	more, evBytes := false, 0
	fill := newPageFill(base, p.maxBytes, p.sel.Content)
	w := &listWalk{r: r, ctx: ctx, p: p, tree: tree}
	err = w.run(start, func(ti int, s *core.Session, e *core.Event) (bool, error) {
		n := len(page.Events) + len(page.Skipped)
		if n == p.limit {
			more = true
			return true, nil
		}
		row := projectRow(s, e, p.sel.Content)
		b, err := json.Marshal(&row)
		if err != nil {
			return true, err
		}
		v, sk, err := fill.offer(s, e, len(b), n == 0)
		switch {
		case err != nil:
			return true, err
		case v == fillFull:
			more, page.Truncated = true, true
			return true, nil
		case v == fillSkip:
			page.Skipped = append(page.Skipped, *sk)
		default:
			page.Events = append(page.Events, row)
			evBytes += len(b) + 1
		}
		last = cursorPos{Kind: cursorListEvents, Gen: r.id, Binding: p.binding, Session: uint64(ti), Ordinal: uint64(e.Ordinal)}
		return false, nil
	})
	if err != nil {
		return err
	}
	page.Usage = PageUsage{Returned: len(page.Events), Limit: p.limit, Bytes: max(evBytes+1, 2)}
	page.Complete = !more
	if more {
		page.NextCursor = encodeCursor(last, key)
	}
	return nil
}

// pageBase is a conservative size of page's JSON without events: it
// reserves room for a cursor and for the usage figures.
func pageBase(page *EventRangePage) (int, error) {
	probe := *page
	probe.NextCursor = strings.Repeat("x", cursorMaxEncoded)
	b, err := json.Marshal(&probe)
	return len(b) + 64, err
}
