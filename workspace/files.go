package workspace

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

// EntryPoints are the files a reader of a repository opens first, in order;
// a pattern with * is a filepath.Glob under the root.
var EntryPoints = []string{
	"AGENTS.md", "CLAUDE.md", "README.md", "README", "readme.md", "DESIGN.md", "ARCHITECTURE.md",
	"go.mod", "package.json", "Cargo.toml", "pyproject.toml", "Makefile",
	"main.go", "cmd/*/main.go", "src/index.ts", "src/index.js", "src/main.ts", "src/main.rs", "src/lib.rs",
	"index.js", "main.py", "app.py",
}

// candidate is a file to consider for keyFiles, in rank order.
type candidate struct {
	rel    string
	reason string
}

// Reasons of KeyFile.Reason.
const (
	ReasonEdited     = "edited"
	ReasonRead       = "read"
	ReasonEntryPoint = "entry_point"
)

// rank orders the files of activity (most recent first, an edit before a
// read at the same time), then the entry points; paths outside root, plan
// files and repeats are left out.
func rank(root string, activity []Activity, skip map[string]bool) []candidate {
	type agg struct {
		at   time.Time
		edit bool
	}
	by := map[string]*agg{}
	for _, a := range activity {
		rel, ok := relTo(root, a.Path)
		if !ok || skip[rel] {
			continue
		}
		g := by[rel]
		if g == nil {
			g = &agg{}
			by[rel] = g
		}
		if a.At.After(g.at) {
			g.at = a.At
		}
		g.edit = g.edit || a.Edit
	}
	var out []candidate
	for rel := range by {
		reason := ReasonRead
		if by[rel].edit {
			reason = ReasonEdited
		}
		out = append(out, candidate{rel: rel, reason: reason})
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := by[out[i].rel], by[out[j].rel]
		if !a.at.Equal(b.at) {
			return a.at.After(b.at)
		}
		if a.edit != b.edit {
			return a.edit
		}
		return out[i].rel < out[j].rel
	})
	seen := map[string]bool{}
	for _, c := range out {
		seen[c.rel] = true
	}
	for _, p := range EntryPoints {
		matches := []string{p}
		if strings.Contains(p, "*") {
			matches, _ = filepath.Glob(filepath.Join(root, p))
			sort.Strings(matches)
			for i := range matches {
				matches[i], _ = filepath.Rel(root, matches[i])
			}
		}
		for _, rel := range matches {
			rel = filepath.ToSlash(rel)
			if !seen[rel] && !skip[rel] {
				seen[rel] = true
				out = append(out, candidate{rel: rel, reason: ReasonEntryPoint})
			}
		}
	}
	return out
}

// relTo returns p relative to root (slash-separated) when p is inside it.
func relTo(root, p string) (string, bool) {
	if p == "" {
		return "", false
	}
	if !filepath.IsAbs(p) {
		p = filepath.Join(root, p)
	}
	rel, err := filepath.Rel(root, filepath.Clean(p))
	if err != nil || rel == "." || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", false
	}
	rel = filepath.ToSlash(rel)
	if rel == ".git" || strings.HasPrefix(rel, ".git/") {
		return "", false
	}
	return rel, true
}

// errSkip marks a file that is not text or not a regular file inside root.
var errSkip = errors.New("not a text file of the workspace")

// readText reads at most max bytes of a regular text file inside root (a
// symlink is followed only when it stays inside). It returns the text, the
// file's size and whether it was cut at max.
func readText(root, rel string, max int64) (string, int64, bool, error) {
	p := filepath.Join(root, filepath.FromSlash(rel))
	real, err := filepath.EvalSymlinks(p)
	if err != nil {
		return "", 0, false, err
	}
	if realRoot, err := filepath.EvalSymlinks(root); err == nil {
		if _, ok := relTo(realRoot, real); !ok {
			return "", 0, false, errSkip
		}
	}
	f, err := os.Open(real)
	if err != nil {
		return "", 0, false, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() {
		return "", 0, false, errSkip
	}
	data, err := io.ReadAll(io.LimitReader(f, max))
	if err != nil {
		return "", 0, false, err
	}
	if bytes.IndexByte(data[:min(len(data), 8000)], 0) >= 0 {
		return "", 0, false, errSkip
	}
	return string(data), fi.Size(), fi.Size() > int64(len(data)), nil
}
