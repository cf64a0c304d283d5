package ui

import (
	"context"
	"net/http"
	"net/url"
	"path/filepath"
	"strconv"
	"strings"

	"ctx/app"
	"ctx/blame"
)

// maxListedFiles bounds the file picker of the blame page.
const maxListedFiles = 5000

// blameData is the blame pages' form and answer.
type blameData struct {
	Repo, File, Lines, Rev, Range string
	Files                         []string // tracked files, for the picker
	View                          *blame.FileView
	Rows                          []blameRow
	Commit                        *blame.CommitView
	PR                            *blame.PRView
}

// blameRow is one line of a file's blame; Same is set when its commit and
// evidence repeat the line above (the page shows them once per run).
type blameRow struct {
	blame.LineView
	Same bool
}

// repoOf opens the repository of the repo parameter (an absolute, clean
// directory), or the server's default repository when it is empty.
func (s *Server) repoOf(ctx context.Context, d *blameData) (*blame.Repo, error) {
	if d.Repo == "" {
		d.Repo = s.opts.Repo
	}
	if d.Repo == "" {
		return nil, nil
	}
	if !filepath.IsAbs(d.Repo) || filepath.Clean(d.Repo) != d.Repo {
		return nil, badRequest("repo must be an absolute directory path without . or .. parts")
	}
	return blame.OpenRepo(ctx, d.Repo)
}

func (s *Server) blameFile(w http.ResponseWriter, r *http.Request) error {
	q := r.URL.Query()
	d := &blameData{Repo: q.Get("repo"), File: q.Get("file"), Lines: q.Get("lines")}
	ctx := r.Context()
	repo, err := s.repoOf(ctx, d)
	if err != nil || repo == nil {
		return s.renderBlame(w, r, "blame", d, err)
	}
	d.Repo = repo.Root
	if d.File == "" {
		d.Files = trackedFiles(ctx, repo)
		return s.renderBlame(w, r, "blame", d, nil)
	}
	req := app.BlameRequest{Repo: repo.Root, File: d.File, Dir: repo.Root}
	if req.Start, req.End, err = parseLines(d.Lines); err != nil {
		return s.renderBlame(w, r, "blame", d, err)
	}
	res, err := s.app.Blame(ctx, req)
	if err == nil {
		d.View = res.File
		d.Rows = blameRows(d.View.Lines)
	}
	return s.renderBlame(w, r, "blame", d, err)
}

func (s *Server) blameCommit(w http.ResponseWriter, r *http.Request) error {
	d := &blameData{Repo: r.URL.Query().Get("repo"), Rev: r.URL.Query().Get("rev")}
	if d.Rev == "" {
		d.Rev = "HEAD"
	}
	repo, err := s.repoOf(r.Context(), d)
	if err == nil && repo == nil {
		err = badRequest("give a repository")
	}
	if err == nil {
		d.Repo = repo.Root
		var res *app.BlameResult
		if res, err = s.app.Blame(r.Context(), app.BlameRequest{Repo: repo.Root, Commit: d.Rev}); err == nil {
			d.Commit = res.Commit
		}
	}
	return s.renderBlame(w, r, "blame_commit", d, err)
}

func (s *Server) blamePR(w http.ResponseWriter, r *http.Request) error {
	d := &blameData{Repo: r.URL.Query().Get("repo"), Range: r.URL.Query().Get("range")}
	repo, err := s.repoOf(r.Context(), d)
	if err == nil && repo == nil {
		err = badRequest("give a repository")
	}
	if err == nil && d.Range != "" {
		d.Repo = repo.Root
		var res *app.BlameResult
		if res, err = s.app.Blame(r.Context(), app.BlameRequest{Repo: repo.Root, PR: d.Range}); err == nil {
			d.PR = res.PR
		}
	}
	return s.renderBlame(w, r, "blame_pr", d, err)
}

// blamePage carries the form, the answer and the error of a blame page.
type blamePage struct {
	*blameData
	Err *Error
}

func (s *Server) renderBlame(w http.ResponseWriter, r *http.Request, name string, d *blameData, err error) error {
	p := blamePage{blameData: d}
	status := http.StatusOK
	if err != nil {
		p.Err = classify(err)
		status = p.Err.Status
	}
	title := "Blame"
	if d.File != "" {
		title = oneLine(d.File) + " · blame"
	}
	return s.render(w, r, status, name, pageData{Title: title, Nav: "blame", Data: p})
}

// parseLines reads A or A-B (empty: the whole file).
func parseLines(s string) (int, int, error) {
	if s == "" {
		return 0, 0, nil
	}
	a, b, isRange := strings.Cut(s, "-")
	start, err1 := strconv.Atoi(a)
	end := start
	var err2 error
	if isRange {
		end, err2 = strconv.Atoi(b)
	}
	if err1 != nil || err2 != nil || start < 1 || end < start {
		return 0, 0, badRequest("lines must be A or A-B with 1 <= A <= B")
	}
	return start, end, nil
}

func blameRows(lines []blame.LineView) []blameRow {
	rows := make([]blameRow, len(lines))
	for i, l := range lines {
		l.Text, _ = clip(clean(l.Text), 2000)
		rows[i] = blameRow{LineView: l}
		if i > 0 && l.Commit == lines[i-1].Commit && sameEvidence(l.Evidence, lines[i-1].Evidence) {
			rows[i].Same = true
		}
	}
	return rows
}

func sameEvidence(a, b []blame.Evidence) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].CtxEventID != b[i].CtxEventID || a[i].CtxSessionID != b[i].CtxSessionID {
			return false
		}
	}
	return true
}

// trackedFiles lists the files git tracks at HEAD, for the picker.
func trackedFiles(ctx context.Context, repo *blame.Repo) []string {
	out, err := repo.Git(ctx, "ls-files", "-z", "--", ".")
	if err != nil {
		return nil
	}
	files := strings.Split(strings.TrimRight(out, "\x00"), "\x00")
	if len(files) > maxListedFiles {
		files = files[:maxListedFiles]
	}
	return files
}

// blameLink is the URL of a file's blame in repo.
func blameLink(repo, file string) string {
	return "/blame?" + url.Values{"repo": {repo}, "file": {file}}.Encode()
}
