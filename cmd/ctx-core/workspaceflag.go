package main

import (
	"path/filepath"
	"strings"

	"ctx/core"
)

// absDir reads a --workspace value the way workspaces are printed: ~ and
// ~/… are the home directory, a Windows path (C:\src, c:/src, as the
// agents on Windows record them) stays as given, and any other path is
// made absolute ("" stays "").
func absDir(env *Env, ws string) string {
	ws = strings.TrimSpace(ws)
	switch {
	case ws == "":
		return ""
	case core.IsWindowsPath(ws):
		return ws
	case ws == "~" || strings.HasPrefix(ws, "~/"):
		return filepath.Join(env.Home(), ws[1:])
	}
	if abs, err := env.Abs(ws); err == nil {
		return abs
	}
	return ws
}
