package ingest

import (
	"context"
	"fmt"
	"os"
	"slices"
	"sort"
	"time"

	"ctx/core"
)

// Forgetting takes sessions out of the store for good: the generation a
// forget publishes has no tree entry for them, a tombstone of 0 for every
// one of their events (search drops their hits at once), and records them
// in its forgotten set (core.Forgotten), which every later generation
// carries: an import skips a forgotten session however often its file
// changes, and a pull does not take it from another machine. The bytes go
// with ctx gc (Purge re-indexes the shards that hold their events, then gc
// drops the generations that still reach their objects).

// Forget reasons (core.ForgottenEntry.Reason).
const (
	ForgetSession   = "session"   // named by the user
	ForgetWorkspace = "workspace" // selected by workspace (and time)
	ForgetSubagent  = "subagent"  // a subagent of a forgotten session
	ForgetReported  = "reported"  // a reported session removed with ctx ingest rm
)

// ForgetRequest selects the sessions to forget, or with Undo to restore.
type ForgetRequest struct {
	// Sessions are forgotten by id. An id the tree does not hold (a report
	// not imported yet) is still recorded, so no import brings it in.
	Sessions []core.SessionID
	// Workspace, when set, selects every session in that directory or
	// below it, Before (when set) those whose last activity is before it.
	Workspace string
	Before    time.Time
	Reason    string // of Sessions; ForgetSession when empty
	// Undo restores instead: Sessions, or with none the sessions of the
	// most recent forget. Their files are read again by the next import.
	Undo bool
	// DryRun selects and reports but writes nothing.
	DryRun bool
}

// ForgetReport says what a forget (or undo) did, or with DryRun would do.
type ForgetReport struct {
	Sessions   []core.ForgottenEntry
	Events     int
	Published  bool
	Generation uint64
	// Unreadable are the restored sessions whose source file is gone: no
	// import can bring them back.
	Unreadable []core.SessionID
}

// Forget forgets (or restores) the sessions the request selects and
// publishes the generation without (or ready to read again) them. It
// holds the writer lock throughout.
func Forget(ctx context.Context, opts Options, req ForgetRequest) (*ForgetReport, error) {
	r, rs, unlock, err := begin(ctx, opts)
	if err != nil {
		return nil, err
	}
	defer unlock()
	var picked []core.ForgottenEntry
	if req.Undo {
		picked = r.undoSelection(req.Sessions)
	} else {
		picked = r.forgetSelection(req)
	}
	rep := &ForgetReport{Sessions: picked}
	for _, e := range picked {
		rep.Events += e.Events
	}
	if req.DryRun || len(picked) == 0 {
		r.batch.Abort()
		return rep, nil
	}
	gen := r.st.number + 1
	for _, e := range picked {
		if err := ctx.Err(); err != nil {
			r.batch.Abort()
			return nil, err
		}
		e.Generation = gen
		if req.Undo {
			if !r.restore(e) {
				rep.Unreadable = append(rep.Unreadable, e.Session)
			}
		} else if err := r.forgetOne(e); err != nil {
			r.batch.Abort()
			return nil, err
		}
	}
	r.forgetChanged = true
	verb := "forget"
	if req.Undo {
		verb = "forget undone"
	}
	r.message = fmt.Sprintf("%s: %d sessions, %d events", verb, len(picked), rep.Events)
	pub, err := r.publish(ctx, rs)
	if err != nil {
		return nil, err
	}
	if !opts.Deferred {
		r.buildVectors(ctx) // the vectors of the new generation leave them out too
	}
	rep.Published, rep.Generation = pub.Published, gen
	return rep, nil
}

// forgetSelection returns the entries of the sessions the request
// forgets: the named and selected ones and their subagents, each once,
// none already forgotten.
func (r *run) forgetSelection(req ForgetRequest) []core.ForgottenEntry {
	now := r.opts.Now().UTC()
	reason := req.Reason
	if reason == "" {
		reason = ForgetSession
	}
	picked := map[core.SessionID]core.ForgottenEntry{}
	add := func(id core.SessionID, why string) {
		if _, ok := picked[id]; ok || r.st.forgotten.Has(id) {
			return
		}
		picked[id] = r.entryOf(id, why, now)
	}
	for _, id := range req.Sessions {
		add(id, reason)
	}
	if sc, ok := core.ParseWorkspaceScope(req.Workspace); ok {
		for id, te := range r.st.tree {
			if sc.Contains(te.Workspace) && (req.Before.IsZero() || (!te.Ended.IsZero() && te.Ended.Before(req.Before))) {
				add(id, ForgetWorkspace)
			}
		}
	}
	for id, te := range r.st.tree { // subagents go with their root
		if _, ok := picked[te.Root]; ok && te.Root != id && !te.Root.IsZero() {
			add(id, ForgetSubagent)
		}
	}
	return sortedEntries(picked)
}

