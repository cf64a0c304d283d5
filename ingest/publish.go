package ingest

import (
	"context"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sort"

	"ctx/core"
	"ctx/refs"
	"ctx/store"
)

// publish writes the tree, cursors, tombstones and generation, makes them
// durable and moves refs/active to the new generation by compare-and-swap.
// On failure it drops the batch's objects not yet committed.
func (r *run) publish(ctx context.Context, rs *refs.Refs) (_ *Report, err error) {
	defer func() {
		if err != nil {
			r.batch.Abort()
		}
	}()
	if r.rep.SessionsWrote > 0 || len(r.newShards) > 0 || r.changedMissing {
		if err := r.fillEntries(); err != nil {
			return nil, err
		}
	}
	entries := make([]core.TreeEntry, 0, len(r.st.tree))
	events := 0
	for _, e := range r.st.tree {
		entries = append(entries, e)
		events += e.Events
	}
	tree := core.NewTree(entries)
	treeID, err := tree.Put(r.batch)
	if err != nil {
		return nil, err
	}
	cursors := &core.Cursors{}
	for _, c := range r.st.cursors {
		cursors.Files = append(cursors.Files, c)
	}
	curID, err := cursors.Put(r.batch)
	if err != nil {
		return nil, err
	}
	sources := r.sourceStats(cursors)
	prev := r.st.prev
	// Only a generation saves cursors: a file re-read with nothing new (a
	// touched file, a history moved to another path) still publishes one,
	// or every later import would read it again.
	if prev != nil && treeID == prev.Tree && curID == prev.Cursors && len(r.newShards) == 0 && !r.changedMissing &&
		len(r.merged) == 0 && !r.forgetChanged && !statsChanged(prev, sources) {
		r.batch.Abort()
		return r.rep, nil
	}
	gen := &refs.Generation{Number: r.st.number + 1, Tree: treeID, Cursors: curID, Created: r.opts.Now(),
		Importer: r.opts.Version, Sessions: len(entries), Events: events, Sources: sources,
		Merged: r.merged}
	if prev != nil {
		parent := r.st.prevID // a copy: a pointer into the state would keep every earlier state alive
		gen.Parent = &parent
		gen.Shards = append(gen.Shards, prev.Shards...)
	}
	if len(r.newShards) > 0 {
		id, err := core.PutIndexedChunks(r.batch, r.indexedChunks)
		if err != nil {
			return nil, err
		}
		for _, s := range r.newShards {
			gen.Shards = append(gen.Shards, refs.Shard{Name: s.Name, Docs: s.Docs, Bytes: s.Bytes,
				Generation: gen.Number, Chunks: &id, Sums: s.Sums})
		}
	}
	limit := MaxSmallShards
	if r.opts.Deferred {
		limit = HardMaxSmallShards
	}
	merged, err := r.mergeSmallShards(ctx, gen, limit)
	if err != nil {
		return nil, err
	}
	r.rep.ShardsMerged = merged
	if err := r.st.putTombstones(r.batch, gen); err != nil {
		return nil, err
	}
	if gen.Forgotten, err = r.st.forgotten.Put(r.batch); err != nil {
		return nil, err
	}
	data, err := gen.Encode()
	if err != nil {
		return nil, err
	}
	genID, err := r.batch.Put(data)
	if err != nil {
		return nil, err
	}
	r.rep.Objects += r.batch.Len()
	r.rep.ObjectBytes += r.batch.Bytes()
	if err := r.batch.Commit(); err != nil {
		return nil, err
	}
	msg := fmt.Sprintf("import: %d files read, %d events indexed", r.rep.FilesRead, r.rep.EventsIndexed)
	if r.message != "" {
		msg = r.message
	}
	if err := rs.Update(refs.Active, r.st.prevID, genID, msg); err != nil {
		return nil, err
	}
	// The shards this run built and merged before publishing them: no
	// generation lists them, and gc would wait for them to age.
	for _, name := range r.mergedAway {
		_ = os.RemoveAll(filepath.Join(store.At(r.opts.Home).Index(), name))
	}
	r.rep.Published, r.rep.Generation, r.rep.GenerationID = true, gen, genID
	return r.rep, nil
}

