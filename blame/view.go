package blame

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
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
	// Shallow marks a line blamed on a boundary commit of a shallow clone:
	// git stopped there for lack of history, so the line may be older and
	// its evidence, if any, is in commits not fetched.
	Shallow bool `json:"shallow,omitempty"`
}

// FileRequest selects lines of a file; Start 0 means the whole file, End 0
// means to the end.
type FileRequest struct {
	Path       string // as the user gave it
	Dir        string // the directory relative paths are resolved against
	Start, End int

	early *pendingBlame // git blame started by StartBlame
}

// pendingBlame is a git blame running in the background.
type pendingBlame struct {
	cancel context.CancelFunc
	done   chan blameResult
}

type blameResult struct {
	out string
	err error
}

// FollowFlags are the git blame options ctx blame adds to follow a line
// to the commit that wrote its text: through whitespace-only changes (-w,
// a formatter's later pass), moves within the file (-M) and moves from
// other files the same commit changed (-C: a function moved to another
// file, a file split in two). The origin git names (commit, path, line)
// is where the note's record is. Not -C -C: it also looks in every file of
// the commit that creates a file, so text an agent writes into a new file
// that a human had typed elsewhere before goes to the human's commit.
var FollowFlags = []string{"-w", "-M", "-C"}

// blameArgs are the arguments of git blame for req's lines of path.
func (req *FileRequest) blameArgs(path string) []string {
	args := append([]string{"blame", "--porcelain"}, FollowFlags...)
	if req.Start > 0 {
		end := ""
		if req.End > 0 {
			end = fmt.Sprint(req.End)
		}
		args = append(args, "-L", fmt.Sprintf("%d,%s", req.Start, end))
	}
	return append(args, "--", path)
}

func startBlame(ctx context.Context, dir string, args []string) *pendingBlame {
	ctx, cancel := context.WithCancel(ctx)
	p := &pendingBlame{cancel: cancel, done: make(chan blameResult, 1)}
	go func() {
		out, err := gitOut(ctx, dir, nil, args...)
		p.done <- blameResult{out, err}
	}()
	return p
}

// StartBlame starts git blame for req in req.Dir with the path as given,
// before the repository is even opened: git blame is most of the wall
// time of BlameFile, so everything else runs while it does. BlameFile
// takes the result, or discards it and runs its own when the request turns
// out to be refused or the early run failed. A request with a bad line
// range starts nothing.
func StartBlame(ctx context.Context, req *FileRequest) {
	if req.Start < 0 || req.End < 0 || (req.End > 0 && req.End < req.Start) || req.Path == "" {
		return
	}
	req.early = startBlame(ctx, req.Dir, req.blameArgs(req.Path))
}

// prefetchNotes bounds the notes BlameFile reads while git blame runs: up
// to this many it reads them all and the sessions their records of the file
// cite; above it, only the notes of the commits blame names, afterwards.
const prefetchNotes = 4096

// BlameFile joins git blame --porcelain with the notes of the commits it
// names and resolves their evidence. While git blame runs (one process,
// most of the wall time) it reads the notes and the sessions they cite for
// the file, so that little is left to do when blame ends.
func BlameFile(ctx context.Context, repo *Repo, req FileRequest, rs *Resolver) (*FileView, error) {
	running := req.early
	defer func() {
		if running != nil {
			running.cancel()
		}
	}()
	rel, err := checkFile(repo, req)
	if err != nil {
		return nil, err
	}
	if running == nil {
		running = startBlame(ctx, repo.Root, req.blameArgs(rel))
	}
	nc, err := NewNoteCache(ctx, repo)
	if err == nil && len(nc.blobs) <= prefetchNotes {
		err = nc.Load(ctx, nc.Commits())
		if err == nil {
			rs.Prefetch(nc.Cited(rel))
		}
	}
	res := <-running.done
	if res.err != nil && running == req.early {
		// The early run saw the path as given; run again as resolved.
		running.cancel()
		running = startBlame(ctx, repo.Root, req.blameArgs(rel))
		res = <-running.done
	}
	if res.err != nil {
		return nil, blameFailed(ctx, repo, rel, res.err)
	}
	if err != nil {
		return nil, err
	}
	blamed := parsePorcelain(res.out)
	var commits []string
	for _, b := range blamed {
		commits = append(commits, b.Commit)
	}
	if err := nc.Load(ctx, commits); err != nil {
		return nil, err
	}
	v := &FileView{File: rel, Lines: make([]LineView, 0, len(blamed)), Problems: nc.ProblemsOf(commits)}
	var shallow map[string]bool
	shallowLines := 0
	evidence := map[*Record][]Evidence{} // a record's evidence, resolved once
	for _, b := range blamed {
		if b.Boundary && shallow == nil {
			if shallow = repo.Shallow(ctx); shallow == nil {
				shallow = map[string]bool{}
			}
		}
		lv := LineView{Line: b.Line, Commit: b.Commit, OrigPath: b.OrigPath, OrigLine: b.OrigLine, Text: b.Text,
			Evidence: []Evidence{}, Shallow: b.Boundary && shallow[b.Commit]}
		if lv.Shallow {
			shallowLines++
		}
		if n := nc.Note(b.Commit); n != nil {
			for i := range n.Records {
				r := &n.Records[i]
				if r.File != nil && *r.File == b.OrigPath && r.Covers(b.OrigLine) {
					ev, ok := evidence[r]
					if !ok {
						ev = rs.Evidence(r)
						evidence[r] = ev
					}
					if len(lv.Evidence) == 0 {
						lv.Evidence = ev // shared by the record's lines (full: an append copies)
					} else {
						lv.Evidence = append(lv.Evidence, ev...)
					}
				}
			}
		}
		v.Lines = append(v.Lines, lv)
	}
	if shallowLines > 0 {
		v.Problems = append(v.Problems, fmt.Sprintf("shallow clone: %d lines are blamed on the boundary commit "+
			"where the fetched history stops; they may be older, and evidence in earlier commits is not here "+
			"(git fetch --unshallow brings the history)", shallowLines))
	}
	return v, nil
}

