package query

import (
	"bytes"
	"encoding/json"
	"errors"
	"maps"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"ctx/core"
	"ctx/index"
	"ctx/objects"
	"ctx/refs"
	"ctx/store"
)

// Reader reads one pinned generation of a store.
type Reader struct {
	home  string
	store *objects.Store
	id    objects.ID
	gen   *refs.Generation

	once sync.Once
	tree *core.Tree
	err  error

	tombsOnce sync.Once
	tombs     *core.Tombstones
	tombsErr  error

	machinesOnce sync.Once
	anyMachine   bool        // the tree may name a machine (see machineOf)
	noMachine    atomic.Bool // machineOf found (or inherit knew) that the tree names none

	idxMu     sync.Mutex
	idx       *index.Reader
	shardGens map[string]uint64
	shards    *index.Cache // when set, shards come from (and go back to) it

	chunkMu   sync.Mutex
	chunks    map[objects.ID]*core.Chunk
	views     map[objects.ID]*index.Chunk // chunks as the index reads them (see chunkView)
	viewBytes map[objects.ID]int          // what each view may hold (viewCost)
	viewTotal int

	factsOnce sync.Once
	factList  []fact
	factsErr  error

	configured atomic.Pointer[configuredSelectors] // the configuration's roots and groups, once a front end set them

	forgotOnce sync.Once
	forgot     core.ForgottenSet
	forgotErr  error
}

// maxCachedChunks bounds the decoded chunks a Reader keeps (64 events
// each); past it the cache starts over. A Reader of one command reads far
// fewer; a pooled Reader (Pool) lives across many calls.
const maxCachedChunks = 256

// maxViewBytes bounds what the chunk views of a Reader hold: a view keeps
// its chunk's bytes and, once probed, a lowercased and a folded copy, so a
// pooled Reader (the viewer, the MCP server, the daemon) would otherwise
// grow by up to three times 256 chunks.
const maxViewBytes = 16 << 20

// viewCost is what a view of a chunk of n bytes may come to hold.
func viewCost(n int) int { return 3 * n }

// GenerationRef identifies the pinned generation in every read model.
type GenerationRef struct {
	ID      string    `json:"id"`
	Number  uint64    `json:"number"`
	Created time.Time `json:"created"`
}

// Open pins the active generation of the store in home. It creates and
// writes nothing: a store with no published generation is CodeNoHistory.
func Open(home string) (*Reader, error) {
	if _, err := os.Stat(store.At(home).ActiveRef()); err != nil {
		return nil, Errorf(CodeNoHistory, "nothing has been imported yet: run ctx import")
	}
	ro, err := store.OpenReadOnly(home)
	if err != nil {
		return nil, &Error{Code: CodeCorrupt, Message: "the store has an active generation but no objects directory (ctx verify)", Err: err}
	}
	objs := ro.Objects
	id, err := ro.Refs.Get(refs.Active)
	if errors.Is(err, refs.ErrNoRef) {
		return nil, Errorf(CodeNoHistory, "nothing has been imported yet: run ctx import")
	}
	if err != nil {
		return nil, err
	}
	g, err := refs.Load(objs, id)
	if err != nil {
		return nil, wrapObjErr(err)
	}
	return &Reader{home: home, store: objs, id: id, gen: g, chunks: map[objects.ID]*core.Chunk{},
		views: map[objects.ID]*index.Chunk{}, viewBytes: map[objects.ID]int{}}, nil
}

// Close releases the index shards.
func (r *Reader) Close() error {
	r.idxMu.Lock()
	defer r.idxMu.Unlock()
	if r.idx != nil {
		err := r.idx.Close()
		r.idx = nil
		return err
	}
	return nil
}

// Generation returns the pinned generation.
func (r *Reader) Generation() (*refs.Generation, objects.ID) { return r.gen, r.id }

// Ref returns the read-model reference of the pinned generation.
func (r *Reader) Ref() GenerationRef {
	return GenerationRef{ID: r.id.String(), Number: r.gen.Number, Created: r.gen.Created.UTC()}
}

// Objects returns the object store.
func (r *Reader) Objects() *objects.Store { return r.store }

// load reads the session tree and the tombstones.
func (r *Reader) load() error {
	r.once.Do(func() {
		r.tree, r.err = core.LoadSharedTree(r.store, r.gen.Tree)
		r.err = wrapObjErr(r.err)
	})
	if r.err != nil {
		return r.err
	}
	return r.loadTombs()
}

