package core

import (
	"sort"
	"time"

	"ctx/objects"
)

// KindForgotten is the kind of the object that records forgotten sessions.
const KindForgotten = "forgotten"

// Forgotten is the set of sessions the user forgot (ctx forget, ctx ingest
// rm): a generation names it, and every generation after it carries it, so
// that no later import, pull or merge brings a forgotten session back. One
// entry per session; an undone forget keeps its entry with Undone set, so
// that a merge of two machines' sets can tell an undo from an entry it has
// not seen (see Merge). Entries are sorted by session id.
type Forgotten struct {
	Kind     string           `json:"kind"`
	Sessions []ForgottenEntry `json:"sessions"`
}

// ForgottenEntry is one forgotten (or, with Undone, restored) session:
// what it was, where it came from (so an undo can read its file again)
// and when and why it was forgotten. At is the time of the last change of
// the entry (the forget, or its undo).
type ForgottenEntry struct {
	Session    SessionID `json:"ctx_session_id"`
	Provider   string    `json:"provider,omitempty"`
	NativeID   string    `json:"native_session_id,omitempty"`
	Root       SessionID `json:"root_session_id,omitzero"`
	Workspace  string    `json:"workspace,omitempty"`
	Source     SourceRef `json:"source,omitzero"`
	Events     int       `json:"events"`
	Reason     string    `json:"reason"` // "session", "workspace", "subagent" (of a forgotten root), "reported"
	At         time.Time `json:"at"`
	Generation uint64    `json:"generation"` // the generation that recorded the change
	// Purged is the generation from which no index shard holds the
	// session's events (ctx gc re-indexed them away); 0 until then.
	Purged  uint64 `json:"purged,omitempty"`
	Machine string `json:"machine,omitempty"`
	Undone  bool   `json:"undone,omitempty"`
}

// ForgottenSet is a Forgotten decoded for lookups.
type ForgottenSet map[SessionID]ForgottenEntry

// Has reports whether id is forgotten (and not undone).
func (s ForgottenSet) Has(id SessionID) bool {
	e, ok := s[id]
	return ok && !e.Undone
}

// Live returns the entries that are forgotten (not undone), by session id.
func (s ForgottenSet) Live() []ForgottenEntry {
	var out []ForgottenEntry
	for _, e := range s {
		if !e.Undone {
			out = append(out, e)
		}
	}
	sort.Slice(out, func(i, j int) bool { return string(out[i].Session[:]) < string(out[j].Session[:]) })
	return out
}

// Since returns the number of the first generation that holds nothing of
// any forgotten session: after the latest forget, or its purge from the
// index. Older generations are what gc must drop. 0 when nothing is
// forgotten.
func (s ForgottenSet) Since() uint64 {
	var n uint64
	for _, e := range s {
		if !e.Undone {
			n = max(n, e.Generation, e.Purged)
		}
	}
	return n
}

// Merge takes in another set's entries: per session the entry changed
// last wins (a forget and an undo of it on two machines resolve to the
// later one); on equal times the forget wins.
func (s ForgottenSet) Merge(other ForgottenSet) {
	for id, o := range other {
		if mine, ok := s[id]; !ok || o.Supersedes(mine) {
			s[id] = o
		}
	}
}

// Supersedes reports whether e wins a merge against mine, an entry of the
// same session: it changed later, or at the same time as a forget against
// an undo.
func (e ForgottenEntry) Supersedes(mine ForgottenEntry) bool {
	return e.At.After(mine.At) || (e.At.Equal(mine.At) && !e.Undone && mine.Undone)
}

// Put stores the set, sorted by session id; nil when it is empty.
func (s ForgottenSet) Put(p objects.Putter) (*objects.ID, error) {
	if len(s) == 0 {
		return nil, nil
	}
	f := &Forgotten{Kind: KindForgotten, Sessions: make([]ForgottenEntry, 0, len(s))}
	for _, e := range s {
		e.At = e.At.UTC()
		f.Sessions = append(f.Sessions, e)
	}
	sort.Slice(f.Sessions, func(i, j int) bool {
		return string(f.Sessions[i].Session[:]) < string(f.Sessions[j].Session[:])
	})
	id, err := put(p, KindForgotten, f)
	return &id, err
}

// LoadForgotten reads a generation's forgotten set; nil id is the empty set.
func LoadForgotten(g objects.Getter, id *objects.ID) (ForgottenSet, error) {
	out := ForgottenSet{}
	if id == nil {
		return out, nil
	}
	f, err := load(g, *id, KindForgotten, func(f *Forgotten) string { return f.Kind })
	if err != nil {
		return nil, err
	}
	for _, e := range f.Sessions {
		out[e.Session] = e
	}
	return out, nil
}
