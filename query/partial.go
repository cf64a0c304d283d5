package query

import (
	"fmt"
	"slices"

	"ctx/core"
	"ctx/index"
	"ctx/objects"
)

// PartialDamagedShard is SearchPartial.Reason when index shards are
// damaged or missing.
const PartialDamagedShard = "damaged_shard"

// RepairCommand rebuilds damaged shards from the store (a running daemon
// does it by itself).
const RepairCommand = "ctx verify --repair"

// SearchPartial says that part of the index could not be searched: the
// results come from the other shards, and events indexed only in the
// damaged ones are missing from them. The store still holds those events
// (show reads them), and the index is rebuilt from it.
type SearchPartial struct {
	Reason        string   `json:"reason" jsonschema:"Why the answer is partial: damaged_shard."`
	DamagedShards []string `json:"damaged_shards" jsonschema:"The index shards that could not be searched."`
	Shards        int      `json:"shards" jsonschema:"The shards of the generation, damaged ones included."`
	Note          string   `json:"note"`
	Repair        string   `json:"repair" jsonschema:"The command that rebuilds the damaged shards from the store."`
}

// partialOf describes a search that could not read the named shards of
// total, or returns nil when it read them all.
func partialOf(damaged []string, total int) *SearchPartial {
	if len(damaged) == 0 {
		return nil
	}
	return &SearchPartial{Reason: PartialDamagedShard, DamagedShards: damaged, Shards: total, Repair: RepairCommand,
		Note: fmt.Sprintf("%d of %d index shards are damaged and were not searched, so results may be missing; "+
			"the store is intact: %s rebuilds them from it (a running daemon does so by itself)", len(damaged), total, RepairCommand)}
}

// damagedShards merges the shards the index left out at open with those a
// search could not read, sorted and each once.
func damagedShards(idx *index.Reader, read []string) []string {
	out := slices.Clone(read)
	for _, se := range idx.Damaged() {
		out = append(out, se.Shard)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// DamagedShards returns the index shards of the pinned generation that
// cannot be opened (damaged or missing); nil when there are none or the
// index could not be opened at all.
func (r *Reader) DamagedShards() []string {
	idx, err := r.index()
	if err != nil {
		return nil
	}
	return damagedShards(idx, nil)
}

// storeEvents finds, without the index, the events of the pinned
// generation whose id match accepts, up to limit: the lookups of show
// when a damaged shard may hold the event. It reads every session's
// chunks, which is slow on a large store, so it only runs when the index
// is partial.
func (r *Reader) storeEvents(match func(core.EventID) bool, limit int) ([]core.Hit, error) {
	tree, err := r.Tree()
	if err != nil {
		return nil, err
	}
	var out []core.Hit
	for _, e := range tree.Sessions {
		so, err := core.LoadSession(r.store, e.Object)
		if err != nil {
			return nil, wrapObjErr(err)
		}
		full := false
		err = eachEvent(so, r.chunk, func(chunk objects.ID, ev *core.Event) (bool, error) {
			if !match(ev.ID) {
				return true, nil
			}
			out = append(out, core.Hit{SessionID: so.Session.ID, EventID: ev.ID, Chunk: chunk,
				EventType: ev.Type, Role: ev.Role, Timestamp: ev.Timestamp})
			full = len(out) >= limit
			return !full, nil
		})
		if err != nil {
			return nil, err
		}
		if full {
			return out, nil
		}
	}
	return out, nil
}

// indexPartial reports whether the Reader's index, once opened, left out
// shards it could not open (see Pool.Acquire).
func (r *Reader) indexPartial() bool {
	r.idxMu.Lock()
	defer r.idxMu.Unlock()
	return r.idx != nil && len(r.idx.Damaged()) > 0
}
