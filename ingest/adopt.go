package ingest

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"ctx/core"
	"ctx/objects"
	"ctx/refs"
)

// Remote is one other machine's shared sessions, to merge into this store:
// its session tree and a reader of its objects that checks every one
// against its name (gitstore.Snapshot).
type Remote struct {
	Machine   string
	Commit    string // the git commit read, recorded in the merge generation
	Tree      *core.Tree
	Objects   objects.Getter
	Forgotten core.ForgottenSet // the sessions the machine forgot (and undid)
}

// Adopt merges the sessions of other machines into the store as one merge
// generation (naming their commits), indexed here like imported sessions.
// A merge never drops anything: a session this store lacks is added, one it
// has is replaced only by a longer history of it (the same session seen from
// two machines is one session, its ids derived from the provider's). Every
// incoming session is read and checked (every object re-hashed) just before
// it is written into the unpublished batch, one at a time, so memory holds
// one session, not the pulled history; a damaged or forged object aborts
// the batch and the merge publishes nothing.
func Adopt(ctx context.Context, opts Options, remotes []Remote) (*Report, error) {
	r, rs, unlock, err := begin(ctx, opts)
	if err != nil {
		return nil, err
	}
	defer unlock()
	forgot, restored, err := r.adoptForgotten(remotes, r.st.number+1)
	if err != nil {
		r.batch.Abort()
		return nil, err
	}
	winners := r.winners(remotes)
	r.merged = make([]refs.Merged, 0, len(remotes))
	var names []string
	for _, rm := range remotes {
		r.merged = append(r.merged, refs.Merged{Machine: rm.Machine, Commit: rm.Commit})
		names = append(names, rm.Machine)
	}
	r.message = fmt.Sprintf("sync: %d sessions merged from %s", len(winners), strings.Join(names, ", "))
	if forgot+restored > 0 {
		r.message += fmt.Sprintf("; %d forgotten, %d restored by their tombstones", forgot, restored)
	}
	r.rep.SessionsForgotten, r.rep.SessionsRestored = forgot, restored
	if err := r.storeAdopted(ctx, winners); err != nil {
		r.batch.Abort()
		return nil, err
	}
	return r.publish(ctx, rs)
}

// pick is the incoming history of one session that the merge adopts.
type pick struct {
	entry core.TreeEntry
	from  *Remote
}

// winners picks, per session, the longest incoming history that is longer
// than the local one, in session id order.
func (r *run) winners(remotes []Remote) []pick {
	best := map[core.SessionID]pick{}
	for i := range remotes {
		rm := &remotes[i]
		for _, e := range rm.Tree.Sessions {
			if r.st.forgotten.Has(e.Session) || r.st.forgotten.Has(e.Root) {
				continue // forgotten here: another machine's copy does not bring it back
			}
			have := 0
			if local, ok := r.st.tree[e.Session]; ok {
				have = local.Events
			}
			if p, ok := best[e.Session]; ok {
				have = max(have, p.entry.Events)
			}
			if e.Events > have {
				best[e.Session] = pick{entry: e, from: rm}
			}
		}
	}
	ids := make([]core.SessionID, 0, len(best))
	for id := range best {
		ids = append(ids, id)
	}
	sort.Slice(ids, func(i, j int) bool { return string(ids[i][:]) < string(ids[j][:]) })
	out := make([]pick, 0, len(ids))
	for _, id := range ids {
		out = append(out, best[id])
	}
	return out
}

// read reads the picked history whole, every object checked against its
// name and the session against its tree entry.
func (p pick) read() (*core.ParsedSession, error) {
	id := p.entry.Session
	so, err := core.LoadSession(p.from.Objects, p.entry.Object)
	if err != nil {
		return nil, fmt.Errorf("ingest: session %s of machine %s: %w", id, p.from.Machine, err)
	}
	evs, err := core.LoadEvents(p.from.Objects, so)
	if err != nil {
		return nil, fmt.Errorf("ingest: session %s of machine %s: %w", id, p.from.Machine, err)
	}
	if so.Session.ID != id || len(evs) != so.Session.EventCount {
		return nil, fmt.Errorf("ingest: session %s of machine %s: %w", id, p.from.Machine,
			&objects.CorruptError{ID: p.entry.Object, Path: "machine " + p.from.Machine, Reason: "session does not match its tree entry"})
	}
	so.Session.Machine = p.from.Machine
	return &core.ParsedSession{Session: so.Session, Events: evs}, nil
}

// storeAdopted reads each winning session and writes it, indexing its new
// chunks; the first that cannot be read stops the index build and fails.
func (r *run) storeAdopted(ctx context.Context, sessions []pick) error {
	if len(sessions) == 0 {
		return nil
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	build := r.startBuild(ctx, cancel)
	docs := build.docs
	var err error
	for _, p := range sessions {
		var ps *core.ParsedSession
		if ps, err = p.read(); err == nil {
			err = r.storeSession(ctx, ps, docs)
		}
		if err != nil {
			cancel() // nothing of this build is published
			break
		}
	}
	shards, buildErr := build.wait()
	if err != nil {
		return err
	}
	if buildErr != nil {
		return buildErr
	}
	r.newShards = shards
	return nil
}
