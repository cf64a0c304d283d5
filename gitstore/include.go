package gitstore

import (
	"path/filepath"
	"strings"

	"ctx/core"
)

// Include returns the view selector of the [sync.include] setting: a session
// whose workspace is one of workspaces or below one, or whose provider is
// one of providers. Both empty share nothing (nil). A session whose tree
// entry does not know its workspace is not shared by a workspace rule.
func Include(workspaces, providers []string) func(core.TreeEntry) bool {
	if len(workspaces) == 0 && len(providers) == 0 {
		return nil
	}
	ws := make([]string, len(workspaces))
	for i, w := range workspaces {
		ws[i] = filepath.Clean(w)
	}
	provs := map[string]bool{}
	for _, p := range providers {
		provs[p] = true
	}
	return func(e core.TreeEntry) bool {
		if provs[e.Provider] {
			return true
		}
		if e.Workspace == "" {
			return false
		}
		w := filepath.Clean(e.Workspace)
		for _, root := range ws {
			if w == root || strings.HasPrefix(w, strings.TrimSuffix(root, "/")+"/") {
				return true
			}
		}
		return false
	}
}
