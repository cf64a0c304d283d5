package app

import (
	"context"

	"ctx/query"
)

// Resume says how to reopen a session in the agent that wrote it (kind
// "resume").
type Resume = query.Resume

// Resume builds the resume command of the session arg names (a session
// id, an event id, a unique ses_ prefix or the agent's native id).
func (a *App) Resume(ctx context.Context, arg string) (*Resume, error) {
	return readValue(ctx, a, func(r *query.Reader) (*Resume, error) { return r.Resume(arg) })
}

// ShellQuote joins words as a POSIX shell reads them back.
func ShellQuote(words ...string) string { return query.ShellQuote(words...) }
