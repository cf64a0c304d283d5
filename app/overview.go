package app

import (
	"context"

	"ctx/core"
	"ctx/query"
)

type (
	// SessionOverview is a parent session's view beside its transcript:
	// its row, its subagents and its compactions (kind "session_overview").
	SessionOverview = query.SessionOverview
	// CompactionMark is one compaction of a session's context.
	CompactionMark = query.CompactionMark
)

// SessionOverview returns the overview of the session arg names (any form
// ResolveSession takes).
func (a *App) SessionOverview(ctx context.Context, arg string) (*SessionOverview, error) {
	var out *SessionOverview
	err := a.Pinned(ctx, func(p *Pinned) (err error) {
		id, err := p.ResolveSession(ctx, arg)
		if err != nil {
			return err
		}
		out, err = p.SessionOverview(ctx, id)
		return err
	})
	return out, err
}

// SessionOverview is App.SessionOverview on the pinned generation.
func (p *Pinned) SessionOverview(ctx context.Context, id core.SessionID) (*SessionOverview, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return p.r.SessionOverview(id)
}
