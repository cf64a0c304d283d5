package codex

import (
	"os"

	"ctx/core"
)

// Root returns the directory Codex keeps its history in (sources.Rooted).
func (*Provider) Root(env core.Env) string { return codexHome(env) }

// DiscoverIn lists the history of a Codex home directory at root (a
// configured root).
func (*Provider) DiscoverIn(root string) ([]core.SourceFile, []core.Problem) {
	return discover(os.DirFS(root), root)
}
