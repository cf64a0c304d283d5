package claude

import "ctx/core"

// Root returns the directory Claude Code keeps its history in (sources.Rooted).
func (*Provider) Root(env core.Env) string { return HistoryRoot(env) }
