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
}

// ParseWorkspaceScope cleans a workspace filter value: a path with only
// backslashes keeps them (a Windows workspace, as printed), any other is
// cleaned with forward slashes; trailing separators go, but a root ("/",
// "C:\") stays. ok is false for an empty value (no filter).
func ParseWorkspaceScope(ws string) (s WorkspaceScope, ok bool) {
	if strings.TrimSpace(ws) == "" {
		return s, false
	}
	sep := "/"
	if strings.Contains(ws, `\`) && !strings.Contains(ws, "/") {
		sep = `\`
	} else {
		ws = filepath.ToSlash(filepath.Clean(ws))
	}
	if trimmed := strings.TrimRight(ws, sep); trimmed != "" && !strings.HasSuffix(trimmed, ":") {
		ws = trimmed
	}
	prefix := ws
	if !strings.HasSuffix(ws, sep) {
		prefix += sep
	}
	return WorkspaceScope{Dir: ws, Prefix: prefix}, true
}

// Contains reports whether dir is the scope's directory or lies below it.
func (s WorkspaceScope) Contains(dir string) bool {
	return dir == s.Dir || strings.HasPrefix(dir, s.Prefix)
}
