package index

import (
	"fmt"
	"sort"
	"strings"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/search/query"

	"ctx/core"
)

// maxPrefixGroups bounds the groups a prefix lookup reads.
const maxPrefixGroups = 256

// LookupPrefix finds the events whose id starts with prefix (evt_ and
// lowercase hex digits), up to limit of them in id order, and reports
// whether more matched. Superseded copies are skipped; of the live ones
// the copy in the latest shard wins, as in Lookup.
func (r *Reader) LookupPrefix(prefix string, limit int) ([]core.Hit, bool, error) {
	if len(r.idxs) == 0 {
		return nil, false, nil
	}
	if r.chunks == nil {
		return nil, false, ErrNoEvents
	}
	key := prefix[:min(len(prefix), len("evt_")+16)]
	pq := query.NewPrefixQuery(key)
	pq.SetField(fieldEvents)
	res, err := r.alias.Search(bleve.NewSearchRequestOptions(pq, maxPrefixGroups, 0, false))
	if err != nil {
		return nil, false, fmt.Errorf("index: lookup prefix: %w", err)
	}
	loader := r.newHitLoader()
	defer loader.close()
	found := map[core.EventID]core.Hit{}
	for _, dm := range res.Hits {
		g, err := loader.load(dm)
		if err != nil {
			return nil, false, err
		}
		ch, err := r.chunks(g.Chunk)
		if err != nil {
			return nil, false, err
		}
		for _, p := range g.pos {
			if p >= ch.Len() {
				continue
			}
			id, err := ch.ID(p)
			if err != nil {
				return nil, false, err
			}
			if !strings.HasPrefix(id.String(), prefix) {
				continue
			}
			e, err := ch.Event(p)
			if err != nil {
				return nil, false, err
			}
			if r.isSuperseded(nil, dm.Index, e.ID) {
				continue
			}
			if old, ok := found[e.ID]; ok && r.order[dm.Index] < r.order[old.Origin] {
				continue
			}
			h := g.Hit
			h.EventID, h.EventType, h.Role, h.Timestamp, h.Score = e.ID, e.Type, e.Role, e.Timestamp, 1
			found[e.ID] = h
		}
	}
	out := make([]core.Hit, 0, len(found))
	for _, h := range found {
		out = append(out, h)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].EventID.String() < out[j].EventID.String() })
	more := len(out) > limit || uint64(len(res.Hits)) < res.Total
	return out[:min(len(out), limit)], more, nil
}
