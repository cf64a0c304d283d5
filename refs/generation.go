package refs

import (
	"encoding/json"
	"fmt"
	"time"

	"ctx/objects"
)

// Shard is one Bleve index shard that a generation reads.
type Shard struct {
	Name  string `json:"name"`
	Docs  int    `json:"docs"`
	Bytes int64  `json:"bytes"`
	// Generation is the number of the generation that built the shard; it
	// decides which copy of a re-indexed event is current (see core.Tombstones).
	Generation uint64 `json:"generation"`
	// Chunks names the object listing the chunks whose events the build
	// that made this shard indexed; merging re-reads them.
	Chunks *objects.ID `json:"chunks,omitempty"`
	// Sums names the checksum list of the shard's files recorded when it
	// was sealed (index.ShardMeta.Sums); verify checks every file against it.
	Sums *objects.ID `json:"sums,omitempty"`
}

// SourceStats are the per-source figures of a generation.
type SourceStats struct {
	Provider string         `json:"provider"`
	Root     string         `json:"root,omitempty"`
	Group    string         `json:"group,omitempty"`
	Files    int            `json:"files"`
	Sessions int            `json:"sessions"`
	Events   int            `json:"events"`
	Problems map[string]int `json:"problems,omitempty"`
	// Redactions counts the secrets replaced before storage.
	Redactions int `json:"redactions"`
}

// Generation is one published state of the store.
type Generation struct {
	Kind       string      `json:"kind"` // always "generation"
	Number     uint64      `json:"number"`
	Parent     *objects.ID `json:"parent,omitempty"`
	Tree       objects.ID  `json:"tree"`
	Cursors    objects.ID  `json:"cursors"`
	Tombstones *objects.ID `json:"tombstones,omitempty"`
	// TombstonesBase, when set, is an earlier generation's whole set of
	// tombstones and Tombstones holds only the entries set since (see
	// core.LoadLayeredTombstones).
	TombstonesBase *objects.ID   `json:"tombstones_base,omitempty"`
	Created        time.Time     `json:"created"`
	Importer       string        `json:"importer"`
	Sessions       int           `json:"sessions"`
	Events         int           `json:"events"`
	Sources        []SourceStats `json:"sources"`
	Shards         []Shard       `json:"shards"`
	// Merged, on a merge generation, names the other machines' commits
	// (git ids) whose sessions it took in: its parents besides Parent.
	Merged []Merged `json:"merged,omitempty"`
	// Forgotten names the sessions the user forgot (core.Forgotten):
	// every later generation names it too, so no import brings them back.
	Forgotten *objects.ID `json:"forgotten,omitempty"`
}

// Merged is one other machine's commit a merge generation took in.
type Merged struct {
	Machine string `json:"machine"`
	Commit  string `json:"commit"`
}

// StoreFormat is the version of the store format (objects, generations,
// refs) this package reads and writes.
const StoreFormat = 1

// KindGeneration is the kind field of generation objects.
const KindGeneration = "generation"

// Encode returns the canonical bytes of the generation.
func (g *Generation) Encode() ([]byte, error) {
	g.Kind = KindGeneration
	g.Created = g.Created.UTC()
	return json.Marshal(g)
}

// Load reads and decodes a generation object.
func Load(s objects.Getter, id objects.ID) (*Generation, error) {
	data, err := s.Get(id)
	if err != nil {
		return nil, err
	}
	var g Generation
	if err := json.Unmarshal(data, &g); err != nil || g.Kind != KindGeneration {
		return nil, fmt.Errorf("refs: object %s is not a generation", id)
	}
	return &g, nil
}

// Reachable returns the object ids a generation names directly: its tree,
// cursors, tombstones (both layers), the forgotten set and the chunk lists of its shards (not its parent,
// which is a generation of its own). Packages that know the tree format
// walk on from the tree.
func (g *Generation) Reachable() []objects.ID {
	ids := []objects.ID{g.Tree, g.Cursors}
	if g.Tombstones != nil {
		ids = append(ids, *g.Tombstones)
	}
	if g.TombstonesBase != nil {
		ids = append(ids, *g.TombstonesBase)
	}
	if g.Forgotten != nil {
		ids = append(ids, *g.Forgotten)
	}
	for _, s := range g.Shards {
		if s.Chunks != nil {
			ids = append(ids, *s.Chunks)
		}
	}
	return ids
}