// entryOf is the forgotten entry of a session of the tree (or of an id the
// tree does not hold: a report not imported yet).
func (r *run) entryOf(id core.SessionID, why string, at time.Time) core.ForgottenEntry {
	e := core.ForgottenEntry{Session: id, Reason: why, At: at}
	if te, ok := r.st.tree[id]; ok {
		e.Provider, e.Root, e.Workspace, e.Events, e.Machine = te.Provider, te.Root, te.Workspace, te.Events, te.Machine
		e.Source = core.SourceRef{Provider: te.Provider, Path: te.SourceKey}
		if te.Digest != nil {
			e.NativeID = te.Digest.NativeID
		}
	}
	return e
}

// undoSelection returns the forgotten entries to restore: ids, or with
// none every entry of the most recent forget.
func (r *run) undoSelection(ids []core.SessionID) []core.ForgottenEntry {
	picked := map[core.SessionID]core.ForgottenEntry{}
	if len(ids) == 0 {
		var last uint64
		for _, e := range r.st.forgotten.Live() {
			last = max(last, e.Generation)
		}
		for _, e := range r.st.forgotten.Live() {
			if e.Generation == last {
				picked[e.Session] = e
			}
		}
	}
	for _, id := range ids {
		if r.st.forgotten.Has(id) {
			picked[id] = r.st.forgotten[id]
		}
		for _, e := range r.st.forgotten.Live() { // and the subagents forgotten with it
			if e.Root == id && e.Reason == ForgetSubagent {
				picked[e.Session] = e
			}
		}
	}
	return sortedEntries(picked)
}

func sortedEntries(m map[core.SessionID]core.ForgottenEntry) []core.ForgottenEntry {
	out := make([]core.ForgottenEntry, 0, len(m))
	for _, e := range m {
		out = append(out, e)
	}
	sort.Slice(out, func(i, j int) bool { return string(out[i].Session[:]) < string(out[j].Session[:]) })
	return out
}

// forgetOne removes a session from the tree, tombstones its events (0:
// gone) and records it as forgotten.
func (r *run) forgetOne(e core.ForgottenEntry) error {
	if te, ok := r.st.tree[e.Session]; ok {
		so, err := core.LoadSession(r.batch, te.Object)
		if err != nil {
			return fmt.Errorf("ingest: forget %s: %w", e.Session, err)
		}
		for _, ref := range so.Chunks {
			c, err := core.LoadChunk(r.batch, ref.ID)
			if err != nil {
				return fmt.Errorf("ingest: forget %s: %w", e.Session, err)
			}
			for k := range c.Events {
				r.st.setTomb(c.Events[k].ID, 0)
			}
		}
		delete(r.st.tree, e.Session)
		key := cursorKey(te.Provider, te.SourceKey)
		if c, ok := r.st.cursors[key]; ok { // the file no longer counts it
			c.Sessions = slices.DeleteFunc(slices.Clone(c.Sessions), func(id core.SessionID) bool { return id == e.Session })
			c.Events = max(c.Events-te.Events, 0)
			r.st.cursors[key] = c
		}
	}
	r.st.forgotten[e.Session] = e
	return nil
}

// restore marks a forgotten session undone and makes the next import read
// its source file again (its cursor is dropped), which brings it back. It
// reports whether that file is still there to read.
func (r *run) restore(e core.ForgottenEntry) bool {
	e.Undone, e.At = true, r.opts.Now().UTC()
	r.st.forgotten[e.Session] = e
	if e.Source.Path == "" {
		return false
	}
	delete(r.st.cursors, cursorKey(e.Source.Provider, e.Source.Path))
	_, err := os.Stat(e.Source.Path)
	return err == nil
}

// skipped reports whether an import must leave a parsed session out: it
// (or its root) is forgotten, or config.toml excludes it.
func (r *run) skipped(s *core.Session) bool {
	return r.forgottenSession(s.ID, s.RootSessionID) || (r.opts.Exclude != nil && r.opts.Exclude(s))
}

// forgottenSession reports whether session id, or its root, is forgotten.
func (r *run) forgottenSession(id, root core.SessionID) bool {
	return r.st.forgotten.Has(id) || (!root.IsZero() && r.st.forgotten.Has(root))
}
