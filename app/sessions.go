package app

import (
	"context"

	"ctx/core"
	"ctx/query"
)

// The session browser's read models: one list row per session, built from
// the generation's tree alone (ctx list sessions, MCP list_sessions, the
// viewer's session list).
type (
	// SessionsRequest selects a page of sessions.
	SessionsRequest = query.SessionsRequest
	// SessionList is a page of sessions (kind "session_list").
	SessionList = query.SessionList
	// SessionRow is one session of a list.
	SessionRow = query.SessionRow
	// FilterSelection echoes a resolved session filter.
	FilterSelection = query.FilterSelection
)

// Session list sorts and limits.
const (
	SortLastActivity     = query.SortLastActivity
	SortStarted          = query.SortStarted
	SortEvents           = query.SortEvents
	SortName             = query.SortName
	DefaultSessionsLimit = query.DefaultSessionsLimit
	MaxSessionsLimit     = query.MaxSessionsLimit
)

// ListSessions returns one page of the sessions the request selects, in
// its sort order. Continue with the page's NextCursor and the same request.
func (a *App) ListSessions(ctx context.Context, req SessionsRequest) (*SessionList, error) {
	return pinnedValue(ctx, a, func(p *Pinned) (*SessionList, error) { return p.ListSessions(ctx, req) })
}

// ListSessions is App.ListSessions on the pinned generation.
func (p *Pinned) ListSessions(ctx context.Context, req SessionsRequest) (*SessionList, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return p.r.ListSessions(req)
}

// RecentSessions returns the n most recently active sessions (what a shell
// completes a session argument with). No store is no sessions.
func (a *App) RecentSessions(ctx context.Context, n int) ([]SessionRow, error) {
	list, err := a.ListSessions(ctx, SessionsRequest{Limit: n})
	if CodeOf(err) == query.CodeNoHistory {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return list.Sessions, nil
}

// ResolveSession turns what a user typed for a session into its id: a
// session id, an event id, a unique ses_ prefix or the agent's native id.
// An ambiguous prefix is invalid_request naming the candidates.
func (p *Pinned) ResolveSession(ctx context.Context, arg string) (core.SessionID, error) {
	if err := ctx.Err(); err != nil {
		return core.SessionID{}, err
	}
	return p.r.ResolveSession(arg)
}

// SessionRow returns the list row of the session arg names (any form
// ResolveSession takes).
func (a *App) SessionRow(ctx context.Context, arg string) (*SessionRow, error) {
	return pinnedValue(ctx, a, func(p *Pinned) (*SessionRow, error) { return p.SessionRow(ctx, arg) })
}

// SessionRow is App.SessionRow on the pinned generation.
func (p *Pinned) SessionRow(ctx context.Context, arg string) (*SessionRow, error) {
	id, err := p.ResolveSession(ctx, arg)
	if err != nil {
		return nil, err
	}
	return p.r.SessionRow(id)
}
