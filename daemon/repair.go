package daemon

import (
	"context"
	"errors"
	"runtime/debug"
	"slices"
	"strings"
	"time"

	"ctx/index"
	"ctx/ingest"
	"ctx/refs"
	"ctx/store"
	"ctx/wake"
)

// kickRepair asks repairLoop to check the active generation's shards.
func (d *daemon) kickRepair() {
	select {
	case d.repairKick <- struct{}{}:
	default:
	}
}

// repairLoop checks the active generation's index shards when kicked (at
// start, and when a read found one damaged: the repair request) and
// rebuilds the damaged ones from the store (ingest.Repair), which holds
// everything the index was built from, publishing a generation that lists
// the rebuilt shards instead. It takes its turn at the writer lock with
// the passes and merges.
func (d *daemon) repairLoop(ctx context.Context) {
	onKick(ctx, d.repairKick, func() { d.repairOnce(ctx) })
}

// onKick runs do each time kick fires, until ctx ends.
func onKick(ctx context.Context, kick <-chan struct{}, do func()) {
	for {
		select {
		case <-ctx.Done():
			return
		case <-kick:
		}
		do()
	}
}

func (d *daemon) repairOnce(ctx context.Context) {
	names := damagedShards(d.opts.Home)
	if len(names) == 0 {
		return
	}
	d.log.Printf("index shards damaged: %s; rebuilding them from the store", strings.Join(names, ", "))
	rec := &wake.Repair{At: time.Now().UTC(), Shards: names}
	rep, err := ingest.Repair(ctx, d.upkeep(), names)
	if errors.Is(err, ingest.ErrNotRepairable) && !slices.ContainsFunc(damagedShards(d.opts.Home), func(n string) bool {
		return slices.Contains(names, n)
	}) {
		return // a merge or another repair replaced them meanwhile
	}
	if ctx.Err() != nil {
		return
	}
	d.mu.Lock()
	if err != nil {
		rec.Error = err.Error()
		d.log.Printf("repair failed: %v", err)
	} else if rep.Published {
		rec.Generation = rep.Generation.Number
		d.merged = max(d.merged, rep.Generation.Number)
		d.log.Printf("generation %d: %d damaged shards rebuilt from the store", rec.Generation, len(names))
	}
	d.repair = rec
	d.mu.Unlock()
	debug.FreeOSMemory()
}

// damagedShards returns the shards of the active generation that cannot
// be opened (the check a search makes: sizes against the shard's sums,
// bleve and bolt opening it, the index format), sorted; none when there is
// no generation. A shard an earlier ctx wrote in an earlier index format
// is rebuilt as a damaged one is, so that an upgrade needs no new import.
// It reads no file whole, so it is cheap enough to run beside the passes;
// ctx verify also hashes every file.
func damagedShards(home string) []string {
	ro, err := store.OpenReadOnly(home)
	if err != nil {
		return nil
	}
	id, err := ro.Refs.Get(refs.Active)
	if err != nil {
		return nil
	}
	g, err := refs.Load(ro.Objects, id)
	if err != nil {
		return nil
	}
	var out []string
	for _, sh := range g.Shards {
		r, err := index.Open(store.At(home).Index(), []string{sh.Name})
		if err == nil {
			_ = r.Close()
		}
		if index.Rebuildable(err) {
			out = append(out, sh.Name)
		}
	}
	slices.Sort(out)
	return out
}
