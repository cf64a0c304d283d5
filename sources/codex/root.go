package codex

import "ctx/core"

// Root returns the directory Codex keeps its history in (sources.Rooted).
func (*Provider) Root(env core.Env) string { return codexHome(env) }
