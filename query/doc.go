// Package query is the read side shared by the CLI and the MCP server:
// search, show, status and sources, each returning the read model that both
// print (JSON field names are the contract).
//
// Vocabulary:
//   - Pin: every read resolves refs/active once (Open) and reads only
//     through that generation, so one answer never mixes generations.
//   - Hydrate: turn an index hit into its stored event by reading the chunk
//     object the hit names (re-hashed on read like every object).
//   - Error codes: the stable, user-facing codes of this file's Code
//     constants; the CLI maps them to exit codes, MCP to error_code.
package query