// checkFile resolves the path to the repository and refuses impossible
// ranges, paths outside it and binary files (judged by the working copy,
// which is what git blame reads). Whether the path is tracked is left to
// git blame; blameFailed explains its failures.
func checkFile(repo *Repo, req FileRequest) (string, error) {
	if req.Start < 0 || req.End < 0 || (req.End > 0 && req.End < req.Start) {
		return "", fmt.Errorf("%w: want FILE, FILE:A or FILE:A-B with 1 <= A <= B", ErrNoLinesInFile)
	}
	rel, err := repo.Rel(req.Dir, req.Path)
	if err != nil {
		return "", err
	}
	f, err := os.Open(filepath.Join(repo.Root, filepath.FromSlash(rel)))
	if err != nil {
		return rel, nil
	}
	defer f.Close()
	head := make([]byte, 8000)
	n, _ := io.ReadFull(f, head)
	if bytes.IndexByte(head[:n], 0) >= 0 {
		return "", fmt.Errorf("%s: %w", rel, ErrBinary)
	}
	return rel, nil
}

// blameFailed turns a failed git blame into the condition behind it: a
// range past the end of the file, a repository without commits, a path not
// tracked at HEAD, a binary file at HEAD.
func blameFailed(ctx context.Context, repo *Repo, rel string, err error) error {
	if strings.Contains(err.Error(), "has only") {
		return fmt.Errorf("%s: %w", rel, ErrNoLinesInFile)
	}
	if kind, e := repo.Git(ctx, "cat-file", "-t", "HEAD:"+rel); e != nil || strings.TrimSpace(kind) != "blob" {
		if _, e := repo.Resolve(ctx, "HEAD"); e != nil {
			return e
		}
		return fmt.Errorf("%s: %w", rel, ErrNotTracked)
	}
	if data, e := repo.Git(ctx, "cat-file", "blob", "HEAD:"+rel); e == nil && strings.IndexByte(data[:min(len(data), 8000)], 0) >= 0 {
		return fmt.Errorf("%s: %w", rel, ErrBinary)
	}
	return err
}

// AppendJSON appends the view's compact JSON, byte for byte what an
// encoding/json Encoder without HTML escaping writes, faster for a large
// file: the lines of one record share their evidence, encoded once.
func (v *FileView) AppendJSON(dst []byte) ([]byte, error) {
	head, err := marshalNoHTML(struct {
		File string `json:"file"`
	}{v.File})
	if err != nil {
		return nil, err
	}
	dst = append(dst, head[:len(head)-1]...)
	dst = append(dst, `,"lines":[`...)
	type bare struct { // LineView up to its evidence
		Line     int    `json:"line"`
		Commit   string `json:"commit"`
		OrigPath string `json:"orig_path"`
		OrigLine int    `json:"orig_line"`
		Text     string `json:"text"`
	}
	type shared struct {
		first *Evidence
		n     int
		null  bool
	}
	encoded := map[shared][]byte{}
	for i := range v.Lines {
		l := &v.Lines[i]
		if i > 0 {
			dst = append(dst, ',')
		}
		b, err := marshalNoHTML(bare{l.Line, l.Commit, l.OrigPath, l.OrigLine, l.Text})
		if err != nil {
			return nil, err
		}
		dst = append(dst, b[:len(b)-1]...)
		dst = append(dst, `,"evidence":`...)
		var ev []byte
		key := shared{n: len(l.Evidence), null: l.Evidence == nil}
		if len(l.Evidence) > 0 {
			key.first = &l.Evidence[0]
		}
		if ev = encoded[key]; ev == nil {
			if ev, err = marshalNoHTML(l.Evidence); err != nil {
				return nil, err
			}
			encoded[key] = ev
		}
		dst = append(dst, ev...)
		if l.Shallow {
			dst = append(dst, `,"shallow":true`...)
		}
		dst = append(dst, '}')
	}
	dst = append(dst, ']')
	if len(v.Problems) > 0 {
		b, err := marshalNoHTML(v.Problems)
		if err != nil {
			return nil, err
		}
		dst = append(dst, `,"problems":`...)
		dst = append(dst, b...)
	}
	return append(dst, '}'), nil
}

// marshalNoHTML is json.Marshal without escaping <, > and &.
func marshalNoHTML(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}