// loadTombs reads the tombstones, all the index needs of the generation
// besides its shards: a search decodes the tree (the largest object of a
// store) beside its index work instead of before it.
func (r *Reader) loadTombs() error {
	r.tombsOnce.Do(func() {
		if r.gen.Tombstones != nil {
			r.tombs, r.tombsErr = core.LoadLayeredTombstones(r.store, r.gen.TombstonesBase, r.gen.Tombstones)
			r.tombsErr = wrapObjErr(r.tombsErr)
		}
	})
	return r.tombsErr
}

// Tree returns the session tree of the pinned generation. It is shared
// with every reader of that generation in the process: never modify it.
func (r *Reader) Tree() (*core.Tree, error) {
	if err := r.load(); err != nil {
		return nil, err
	}
	return r.tree, nil
}

func (r *Reader) index() (*index.Reader, error) {
	r.idxMu.Lock()
	defer r.idxMu.Unlock()
	if r.idx != nil {
		return r.idx, nil
	}
	if err := r.loadTombs(); err != nil {
		return nil, err
	}
	names := make([]string, len(r.gen.Shards))
	gens := map[string]uint64{}
	for i, s := range r.gen.Shards {
		names[i] = s.Name
		gens[s.Name] = s.Generation
	}
	r.shardGens = gens
	var idx *index.Reader
	var err error
	if r.shards != nil {
		idx, err = r.shards.Open(names, index.WithChunks(r.chunkView), index.SkipDamaged())
	} else {
		idx, err = index.Open(store.At(r.home).Index(), names, index.WithChunks(r.chunkView), index.SkipDamaged())
	}
	if err != nil {
		return nil, indexError("the search index cannot be opened (ctx verify names the damaged shard)", err)
	}
	r.idx = idx
	return idx, nil
}

// machineOf returns the machine a session was pulled from, "" for this
// store's own. Only pulled sessions' tree entries carry the key, so a
// tree whose bytes never hold it is not decoded for it: a search needs
// nothing else from the tree, the largest object of a store (its scan was
// a fifth of a search process at 1,000,000 events). The key cannot occur
// inside a string, where JSON escapes its quotes.
func (r *Reader) machineOf(id core.SessionID) string {
	r.machinesOnce.Do(func() {
		data, err := r.store.Get(r.gen.Tree)
		r.anyMachine = err != nil || bytes.Contains(data, []byte(`"machine":`))
		r.noMachine.Store(!r.anyMachine)
	})
	if !r.anyMachine {
		return ""
	}
	if t, err := r.Tree(); err == nil {
		if e, ok := t.Find(id); ok {
			return e.Machine
		}
	}
	return ""
}

// inherit takes from prev, the Reader of an earlier generation, what holds
// for r's generation too, so that the first searches after the daemon
// publishes (which it does on every change it sees) start warm: the
// chunks and chunk views prev decoded (objects never change), and, when
// r's generation is prev's child without other machines' sessions taken
// in (a local import, a shard merge, a forget), that its tree names no
// machine, which spares reading the tree (about a megabyte compressed at
// 1,000,000 events). Only a sync merge puts a machine in the tree.
func (r *Reader) inherit(prev *Reader) {
	prev.chunkMu.Lock()
	chunks, views, viewBytes, viewTotal := maps.Clone(prev.chunks), maps.Clone(prev.views), maps.Clone(prev.viewBytes), prev.viewTotal
	prev.chunkMu.Unlock()
	r.chunkMu.Lock()
	r.chunks, r.views, r.viewBytes, r.viewTotal = chunks, views, viewBytes, viewTotal
	r.chunkMu.Unlock()
	if prev.noMachine.Load() && r.gen.Parent != nil && *r.gen.Parent == prev.id && len(r.gen.Merged) == 0 {
		r.machinesOnce.Do(func() { r.noMachine.Store(true) })
	}
}

func (r *Reader) superseded(shard string, id core.EventID) bool {
	return r.tombs.Superseded(r.shardGens[shard], id)
}

// Session returns a session object by id.
func (r *Reader) Session(id core.SessionID) (*core.SessionObject, error) {
	tree, err := r.Tree()
	if err != nil {
		return nil, err
	}
	e, ok := tree.Find(id)
	if !ok {
		if r.IsForgotten(id) {
			return nil, Errorf(CodeNotFound, "that session was forgotten (ctx forget --undo %s restores it)", id)
		}
		return nil, Errorf(CodeNotFound, "no session with that id in generation %d", r.gen.Number)
	}
	so, err := core.LoadSession(r.store, e.Object)
	return so, wrapObjErr(err)
}

