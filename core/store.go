package core

import (
	"encoding/json"
	"fmt"
	"sort"
	"time"

	"ctx/objects"
)

// ChunkSize is the number of events per chunk. Chunks cover fixed ordinal
// ranges [k*ChunkSize, (k+1)*ChunkSize), so appending to a session rewrites
// only its last, partial chunk.
const ChunkSize = 64

// Object kinds.
const (
	KindChunk      = "chunk"
	KindSession    = "session"
	KindTree       = "tree"
	KindCursors    = "cursors"
	KindTombstones = "tombstones"
)

// Chunk is a run of one session's events stored as one object.
type Chunk struct {
	Kind    string    `json:"kind"`
	Session SessionID `json:"ctx_session_id"`
	First   int       `json:"first"`
	Events  []Event   `json:"events"`
}

// ChunkRef names a chunk from its session object.
type ChunkRef struct {
	ID    objects.ID `json:"id"`
	First int        `json:"first"`
	Count int        `json:"count"`
}

// SessionObject is the stored form of a session: metadata plus chunk list.
type SessionObject struct {
	Kind    string     `json:"kind"`
	Session Session    `json:"session"`
	Chunks  []ChunkRef `json:"chunks"`
}

// TreeEntry is one session of a tree.
type TreeEntry struct {
	Session   SessionID  `json:"ctx_session_id"`
	Object    objects.ID `json:"object"`
	Root      SessionID  `json:"root_session_id"`
	Provider  string     `json:"provider"`
	SourceKey string     `json:"source"` // the source file the session came from
	Events    int        `json:"events"`
	// Started, Ended and Workspace copy the session's, so that a reader
	// can pass over sessions outside a time window or a workspace without
	// loading their objects. Trees written before these fields existed
	// lack them: a zero Started (or an empty Workspace) means unknown, and
	// the reader loads the session object as before.
	Started   time.Time `json:"started,omitzero"`
	Ended     time.Time `json:"ended,omitzero"`
	Workspace string    `json:"workspace,omitempty"`
	// Digest summarizes the session for listings, timelines and stats
	// (nil in trees written before it existed: readers then compute it
	// from the session's events, and the next publish fills it in).
	Digest *Digest `json:"digest,omitempty"`
	// Machine is the machine a session pulled from a remote came from
	// (gitstore); empty for the sessions imported here.
	Machine string `json:"machine,omitempty"`
}

// Fill copies the session's time range and workspace into the entry.
func (e *TreeEntry) Fill(s *Session) {
	e.Started, e.Ended, e.Workspace = s.Started.UTC(), s.Ended.UTC(), s.Workspace
}

// Span reports the session's time range when the entry knows it.
func (e *TreeEntry) Span() (started, ended time.Time, ok bool) {
	return e.Started, e.Ended, !e.Started.IsZero()
}

// Tree is the list of every session of a generation, sorted by session id.
type Tree struct {
	Kind     string      `json:"kind"`
	Sessions []TreeEntry `json:"sessions"`
}

// put stores v, an object of the kind named, as JSON.
func put(p objects.Putter, kind string, v any) (objects.ID, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return objects.ID{}, fmt.Errorf("core: encode %s: %w", kind, err)
	}
	return p.Put(b)
}

// WrittenSession is the result of writing one session.
type WrittenSession struct {
	Entry     TreeEntry
	Object    SessionObject
	NewChunks []NewChunk // chunks whose objects were not in the previous version (WriteSession only)
	Replaced  []ChunkRef // chunks of the previous version that are gone
	// Fresh is parallel to Object.Chunks: whether the previous version
	// lacked the chunk. With Object.Chunks it is the one list of a
	// session's chunks a caller keeps, however long the session.
	Fresh []bool
}

// NewChunk is a chunk written for the first time, with its reference.
type NewChunk struct {
	Ref   ChunkRef
	Chunk Chunk
}

// WriteSession stores a finalized session as chunk objects and a session
// object. prev is the previous version's chunk list (nil for a new session);
// chunks whose id is unchanged are reported as not new.
func WriteSession(p objects.Putter, ps *ParsedSession, prev []ChunkRef) (WrittenSession, error) {
	w := NewChunkWriter(p, ps.Session.ID, prev)
	var fresh []NewChunk
	for first := 0; first < len(ps.Events); first += ChunkSize {
		end := min(first+ChunkSize, len(ps.Events))
		ref, isNew, err := w.Write(ps.Events[first:end])
		if err != nil {
			return WrittenSession{}, err
		}
		if isNew {
			fresh = append(fresh, NewChunk{Ref: ref, Chunk: Chunk{Kind: KindChunk, Session: ps.Session.ID, First: first, Events: ps.Events[first:end]}})
		}
	}
	written, err := w.Finish(&ps.Session, Summarize(&ps.Session, ps.Events))
	written.NewChunks = fresh
	return written, err
}

// ChunkWriter stores a session's chunks as they come, for a caller that
// streams the session's events: Write each run of ChunkSize events (the
// last may be shorter), then Finish. WriteSession is the same over events
// held whole.
type ChunkWriter struct {
	p      objects.Putter
	id     SessionID
	prev   []ChunkRef
	old    map[objects.ID]bool
	chunks []ChunkRef
	fresh  []bool // parallel to chunks
	next   int
}

// NewChunkWriter starts writing the chunks of session id, whose previous
// version's chunk list is prev (nil for a new session).
func NewChunkWriter(p objects.Putter, id SessionID, prev []ChunkRef) *ChunkWriter {
	old := make(map[objects.ID]bool, len(prev))
	for _, c := range prev {
		old[c.ID] = true
	}
	return &ChunkWriter{p: p, id: id, prev: prev, old: old}
}

