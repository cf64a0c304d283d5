// Package config reads config.toml ($XDG_CONFIG_HOME/ctx/config.toml,
// documented by `ctx docs show config`): configured source roots and
// groups, plugin sources, redaction, the daemon and the [semantic] table.
//
// It imports no provider parser: provider ids are checked against the
// list in core (core.BuiltinProviders), which the sources package keeps in
// step with its registered providers. So readers (query, the MCP server's
// search path) read one setting without linking any parser.
package config