func (r *Reader) chunk(id objects.ID) (*core.Chunk, error) {
	if c, ok := cached(&r.chunkMu, r.chunks, id); ok {
		return c, nil
	}
	c, err := core.LoadChunk(r.store, id)
	if err != nil {
		return nil, wrapObjErr(err)
	}
	r.chunkMu.Lock()
	if len(r.chunks) >= maxCachedChunks {
		clear(r.chunks)
	}
	r.chunks[id] = c
	r.chunkMu.Unlock()
	return c, nil
}

// chunkView returns a chunk as the index reads it to score the events of
// the groups it matches (kept as index.NewChunk's split bytes, each event
// decoded once on first need; cached as chunk is).
func (r *Reader) chunkView(id objects.ID) (*index.Chunk, error) {
	if c, ok := cached(&r.chunkMu, r.views, id); ok {
		return c, nil
	}
	data, err := r.store.Get(id)
	if err != nil {
		return nil, wrapObjErr(err)
	}
	c, err := index.NewChunk(data)
	if err != nil {
		return nil, &Error{Code: CodeCorrupt, Message: "the store is damaged (run ctx verify)", Err: err}
	}
	cost := viewCost(len(data))
	r.chunkMu.Lock()
	for k := range r.views { // full: views leave at random (map order)
		if len(r.views) < maxCachedChunks && r.viewTotal+cost <= maxViewBytes {
			break
		}
		r.viewTotal -= r.viewBytes[k]
		delete(r.views, k)
		delete(r.viewBytes, k)
	}
	if _, dup := r.views[id]; !dup {
		r.views[id], r.viewBytes[id] = c, cost
		r.viewTotal += cost
	}
	r.chunkMu.Unlock()
	return c, nil
}

// cached returns what the cache m holds for id, read under mu.
func cached[T any](mu *sync.Mutex, m map[objects.ID]T, id objects.ID) (T, bool) {
	mu.Lock()
	defer mu.Unlock()
	v, ok := m[id]
	return v, ok
}

// event hydrates an event from the chunk that holds it: from the chunk the
// search read when the Reader holds it, or the decoded chunk, else by
// decoding that event alone out of the chunk's bytes. A chunk holds up to
// core.ChunkSize events, and decoding all of them to read one was most of a
// search's time.
func (r *Reader) event(chunk objects.ID, id core.EventID) (*core.Event, error) {
	r.chunkMu.Lock()
	v, viewed := r.views[chunk]
	c, ok := r.chunks[chunk]
	r.chunkMu.Unlock()
	if viewed {
		if e, err := v.Find(id); err != nil || e != nil {
			return e, err
		}
	}
	if !ok {
		data, err := r.store.Get(chunk)
		if err != nil {
			return nil, wrapObjErr(err)
		}
		if ev := pickEvent(data, id); ev != nil {
			return ev, nil
		}
		if c, err = r.chunk(chunk); err != nil {
			return nil, err
		}
	}
	for i := range c.Events {
		if c.Events[i].ID == id {
			return &c.Events[i], nil
		}
	}
	return nil, Errorf(CodeNotFound, "event not in its chunk %s", chunk.Short())
}

// pickEvent decodes the event with id out of a chunk's canonical bytes,
// where every event is an element of the events array that starts with
// its ctx_event_id. It returns nil when it cannot (the caller decodes the
// whole chunk).
func pickEvent(data []byte, id core.EventID) *core.Event {
	key, err := json.Marshal(id)
	if err != nil {
		return nil
	}
	at := bytes.Index(data, append([]byte(`{"ctx_event_id":`), key...))
	if at <= 0 || (data[at-1] != '[' && data[at-1] != ',') {
		return nil
	}
	var ev core.Event
	if json.NewDecoder(bytes.NewReader(data[at:])).Decode(&ev) != nil || ev.ID != id {
		return nil
	}
	return &ev
}

func wrapObjErr(err error) error {
	if err == nil {
		return nil
	}
	if errors.Is(err, objects.ErrCorrupt) {
		return &Error{Code: CodeCorrupt, Message: "the store is damaged (run ctx verify)", Err: err}
	}
	if errors.Is(err, objects.ErrNotFound) {
		return &Error{Code: CodeDamaged, Message: "an object the active generation names is missing (run ctx verify)", Err: err}
	}
	return err
}
