package app

import (
	"context"
	"strings"
	"time"

	"ctx/core"
	"ctx/ingest"
	"ctx/maint"
	"ctx/query"
	"ctx/store"
)

// KindForget is the kind of ForgetResult.
const KindForget = "forget"

// ForgetRequest selects what ctx forget forgets: sessions named as ctx
// resume takes them (ids, event ids, prefixes, native ids), or every
// session in Workspace (whose last activity is before Before, when set).
// With Undo it restores the named forgotten sessions, or with none those
// of the most recent forget; with DryRun it only lists.
type ForgetRequest struct {
	Sessions  []string
	Workspace string
	Before    time.Time
	Undo      bool
	DryRun    bool
	Busy      func() // called when another writer holds the store
}

// ForgottenRow is one session a forget took out (or an undo restored).
type ForgottenRow struct {
	CtxSessionID    string    `json:"ctx_session_id"`
	Provider        string    `json:"provider"`
	NativeSessionID string    `json:"native_session_id"`
	Workspace       string    `json:"workspace"`
	Events          int       `json:"events"`
	Reason          string    `json:"reason"`
	At              time.Time `json:"at"`
}

// ForgetResult is the answer of ctx forget (kind "forget").
type ForgetResult struct {
	Kind       string         `json:"kind"`
	Undo       bool           `json:"undo"`
	DryRun     bool           `json:"dry_run"`
	Sessions   []ForgottenRow `json:"sessions"`
	Events     int            `json:"events"`
	Generation uint64         `json:"generation,omitempty"` // the generation published
	// Unreadable are restored sessions whose source file is gone: no
	// import can bring them back.
	Unreadable []string `json:"unreadable"`
}

// Forget takes the selected sessions out of the store for good (or with
// Undo lets the next import bring them back): the next generation has no
// entry, no search hit and no vector of them, later imports skip them, and
// ctx gc removes their bytes.
func (a *App) Forget(ctx context.Context, req ForgetRequest) (*ForgetResult, error) {
	if len(req.Sessions) == 0 && req.Workspace == "" && !req.Undo {
		return nil, query.Errorf(query.CodeInvalidRequest, "name the sessions to forget, or --workspace")
	}
	if req.Undo && (req.Workspace != "" || !req.Before.IsZero()) {
		return nil, query.Errorf(query.CodeInvalidRequest, "--undo takes session ids (or none: the last forget), not a workspace")
	}
	if req.Workspace == "" && !req.Before.IsZero() {
		return nil, query.Errorf(query.CodeInvalidRequest, "--before selects within --workspace")
	}
	ids, err := a.forgetIDs(ctx, req)
	if err != nil {
		return nil, err
	}
	rep, err := ingest.Forget(ctx, a.ingestOptions(req.Busy), ingest.ForgetRequest{Sessions: ids,
		Workspace: req.Workspace, Before: req.Before, Undo: req.Undo, DryRun: req.DryRun})
	if err != nil {
		return nil, err
	}
	return forgetResult(req, rep), nil
}

// forgetIDs resolves the named sessions: through the tree to forget, and
// through the forgotten set to undo.
func (a *App) forgetIDs(ctx context.Context, req ForgetRequest) ([]core.SessionID, error) {
	if len(req.Sessions) == 0 {
		if !store.Exists(a.home) {
			return nil, errNoStore()
		}
		return nil, nil
	}
	var ids []core.SessionID
	err := a.read(ctx, func(r *query.Reader) error {
		for _, arg := range req.Sessions {
			var id core.SessionID
			var err error
			if req.Undo {
				id, err = resolveForgotten(r, arg)
			} else {
				id, err = r.ResolveSession(arg)
			}
			if err != nil {
				return err
			}
			ids = append(ids, id)
		}
		return nil
	})
	return ids, err
}

// resolveForgotten finds a forgotten session by id or unique ses_ prefix.
func resolveForgotten(r *query.Reader, arg string) (core.SessionID, error) {
	set, err := r.Forgotten()
	if err != nil {
		return core.SessionID{}, err
	}
	arg = strings.ToLower(strings.TrimSpace(arg))
	var hits []core.SessionID
	for _, e := range set.Live() {
		if s := e.Session.String(); s == arg || (len(arg) >= 8 && strings.HasPrefix(s, arg)) || e.NativeID == arg {
			hits = append(hits, e.Session)
		}
	}
	switch len(hits) {
	case 1:
		return hits[0], nil
	case 0:
		return core.SessionID{}, query.Errorf(query.CodeNotFound, "no forgotten session %q (ctx forget --undo --dry-run lists the last forget)", arg)
	}
	return core.SessionID{}, query.Errorf(query.CodeInvalidRequest, "%q matches %d forgotten sessions: give more of the id", arg, len(hits))
}

func forgetResult(req ForgetRequest, rep *ingest.ForgetReport) *ForgetResult {
	out := &ForgetResult{Kind: KindForget, Undo: req.Undo, DryRun: req.DryRun, Sessions: []ForgottenRow{},
		Events: rep.Events, Unreadable: []string{}}
	if rep.Published {
		out.Generation = rep.Generation
	}
	for _, e := range rep.Sessions {
		out.Sessions = append(out.Sessions, ForgottenRow{CtxSessionID: e.Session.String(), Provider: e.Provider,
			NativeSessionID: e.NativeID, Workspace: e.Workspace, Events: e.Events, Reason: e.Reason, At: e.At.UTC()})
	}
	for _, id := range rep.Unreadable {
		out.Unreadable = append(out.Unreadable, id.String())
	}
	return out
}

// ingestOptions are the options of a write that reads no source: a
// forget, a purge.
func (a *App) ingestOptions(busy func()) ingest.Options {
	return ingest.Options{Home: a.home, Env: a.env, Version: a.version, Now: a.now, Busy: busy}
}

// GCResult is the answer of ctx gc: what the purge re-indexed and what gc
// removed.
type GCResult struct {
	maint.GCReport
	// ShardsReindexed counts the shards re-indexed without the events of
	// forgotten sessions.
	ShardsReindexed int `json:"shards_reindexed"`
	// TombstonesDropped counts the tombstones no copy of their event
	// needed any more (ingest.SweepTombstones).
	TombstonesDropped int `json:"tombstones_dropped"`
}

// GC re-indexes the shards that still hold events of forgotten sessions,
// drops the tombstones no copy needs, then removes every object and shard
// no kept generation reaches (the generations older than a forget are not
// kept).
func (a *App) GC(ctx context.Context, keep time.Duration, busy func()) (*GCResult, error) {
	if !store.Exists(a.home) {
		return &GCResult{}, nil
	}
	n, err := ingest.Purge(ctx, a.ingestOptions(busy))
	if err != nil {
		return nil, err
	}
	dropped, err := ingest.SweepTombstones(ctx, a.ingestOptions(busy))
	if err != nil {
		return nil, err
	}
	rep, err := maint.GC(ctx, a.home, maint.GCOptions{Keep: keep, Now: a.now(), Busy: busy})
	if err != nil {
		return nil, err
	}
	return &GCResult{GCReport: *rep, ShardsReindexed: n, TombstonesDropped: dropped}, nil
}
