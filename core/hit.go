package core

import (
	"bytes"
	"sort"
	"time"

	"ctx/objects"
)

// Hit is one search result before its event is read: what the lexical
// index and the vector index both answer, and what ranking, fusion and
// grouping work on.
type Hit struct {
	EventID       EventID
	SessionID     SessionID
	RootSessionID SessionID
	IsSubagent    bool
	EventType     EventType
	Role          Role
	Provider      string
	Workspace     string
	Timestamp     time.Time // zero when the event has none
	// Score is the relevance times the scope weight of EventType: bleve's
	// for a lexical hit, the cosine similarity for a vector hit, the fused
	// rank score for a hybrid one.
	Score float64
	// Chunk is the chunk object that holds the event.
	Chunk objects.ID
	// Origin names the part of the index that answered: a lexical shard or
	// a vector set (tombstones are per origin).
	Origin string
	// Partial is set when the hit matched only some words of the text:
	// such hits come after every hit that matched them all.
	Partial bool
}

// SortHits orders hits best first: every word before some words, then by
// score, then newest first, then by event id, so that equal inputs always
// give the same order.
func SortHits(hits []Hit) {
	sort.SliceStable(hits, func(i, j int) bool { return HitLess(&hits[i], &hits[j]) })
}

// HitLess is the order of SortHits.
func HitLess(a, b *Hit) bool {
	if a.Partial != b.Partial {
		return !a.Partial
	}
	if a.Score != b.Score {
		return a.Score > b.Score
	}
	if !a.Timestamp.Equal(b.Timestamp) {
		return a.Timestamp.After(b.Timestamp)
	}
	return bytes.Compare(a.EventID[:], b.EventID[:]) < 0
}

// PrimaryPreference is how close a primary-session hit must come to the best
// hit of its root group to lead the group instead of a subagent hit: a
// primary hit scoring at least PrimaryPreference × the best score wins;
// stronger subagent evidence keeps the lead (spec 000).
const PrimaryPreference = 0.9

// RepeatPenalty is how much weaker than a group's further hit another
// group's best hit may be and still come first: a repeat scoring s waits
// behind the leads of other groups that score at least RepeatPenalty × s,
// and comes before weaker ones. One best hit per group comes before the
// repeats that are about as relevant (spec 000), while a session's strong
// further hits are not buried under other sessions' weak ones.
const RepeatPenalty = 0.5

// GroupHits returns up to limit hits from hits (sorted best first), grouped
// by root session: sessions sharing a root_session_id form one group (a
// session without one is its own group). A group's lead is its best hit,
// or its best primary hit when that one scores at least PrimaryPreference
// of the best. Each group's leads come in their order; a group's further
// hits follow at RepeatPenalty of their score, so a repeat comes before
// another group's lead only when it is more than twice as strong. This is
// the one grouping of every search mode.
func GroupHits(hits []Hit, limit int) []Hit {
	var groups [][]Hit
	index := make(map[SessionID]int)
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
	next := make([]int, len(groups)) // the next hit of each group
	out := make([]Hit, 0, min(limit, len(hits)))
	for len(out) < limit {
		best := -1
		for gi, g := range groups {
			if next[gi] < len(g) && (best < 0 || before(g, next[gi], groups[best], next[best])) {
				best = gi
			}
		}
		if best < 0 {
			break
		}
		out = append(out, groups[best][next[best]])
		next[best]++
	}
	return out
}

// before reports whether hit i of group a goes before hit j of group b:
// matches of every word first, then by score with repeats (i or j > 0) at
// RepeatPenalty; on a tie a lead goes first, else the groups' order (their
// best hits' order) holds.
func before(a []Hit, i int, b []Hit, j int) bool {
	if a[i].Partial != b[j].Partial {
		return !a[i].Partial
	}
	ra, rb := groupRank(a, i), groupRank(b, j)
	if ra != rb {
		return ra > rb
	}
	return i == 0 && j > 0
}

// groupRank is what hit pos of group g competes with: a lead its group's
// best score (a promoted primary lead keeps its group's place), a repeat
// RepeatPenalty of its own.
func groupRank(g []Hit, pos int) float64 {
	if pos > 0 {
		return g[pos].Score * RepeatPenalty
	}
	best := g[0].Score
	if len(g) > 1 && g[1].Score > best && g[1].Partial == g[0].Partial {
		best = g[1].Score // the subagent hit a primary one was promoted over
	}
	return best
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
