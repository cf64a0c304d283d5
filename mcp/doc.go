// Package mcp is the MCP server of ctx (spec 000 and 001): tools over the
// read models of package query, cursors, limits and usage accounting. It is
// not built yet.
package mcp
