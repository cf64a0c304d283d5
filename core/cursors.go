package core

import (
	"cmp"
	"encoding/json"
	"maps"
	"slices"
	"strings"
	"time"

	"ctx/objects"
)

// FileCursor records what an import saw of one source file, so the next
// import can skip it when it is unchanged.
type FileCursor struct {
	Provider string         `json:"provider"`
	Path     string         `json:"path"`
	Root     string         `json:"root,omitempty"`
	Group    string         `json:"group,omitempty"`
	Size     int64          `json:"size"`
	ModTime  time.Time      `json:"mtime"`
	Sessions []SessionID    `json:"sessions"`
	Events   int            `json:"events"`
	Problems map[string]int `json:"problems,omitempty"`
	// Redactions counts the secrets replaced in the file's events.
	Redactions int  `json:"redactions,omitempty"`
	Missing    bool `json:"missing,omitempty"` // the file is gone; its sessions are kept
	// Companions is the size/mtime stamp of the file's companion files
	// (see SourceFile.Companions), "" when it has none.
	Companions string `json:"companions,omitempty"`
}

// Unchanged reports whether a file of this size and mtime, whose companions
// have this stamp, needs no re-read.
func (c *FileCursor) Unchanged(size int64, mtime time.Time, companions string) bool {
	return !c.Missing && c.Size == size && c.ModTime.Equal(mtime.UTC()) && c.Companions == companions
}

// Cursors is the import state of a generation, one cursor per file.
type Cursors struct {
	Kind  string       `json:"kind"`
	Files []FileCursor `json:"files"`
}

// Put stores the cursors sorted by provider and path: as one object when
// they are at most wholeMax files, else in pieces under a root whose id it
// returns (see pieces.go).
func (c *Cursors) Put(p objects.Putter) (objects.ID, error) {
	c.Kind = KindCursors
	slices.SortFunc(c.Files, compareCursors)
	if len(c.Files) <= wholeMax {
		return put(p, KindCursors, c)
	}
	return putPieces(p, cursorPieces, c.Files)
}

// compareCursors orders cursors by provider, then path.
func compareCursors(a, b FileCursor) int {
	return cmp.Or(strings.Compare(a.Provider, b.Provider), strings.Compare(a.Path, b.Path))
}

// LoadCursors reads a cursor set, stored whole or in pieces.
func LoadCursors(g objects.Getter, id objects.ID) (*Cursors, error) {
	data, err := g.Get(id)
	if err != nil {
		return nil, err
	}
	root, ok, err := decodeRoot(id, data, KindCursorsPieces, KindCursors)
	if err != nil {
		return nil, err
	}
	if !ok {
		return decode(id, data, KindCursors, func(c *Cursors) string { return c.Kind })
	}
	files, err := loadPieces(g, id, root, true, func(data []byte) ([]FileCursor, bool) {
		var c Cursors
		if json.Unmarshal(data, &c) != nil || c.Kind != KindCursorsPiece {
			return nil, false
		}
		return c.Files, true
	}, compareCursors)
	if err != nil {
		return nil, err
	}
	return &Cursors{Kind: KindCursors, Files: files}, nil
}

// Tombstones record events that were indexed more than once: for each, the
// number of the generation whose shards hold its current version (0: the
// event no longer exists). A hit of such an event from a shard built by any
// other generation is superseded. Events indexed once have no entry.
type Tombstones struct {
	Kind    string             `json:"kind"`
	Current map[EventID]uint64 `json:"current"`
}

// Superseded reports whether a hit of id in a shard built by generation gen
// is an old version.
func (t *Tombstones) Superseded(gen uint64, id EventID) bool {
	if t == nil {
		return false
	}
	cur, ok := t.Current[id]
	return ok && cur != gen
}

// Put stores the tombstones.
func (t *Tombstones) Put(p objects.Putter) (objects.ID, error) {
	t.Kind = KindTombstones
	return put(p, KindTombstones, t)
}

// LoadTombstones reads a tombstones object.
func LoadTombstones(g objects.Getter, id objects.ID) (*Tombstones, error) {
	return load(g, id, KindTombstones, func(t *Tombstones) string { return t.Kind })
}

// LoadLayeredTombstones reads a generation's tombstones: top, when base is
// nil, is the whole set; otherwise base is an earlier whole set and top
// holds the entries set since, which win. Layering keeps a publish from
// rewriting every tombstone the store has ever had. Both nil is an empty
// set.
func LoadLayeredTombstones(g objects.Getter, base, top *objects.ID) (*Tombstones, error) {
	out := &Tombstones{Kind: KindTombstones, Current: map[EventID]uint64{}}
	for _, id := range []*objects.ID{base, top} {
		if id == nil {
			continue
		}
		t, err := LoadTombstones(g, *id)
		if err != nil {
			return nil, err
		}
		if len(out.Current) == 0 {
			out.Current = t.Current // the common case: no copy
			continue
		}
		maps.Copy(out.Current, t.Current)
	}
	return out, nil
}

// KindIndexedChunks is the kind of the object that lists the chunks one
// index build covered.
const KindIndexedChunks = "indexed-chunks"

// IndexedChunk is one chunk an index build covered, with its session.
type IndexedChunk struct {
	Session SessionID  `json:"ctx_session_id"`
	Chunk   objects.ID `json:"chunk"`
}

// IndexedChunks lists the chunks one index build covered, so that its
// shards can later be merged by re-indexing their events from objects.
type IndexedChunks struct {
	Kind   string         `json:"kind"`
	Chunks []IndexedChunk `json:"chunks"`
}

// Put stores the list.
func (c *IndexedChunks) Put(p objects.Putter) (objects.ID, error) {
	c.Kind = KindIndexedChunks
	return put(p, KindIndexedChunks, c)
}

// LoadIndexedChunks reads an indexed-chunks object.
func LoadIndexedChunks(g objects.Getter, id objects.ID) (*IndexedChunks, error) {
	return load(g, id, KindIndexedChunks, func(c *IndexedChunks) string { return c.Kind })
}
