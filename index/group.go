package index

import (
	"bytes"
	"sort"

	"ctx/core"
)

// PrimaryPreference is how close a primary-session hit must come to the best
// hit of its root group to lead the group instead of a subagent hit: a
// primary hit scoring at least PrimaryPreference × the best score wins;
// stronger subagent evidence keeps the lead (spec 000).
const PrimaryPreference = 0.9

// sortHits orders hits by score, then newest first, then event id, so that
// equal inputs always give the same order.
func sortHits(hits []Hit) {
	sort.SliceStable(hits, func(i, j int) bool { return hitLess(&hits[i], &hits[j]) })
}

func hitLess(a, b *Hit) bool {
	if a.Score != b.Score {
		return a.Score > b.Score
	}
	if !a.Timestamp.Equal(b.Timestamp) {
		return a.Timestamp.After(b.Timestamp)
	}
	return bytes.Compare(a.EventID[:], b.EventID[:]) < 0
}

// group returns up to limit hits from hits (sorted best first), grouped by
// root session: sessions sharing a root_session_id form one group (a
// session without one is its own group); groups rank by their best hit;
// every group gives its lead hit before any group gives a second, and so on
// round-robin. A group's lead is its best hit, or its best primary hit when
// that one scores at least PrimaryPreference of the best.
func group(hits []Hit, limit int) []Hit {
	var groups [][]Hit
	index := make(map[core.SessionID]int)
	for _, h := range hits {
		key := h.RootSessionID
		if key.IsZero() {
			key = h.SessionID
		}
		i, ok := index[key]
		if !ok {
			i = len(groups)
			index[key] = i
			groups = append(groups, nil)
		}
		groups[i] = append(groups[i], h)
	}
	for _, g := range groups {
		promotePrimary(g)
	}
	out := make([]Hit, 0, min(limit, len(hits)))
	for round := 0; len(out) < limit; round++ {
		took := false
		for _, g := range groups {
			if round < len(g) && len(out) < limit {
				out = append(out, g[round])
				took = true
			}
		}
		if !took {
			break
		}
	}
	return out
}

// promotePrimary moves the best primary hit of a group to the front when the
// group's best hit is a subagent's and the primary one is close enough.
func promotePrimary(g []Hit) {
	if len(g) == 0 || !g[0].IsSubagent {
		return
	}
	for i := 1; i < len(g); i++ {
		if g[i].IsSubagent {
			continue
		}
		if g[i].Score >= PrimaryPreference*g[0].Score {
			p := g[i]
			copy(g[1:i+1], g[:i])
			g[0] = p
		}
		return
	}
}
