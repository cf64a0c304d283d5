// Package config reads config.toml ($XDG_CONFIG_HOME/ctx/config.toml,
// documented by `ctx docs show config`): configured source roots and
// groups, plugin sources, redaction, the daemon and the [semantic] table.
//
// It imports no other package of ctx: provider ids are checked against
// BuiltinProviders, which a test of the sources package keeps in step with
// the registered providers. So readers (query, the MCP server's search
// path) read one setting without linking any parser.
package config
