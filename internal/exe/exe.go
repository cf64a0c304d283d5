// Package exe finds the other binaries of ctx (ctx-core, ctx-mcp): beside
// the running executable, else on PATH.
package exe

import (
	"os"
	"os/exec"
	"path/filepath"
)

// Find returns the path of the binary called name: the one beside this
// executable (symlinks resolved, so a link to ctx finds its real
// siblings), else the one on PATH; ok is false when there is neither.
func Find(name string) (path string, ok bool) {
	if self, err := os.Executable(); err == nil {
		if real, err := filepath.EvalSymlinks(self); err == nil {
			self = real
		}
		p := filepath.Join(filepath.Dir(self), name)
		if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() && fi.Mode()&0o111 != 0 {
			return p, true
		}
	}
	if p, err := exec.LookPath(name); err == nil {
		return p, true
	}
	return "", false
}
