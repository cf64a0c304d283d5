// Package sdk is the Go SDK of ctx: it reads a local ctx store from other Go
// programs through the same read models the CLI prints and the MCP server
// returns (the JSON field names are the contract).
//
// Every call pins the active generation once and reads only through it, so
// one answer never mixes generations. Paged reads return opaque cursors
// bound to the request and the generation: continuing after a new import
// fails with the typed code cursor_stale (restart from the first page);
// reusing a cursor with other arguments fails with cursor_mismatch; an
// edited cursor fails with invalid_cursor. Use CodeOf to read the code of
// any error.
//
// ShowSession follows the CLI's complete path (every selected event) when
// both ShowSessionOptions.Limit and .Cursor are unset, and the MCP page
// contract (spec 000) when either is set:
//
//	c, err := sdk.Open("") // $CTX_HOME, else $XDG_DATA_HOME/ctx, else ~/.local/share/ctx
//	if err != nil { ... }
//	opts := sdk.ShowSessionOptions{Mode: "log", Limit: 200}
//	for {
//		t, err := c.ShowSession(ctx, "ses_…", opts)
//		if err != nil { ... }
//		consume(t.Events)
//		if !t.Pagination.HasMore {
//			break
//		}
//		opts.Cursor = t.Pagination.NextCursor
//	}
//
// The SDK only reads: it creates nothing in the store, never imports
// history and never wakes the daemon. It is a thin face over package app,
// the use cases the CLI and the MCP server are built on.
package sdk
