package blame

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// FileView is the read model of ctx blame FILE[:A[-B]].
type FileView struct {
	File     string     `json:"file"`
	Lines    []LineView `json:"lines"`
	Problems []string   `json:"problems,omitempty"`
}

// LineView is one blamed line with its evidence (empty when no agent
// evidence names it).
type LineView struct {
	Line     int        `json:"line"`
	Commit   string     `json:"commit"`
	OrigPath string     `json:"orig_path"`
	OrigLine int        `json:"orig_line"`
	Text     string     `json:"text"`
	Evidence []Evidence `json:"evidence"`
}

// FileRequest selects lines of a file; Start 0 means the whole file, End 0
// means to the end.
type FileRequest struct {
	Path       string // as the user gave it
	Dir        string // the directory relative paths are resolved against
	Start, End int
}

// BlameFile joins git blame --porcelain with the notes of the commits it
// names and resolves their evidence.
func BlameFile(ctx context.Context, repo *Repo, req FileRequest, rs *Resolver) (*FileView, error) {
	rel, err := checkFile(ctx, repo, req)
	if err != nil {
		return nil, err
	}
	args := []string{"blame", "--porcelain"}
	if req.Start > 0 {
		end := ""
		if req.End > 0 {
			end = fmt.Sprint(req.End)
		}
		args = append(args, "-L", fmt.Sprintf("%d,%s", req.Start, end))
	}
	out, err := repo.Git(ctx, append(args, "--", rel)...)
	if err != nil {
		if strings.Contains(err.Error(), "has only") {
			return nil, fmt.Errorf("%s: %w", rel, ErrNoLinesInFile)
		}
		return nil, err
	}
	blamed := parsePorcelain(out)
	nc, err := NewNoteCache(ctx, repo)
	if err != nil {
		return nil, err
	}
	var commits []string
	for _, b := range blamed {
		commits = append(commits, b.Commit)
	}
	if err := nc.Load(ctx, commits); err != nil {
		return nil, err
	}
	v := &FileView{File: rel, Lines: make([]LineView, 0, len(blamed)), Problems: nc.Problems}
	for _, b := range blamed {
		lv := LineView{Line: b.Line, Commit: b.Commit, OrigPath: b.OrigPath, OrigLine: b.OrigLine, Text: b.Text,
			Evidence: []Evidence{}}
		if n := nc.Note(b.Commit); n != nil {
			for i := range n.Records {
				r := &n.Records[i]
				if r.File != nil && *r.File == b.OrigPath && r.Covers(b.OrigLine) {
					lv.Evidence = append(lv.Evidence, rs.Evidence(r)...)
				}
			}
		}
		v.Lines = append(v.Lines, lv)
	}
	return v, nil
}

// checkFile resolves the path to the repository and refuses paths outside
// it, untracked files, binary files and repositories without commits.
func checkFile(ctx context.Context, repo *Repo, req FileRequest) (string, error) {
	if req.Start < 0 || req.End < 0 || (req.End > 0 && req.End < req.Start) {
		return "", fmt.Errorf("%w: want FILE, FILE:A or FILE:A-B with 1 <= A <= B", ErrNoLinesInFile)
	}
	rel, err := repo.Rel(req.Dir, req.Path)
	if err != nil {
		return "", err
	}
	if _, err := repo.Resolve(ctx, "HEAD"); err != nil {
		return "", err
	}
	if _, err := repo.Git(ctx, "cat-file", "-e", "HEAD:"+rel); err != nil {
		return "", fmt.Errorf("%s: %w", rel, ErrNotTracked)
	}
	data, err := os.ReadFile(filepath.Join(repo.Root, filepath.FromSlash(rel)))
	if err != nil {
		s, _ := repo.Git(ctx, "cat-file", "blob", "HEAD:"+rel)
		data = []byte(s)
	}
	if bytes.IndexByte(data[:min(len(data), 8000)], 0) >= 0 {
		return "", fmt.Errorf("%s: %w", rel, ErrBinary)
	}
	return rel, nil
}
