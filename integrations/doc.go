// Package integrations adds, removes and inspects the ctx MCP server entry in
// the configuration files of coding agents and editors (Claude Code, Cursor,
// Codex, Gemini CLI, VS Code, Windsurf, Zed, OpenCode and Copilot CLI).
//
// Every change is a minimal edit of the existing file: JSON and JSONC files are
// parsed with github.com/tailscale/hujson and only the ctx member is inserted,
// replaced or deleted, so comments, key order and formatting elsewhere stay
// byte for byte; Codex's config.toml is edited textually, replacing or
// appending only the [mcp_servers.ctx] table and its sub-tables. Each edit is
// verified by decoding the file before and after and comparing everything but
// the ctx entry, and files are replaced atomically (temporary file + rename)
// with their original mode.
//
// Semantics follow spec 000: an identical entry is a no-op, a conflicting
// entry (same name, different command) is left untouched unless forced,
// removing an absent entry succeeds, and a file that does not parse is never
// written and is reported with an *InvalidConfigError.
package integrations
