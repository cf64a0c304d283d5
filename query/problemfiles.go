package query

import (
	"sort"

	"ctx/core"
)

// ProblemFile is a source file whose last import counted problems: its
// path (never its contents) and the problems by code.
type ProblemFile struct {
	Provider string         `json:"provider"`
	Path     string         `json:"path"`
	Problems map[string]int `json:"problems"`
	Missing  bool           `json:"missing,omitempty"` // the file is gone (its sessions are kept)
}

// ProblemFiles returns up to limit files of the pinned generation with
// problems, most problems first, and how many there are in all.
func (r *Reader) ProblemFiles(limit int) ([]ProblemFile, int, error) {
	c, err := core.LoadCursors(r.store, r.gen.Cursors)
	if err != nil {
		return nil, 0, wrapObjErr(err)
	}
	out := []ProblemFile{}
	for _, f := range c.Files {
		if len(f.Problems) > 0 || f.Missing {
			out = append(out, ProblemFile{Provider: f.Provider, Path: f.Path, Problems: f.Problems, Missing: f.Missing})
		}
	}
	count := func(p ProblemFile) int {
		n := 0
		for _, v := range p.Problems {
			n += v
		}
		return n
	}
	sort.SliceStable(out, func(i, j int) bool { return count(out[i]) > count(out[j]) })
	total := len(out)
	if len(out) > limit {
		out = out[:limit]
	}
	for i := range out {
		if out[i].Problems == nil {
			out[i].Problems = map[string]int{}
		}
	}
	return out, total, nil
}
