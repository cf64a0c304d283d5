// Package layout resolves where a store lives and where its daemon
// listens, with the standard library alone: the ctx front, which must
// start in a few milliseconds, links it without the store itself.
package layout

import "path/filepath"

// Home resolves the store directory: $CTX_HOME, else $XDG_DATA_HOME/ctx,
// else ~/.local/share/ctx under userHome.
func Home(getenv func(string) string, userHome string) string {
	if h := getenv("CTX_HOME"); h != "" {
		return h
	}
	if x := getenv("XDG_DATA_HOME"); x != "" {
		return filepath.Join(x, "ctx")
	}
	return filepath.Join(userHome, ".local", "share", "ctx")
}

// Socket is the daemon's wake socket of the store at home.
func Socket(home string) string { return filepath.Join(home, "daemon.sock") }
