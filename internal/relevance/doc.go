// Package relevance measures how well search finds known items in the real
// agent fixtures.
//
// A judged set (judged.json) lists known-item queries, each of one kind
// (keyword recollections, exact phrases, identifiers, file paths, error
// messages, shell commands, natural-language questions) with the events
// that answer it, named by ctx_event_id (stable across imports: it is
// derived from the provider's own session and record identity). Layout
// places the fixtures at each agent's default path under a scratch home,
// Build imports them as `ctx import` would, and Evaluate runs every query
// and reports MRR@10, success@1 and success@5 per kind and overall.
// cmd/ctx-relevance prints the report; the package's test fails when the
// figures fall below the floors the ranking has reached.
package relevance
