package maint

import (
	"errors"
	"fmt"
	"io/fs"

	"ctx/index"
	"ctx/objects"
	"ctx/refs"
	"ctx/semantic"
	"ctx/store"
)

// Damage is one problem verify found.
type Damage struct {
	Kind   string `json:"kind"` // object, shard, vectors, ref or cursor_key
	Name   string `json:"name"`
	Reason string `json:"reason"`
}

// VerifyReport is the verify read model.
type VerifyReport struct {
	OK          bool     `json:"ok"`
	Generations int      `json:"generations"`
	Objects     int      `json:"objects_checked"`
	Shards      int      `json:"shards_checked"`
	Damage      []Damage `json:"damage"`
	// Forgotten says whether anything of a forgotten session is left (not
	// damage: ctx gc removes it).
	Forgotten *ForgottenCheck `json:"forgotten"`
}

// Verify re-hashes every object reachable from the active generation and
// the generations of the reflog, and opens every shard the active
// generation lists, checking its document count.
func Verify(home string) (*VerifyReport, error) {
	rep := &VerifyReport{Damage: []Damage{}, Forgotten: &ForgottenCheck{Reachable: map[string]int{}, Indexed: []string{}}}
	ro, err := store.OpenReadOnly(home)
	if errors.Is(err, store.ErrNoStore) {
		return rep, nil // nothing imported: nothing to verify
	}
	if err != nil {
		return nil, err
	}
	s, rs := ro.Objects, ro.Refs
	bad := func(id objects.ID, err error) {
		reason := "missing"
		var ce *objects.CorruptError
		if errors.As(err, &ce) {
			reason = ce.Reason
		} else if !errors.Is(err, objects.ErrNotFound) {
			reason = err.Error()
		}
		rep.Damage = append(rep.Damage, Damage{Kind: "object", Name: id.String(), Reason: reason})
	}
	gens, active, err := kept(rs)
	if err != nil {
		return nil, err
	}
	rep.Damage = append(rep.Damage, checkRefs(rs, active)...)
	if _, err := store.At(home).ReadCursorKey(); err != nil && !errors.Is(err, fs.ErrNotExist) {
		rep.Damage = append(rep.Damage, Damage{Kind: "cursor_key", Name: "cursor.key", Reason: err.Error()})
	}
	w := newWalker(s, bad, true)
	for _, g := range gens {
		if err := w.reach(g); err != nil {
			return nil, err
		}
	}
	if err := w.checkLeaves(); err != nil {
		return nil, err
	}
	rep.Generations, rep.Objects = len(gens), len(w.seen)
	if fc, err := checkForgotten(s, gens, active); err == nil {
		rep.Forgotten = fc
	}
	if !active.IsZero() {
		if g, err := refs.Load(s, active); err == nil {
			for _, sh := range g.Shards {
				rep.Shards++
				if err := index.VerifyShard(store.At(home).Index(), index.ShardMeta{Name: sh.Name, Docs: sh.Docs, Sums: sh.Sums}); err != nil {
					rep.Damage = append(rep.Damage, Damage{Kind: "shard", Name: sh.Name, Reason: err.Error()})
				}
			}
		}
	}
	if !active.IsZero() {
		if err := semantic.Verify(store.At(home).Vectors(), active); err != nil && !errors.Is(err, semantic.ErrNotBuilt) {
			rep.Damage = append(rep.Damage, Damage{Kind: "vectors", Name: active.String(), Reason: err.Error()})
		}
	}
	rep.OK = len(rep.Damage) == 0
	return rep, nil
}

// kept returns the active generation and every generation of the reflog.
func kept(rs *refs.Refs) ([]objects.ID, objects.ID, error) {
	active, err := rs.Get(refs.Active)
	if err != nil && !errors.Is(err, refs.ErrNoRef) {
		return nil, active, fmt.Errorf("verify: %w", err)
	}
	var out []objects.ID
	seen := map[objects.ID]bool{}
	add := func(id objects.ID) {
		if !id.IsZero() && !seen[id] {
			seen[id] = true
			out = append(out, id)
		}
	}
	add(active)
	log, err := rs.Log(refs.Active)
	if err != nil {
		return nil, active, err
	}
	for i := len(log) - 1; i >= 0; i-- {
		add(log[i].New)
	}
	return out, active, nil
}

// checkRefs checks refs/active against its reflog: a missing active ref
// with generations logged is damage (not an empty store: the next import
// would start a new history at generation 1), as is a reflog that is
// missing, does not end at the active generation, whose entries do not
// chain (each entry's old generation is the one before it), or whose lines
// do not match their checksums.
func checkRefs(rs *refs.Refs, active objects.ID) []Damage {
	lc, err := rs.CheckLog(refs.Active)
	if err != nil {
		return []Damage{{Kind: "ref", Name: "reflog", Reason: err.Error()}}
	}
	log := lc.Entries
	var out []Damage
	if !active.IsZero() {
		if err := rs.CheckRef(refs.Active); err != nil {
			out = append(out, Damage{Kind: "ref", Name: refs.Active, Reason: err.Error()})
		}
	}
	if len(lc.Bad) > 0 {
		out = append(out, Damage{Kind: "ref", Name: "reflog",
			Reason: fmt.Sprintf("%d lines do not parse or do not match their checksum (first: line %d)", len(lc.Bad), lc.Bad[0])})
	}
	if lc.Torn {
		out = append(out, Damage{Kind: "ref", Name: "reflog", Reason: "its last line is cut (no newline)"})
	}
	switch {
	case active.IsZero() && len(log) > 0:
		out = append(out, Damage{Kind: "ref", Name: refs.Active, Reason: "missing, while the reflog names generations"})
	case !active.IsZero() && len(log) == 0:
		out = append(out, Damage{Kind: "ref", Name: "reflog", Reason: "missing or empty, while refs/active names a generation"})
	case !active.IsZero() && log[len(log)-1].New != active:
		out = append(out, Damage{Kind: "ref", Name: "reflog", Reason: "its last entry is not the active generation"})
	}
	for i := 1; i < len(log); i++ {
		if log[i].Old != log[i-1].New {
			out = append(out, Damage{Kind: "ref", Name: "reflog", Reason: fmt.Sprintf("entry %d does not follow entry %d", i+1, i)})
			break
		}
	}
	return out
}