// pendingObjects bounds the new objects a run leaves uncommitted: each is
// a temporary file and its name in memory (about 130 bytes) until the
// batch commits, and a long session writes a chunk every core.ChunkSize
// events (15,625 for a million events). Committing before the publish is
// safe: a generation names only objects of a commit that ended before its
// ref moved (publish commits the rest first), and an object no generation
// names is left to gc, as after any failed import. A variable for the
// tests.
var pendingObjects = 8192

// commitPending commits the batch once pendingObjects objects wait in it.
func (r *run) commitPending() error {
	if r.batch.Pending() < pendingObjects {
		return nil
	}
	return r.batch.Commit()
}

// statsChanged reports whether sources differ from the figures prev
// published.
func statsChanged(prev *refs.Generation, sources []refs.SourceStats) bool {
	return prev == nil || !slices.EqualFunc(sources, prev.Sources, sameStats)
}

// problemsChanged reports, before anything is read, whether this run's
// figures already differ from the active generation's: a discovery problem
// gone (or new) is worth a generation even when no file changed.
func (r *run) problemsChanged() bool {
	cursors := &core.Cursors{}
	for _, c := range r.st.cursors {
		cursors.Files = append(cursors.Files, c)
	}
	return r.st.prev != nil && statsChanged(r.st.prev, r.sourceStats(cursors))
}

// sameStats reports whether two sources' figures are the same: an import
// that changes nothing else still publishes when its problem counts
// changed (an unreadable directory readable again, a FIFO removed), so that
// status never shows a cause that is gone.
func sameStats(a, b refs.SourceStats) bool {
	return a.Provider == b.Provider && a.Root == b.Root && a.Group == b.Group && a.Files == b.Files &&
		a.Sessions == b.Sessions && a.Events == b.Events && a.Redactions == b.Redactions && maps.Equal(a.Problems, b.Problems)
}

// sourceStats sums the cursors per source (provider, root, group) and adds
// the discovery problems of this run.
func (r *run) sourceStats(c *core.Cursors) []refs.SourceStats {
	type key struct{ p, root, group string }
	by := map[key]*refs.SourceStats{}
	get := func(k key) *refs.SourceStats {
		if s, ok := by[k]; ok {
			return s
		}
		s := &refs.SourceStats{Provider: k.p, Root: k.root, Group: k.group, Problems: map[string]int{}}
		by[k] = s
		return s
	}
	for _, src := range r.opts.Sources {
		get(key{src.Provider.Name(), src.Root, src.Group})
	}
	for _, f := range c.Files {
		s := get(key{f.Provider, f.Root, f.Group})
		s.Files++
		s.Sessions += len(f.Sessions)
		s.Events += f.Events
		s.Redactions += f.Redactions
		for code, n := range f.Problems {
			s.Problems[code] += n
		}
	}
	for _, p := range r.st.discover {
		get(key{p: p.Provider}).Problems[p.Code]++
	}
	out := make([]refs.SourceStats, 0, len(by))
	for _, s := range by {
		if len(s.Problems) == 0 {
			s.Problems = nil
		}
		out = append(out, *s)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Provider != out[j].Provider {
			return out[i].Provider < out[j].Provider
		}
		if out[i].Root != out[j].Root {
			return out[i].Root < out[j].Root
		}
		return out[i].Group < out[j].Group
	})
	return out
}

// fillEntries gives the entries of a tree written before TreeEntry
// carried the session's time range, workspace and digest those fields,
// from their session objects (the digest from its events: once, on the
// first publish after an upgrade). It runs only when a new generation is
// published anyway, so an import that changes nothing still writes
// nothing; a session without timestamps keeps a zero range and is looked
// at again next time.
func (r *run) fillEntries() error {
	for id, e := range r.st.tree {
		if (!e.Started.IsZero() || e.Events == 0) && e.Digest != nil {
			continue
		}
		so, err := core.LoadSession(r.batch, e.Object)
		if err != nil {
			return fmt.Errorf("ingest: session %s: %w", id, err)
		}
		if e.Digest == nil {
			events, err := core.LoadEvents(r.batch, so)
			if err != nil {
				return fmt.Errorf("ingest: session %s: %w", id, err)
			}
			e.Digest = core.Summarize(&so.Session, events)
		}
		if !so.Session.Started.IsZero() {
			e.Fill(&so.Session)
		}
		r.st.tree[id] = e
	}
	return nil
}