// Write stores the next chunk and reports whether the previous version
// lacked it.
func (w *ChunkWriter) Write(events []Event) (ChunkRef, bool, error) {
	ch := Chunk{Kind: KindChunk, Session: w.id, First: w.next, Events: events}
	b, err := encodeChunk(&ch)
	if err != nil {
		return ChunkRef{}, false, fmt.Errorf("core: encode %s: %w", KindChunk, err)
	}
	id, err := w.p.Put(b)
	if err != nil {
		return ChunkRef{}, false, err
	}
	ref := ChunkRef{ID: id, First: w.next, Count: len(events)}
	w.chunks = append(w.chunks, ref)
	w.next += len(events)
	isNew := !w.old[id]
	delete(w.old, id)
	w.fresh = append(w.fresh, isNew)
	return ref, isNew, nil
}

// Finish stores the session object of s (finalized, the events written
// its EventCount) with digest d, and returns what was written; NewChunks
// is left to the caller, who saw the chunks.
func (w *ChunkWriter) Finish(s *Session, d *Digest) (WrittenSession, error) {
	so := SessionObject{Kind: KindSession, Session: *s, Chunks: w.chunks}
	var replaced []ChunkRef
	for _, c := range w.prev {
		if w.old[c.ID] {
			replaced = append(replaced, c)
		}
	}
	b, err := encodeSessionObject(&so)
	if err != nil {
		return WrittenSession{}, fmt.Errorf("core: encode %s: %w", KindSession, err)
	}
	id, err := w.p.Put(b)
	if err != nil {
		return WrittenSession{}, err
	}
	entry := TreeEntry{Session: s.ID, Object: id, Root: s.RootSessionID, Provider: s.Provider,
		SourceKey: s.Source.Path, Events: s.EventCount, Machine: s.Machine}
	entry.Fill(s)
	entry.Digest = d
	return WrittenSession{Entry: entry, Object: so, Replaced: replaced, Fresh: w.fresh}, nil
}

// NewTree returns a tree of the entries sorted by session id.
func NewTree(entries []TreeEntry) *Tree {
	sort.Slice(entries, func(i, j int) bool {
		return string(entries[i].Session[:]) < string(entries[j].Session[:])
	})
	return &Tree{Kind: KindTree, Sessions: entries}
}

// Find returns the entry of a session.
func (t *Tree) Find(id SessionID) (TreeEntry, bool) {
	i := sort.Search(len(t.Sessions), func(i int) bool {
		return string(t.Sessions[i].Session[:]) >= string(id[:])
	})
	if i < len(t.Sessions) && t.Sessions[i].Session == id {
		return t.Sessions[i], true
	}
	return TreeEntry{}, false
}

func load[T any](g objects.Getter, id objects.ID, kind string, kindOf func(*T) string) (*T, error) {
	data, err := g.Get(id)
	if err != nil {
		return nil, err
	}
	return decode(id, data, kind, kindOf)
}

// decode decodes the object id (data) as an object of kind.
func decode[T any](id objects.ID, data []byte, kind string, kindOf func(*T) string) (*T, error) {
	v := new(T)
	if err := json.Unmarshal(data, v); err != nil || kindOf(v) != kind {
		return nil, fmt.Errorf("core: object %s is not a %s", id, kind)
	}
	return v, nil
}

// LoadTree reads a tree, stored whole or in pieces (see Tree.Put).
func LoadTree(g objects.Getter, id objects.ID) (*Tree, error) {
	data, err := g.Get(id)
	if err != nil {
		return nil, err
	}
	if root, ok, err := decodeRoot(id, data, KindTreePieces, KindTree); err != nil || ok {
		if err != nil {
			return nil, err
		}
		return loadTreePieces(g, id, root, true)
	}
	return decodeWholeTree(id, data)
}

// decodeWholeTree decodes the bytes of a tree stored whole.
func decodeWholeTree(id objects.ID, data []byte) (*Tree, error) {
	t, err := decodeTree(data)
	if err != nil || t.Kind != KindTree {
		return nil, fmt.Errorf("core: object %s is not a %s", id, KindTree)
	}
	return t, nil
}

// LoadSession reads a session object.
func LoadSession(g objects.Getter, id objects.ID) (*SessionObject, error) {
	return load(g, id, KindSession, func(s *SessionObject) string { return s.Kind })
}

// LoadChunk reads a chunk object.
func LoadChunk(g objects.Getter, id objects.ID) (*Chunk, error) {
	return load(g, id, KindChunk, func(c *Chunk) string { return c.Kind })
}

// LoadEvents reads every event of a session object, in order.
func LoadEvents(g objects.Getter, so *SessionObject) ([]Event, error) {
	out := make([]Event, 0, so.Session.EventCount)
	for _, ref := range so.Chunks {
		c, err := LoadChunk(g, ref.ID)
		if err != nil {
			return nil, err
		}
		out = append(out, c.Events...)
	}
	return out, nil
}

// Written returns the chunks written (or kept) so far.
func (w *ChunkWriter) Written() []ChunkRef { return w.chunks }

// Keep takes refs, the first chunks of the session as a parse held open
// wrote them earlier, as written now and not new: a caller that goes on
// from them writes only the chunks after. It must come before any Write.
func (w *ChunkWriter) Keep(refs []ChunkRef) {
	for _, ref := range refs {
		w.chunks = append(w.chunks, ref)
		w.fresh = append(w.fresh, false)
		w.next += ref.Count
		delete(w.old, ref.ID)
	}
}
