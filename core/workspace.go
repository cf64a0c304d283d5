package core

import (
	"path/filepath"
	"strings"
)

// WorkspaceScope is a workspace filter: the directory itself and every
// path under it (/a/b matches /a/b and /a/b/c, not /a/bc). It is the one
// rule of the lexical index, the vectors and listing.
type WorkspaceScope struct {
	Dir    string // the cleaned directory
	Prefix string // Dir with its separator: what a path under it starts with
	// Windows is set for a Windows path (C:\src, c:/src, \\host\share):
	// Windows does not tell the separators or the case apart, and agents
	// record the same directory either way, so neither counts.
	Windows bool
}

// ParseWorkspaceScope cleans a workspace filter value: a Windows path
// keeps its separators (it is matched either way), any other is cleaned
// with forward slashes; trailing separators go, but a root ("/", "C:\")
// stays. ok is false for an empty value (no filter).
func ParseWorkspaceScope(ws string) (s WorkspaceScope, ok bool) {
	ws = strings.TrimSpace(ws)
	if ws == "" {
		return s, false
	}
	win := IsWindowsPath(ws)
	sep := "/"
	switch {
	case win:
		sep = `\`
		if !strings.Contains(ws, `\`) {
			sep = "/"
		}
	case strings.Contains(ws, `\`) && !strings.Contains(ws, "/"):
		sep = `\`
	default:
		ws = filepath.ToSlash(filepath.Clean(ws))
	}
	if trimmed := strings.TrimRight(ws, `\/`); trimmed != "" && !strings.HasSuffix(trimmed, ":") {
		ws = trimmed
	} else if win && strings.HasSuffix(trimmed, ":") {
		ws = trimmed + sep // a drive: C: is C:\
	}
	prefix := ws
	if !strings.HasSuffix(ws, sep) {
		prefix += sep
	}
	return WorkspaceScope{Dir: ws, Prefix: prefix, Windows: win}, true
}

// IsWindowsPath reports whether p has the shape of an absolute Windows
// path: a drive letter and a colon (C:, C:\x, c:/x) or a UNC path
// (\\host\share).
func IsWindowsPath(p string) bool {
	if strings.HasPrefix(p, `\\`) {
		return true
	}
	if len(p) < 2 || p[1] != ':' {
		return false
	}
	c := p[0] | 0x20
	return c >= 'a' && c <= 'z' && (len(p) == 2 || p[2] == '\\' || p[2] == '/')
}

// Contains reports whether dir is the scope's directory or lies below it.
func (s WorkspaceScope) Contains(dir string) bool {
	if s.Windows {
		d, pre := windowsKey(dir), windowsKey(s.Prefix)
		return d == windowsKey(s.Dir) || strings.HasPrefix(d, pre)
	}
	return dir == s.Dir || strings.HasPrefix(dir, s.Prefix)
}

// windowsKey is a Windows path compared as Windows compares it: case
// folded, one separator.
func windowsKey(p string) string {
	return strings.ToLower(strings.ReplaceAll(p, `\`, "/"))
}
