// Package app is ctx's use-case layer: every read model and its wiring,
// written once, below the front ends (cmd/ctx, mcp, the viewer, the SDK).
//
// An App is one store ($CTX_HOME) seen from one environment (home
// directory, environment variables, clock). Its methods are the use cases:
// Search, ShowSession, ShowEvent, ListEvents, Sources, Status, Blame and
// Import. Each resolves the configuration, wakes the daemon where a read
// should be fresh, pins one generation (from a pool when the front end is
// long-running) and returns the read model the CLI prints as JSON and the
// MCP server returns as structuredContent. Front ends only map their
// arguments to a request and render the answer.
//
// CodeOf classifies every error a use case returns into the stable codes
// that the CLI's exit status and the MCP error object both derive from.
package app
