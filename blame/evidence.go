package blame

import (
	"context"
	"strings"
	"time"

	"ctx/core"
	"ctx/query"
)

// EvRef names one agent event (or, with EventID empty, one session).
type EvRef struct {
	SessionID, EventID, Provider, Native string
}

// Written holds the lines agent edit events wrote in a repository: by path
// relative to the root, the runs of lines (hunks) each event wrote there, in
// the order the events came.
type Written struct {
	Files  map[string][]Hunk
	Events []EvRef
	// Active are the sessions that worked in the repository during the
	// window, in the order first seen.
	Active []EvRef
}

// Collect reads the events of the pinned generation since since that
// belong to repo: their session's workspace is the root or below it, or
// they touch a file under it.
func Collect(ctx context.Context, rd *query.Reader, repo *Repo, since time.Time) (*Written, error) {
	w := &Written{Files: map[string][]Hunk{}}
	c := &collector{rd: rd, repo: repo, w: w, natives: map[string]string{}, seen: map[string]bool{},
		evAt: map[string]int{}}
	req := query.ListRequest{Filter: core.Filter{Since: since}, Content: query.ContentFull, Limit: query.MaxPageLimit}
	for {
		page, err := rd.ListEvents(ctx, req)
		if err != nil {
			return nil, err
		}
		for i := range page.Events {
			c.row(&page.Events[i])
		}
		if page.Complete || page.NextCursor == "" {
			return w, nil
		}
		req.Cursor = page.NextCursor
	}
}

type collector struct {
	rd      *query.Reader
	repo    *Repo
	w       *Written
	natives map[string]string // ctx session id → native id
	seen    map[string]bool   // active sessions
	evAt    map[string]int    // event id → index in w.Events
}

func (c *collector) row(row *query.EventRow) {
	inside := false
	if row.Workspace != "" {
		_, err := c.repo.Rel("/", row.Workspace)
		inside = err == nil
	}
	touched := inside
	for _, f := range row.Files {
		hunks := writtenHunks(&f)
		if f.MovedTo != "" {
			f.Path = f.MovedTo // a moved file's lines live under its new name
		}
		if f.Path == "" || (!inside && !isAbs(f.Path)) {
			continue
		}
		base := c.repo.Root
		if inside {
			base = row.Workspace
		}
		rel, err := c.repo.Rel(base, f.Path)
		if err != nil {
			continue
		}
		touched = true
		if len(hunks) > 0 {
			c.add(row, rel, hunks)
		}
	}
	if touched && !c.seen[row.CtxSessionID] {
		c.seen[row.CtxSessionID] = true
		c.w.Active = append(c.w.Active, c.ref(row, ""))
	}
}

func isAbs(p string) bool {
	return strings.HasPrefix(p, "/") || strings.HasPrefix(p, `\`) || (len(p) > 2 && p[1] == ':')
}

func (c *collector) ref(row *query.EventRow, event string) EvRef {
	native, ok := c.natives[row.CtxSessionID]
	if !ok {
		if id, err := core.ParseSessionID(row.CtxSessionID); err == nil {
			if so, err := c.rd.Session(id); err == nil {
				native = so.Session.NativeID
			}
		}
		c.natives[row.CtxSessionID] = native
	}
	return EvRef{SessionID: row.CtxSessionID, EventID: event, Provider: row.Provider, Native: native}
}

func (c *collector) add(row *query.EventRow, rel string, hunks [][]string) {
	i, ok := c.evAt[row.CtxEventID]
	if !ok {
		i = len(c.w.Events)
		c.evAt[row.CtxEventID] = i
		c.w.Events = append(c.w.Events, c.ref(row, row.CtxEventID))
	}
	for _, h := range hunks {
		c.w.Files[rel] = append(c.w.Files[rel], Hunk{Ev: i, Lines: h})
	}
}

// Hunk is a run of lines one event wrote one after the other in a file
// (trimmed): a write's content, the new lines of an edit between the lines
// its old text already had, a patch's added lines between its context.
// Where in the run a line stands is what tells identical lines apart.
type Hunk struct {
	Ev    int // index into Written.Events
	Lines []string
}

// writtenLines returns the trimmed lines a file touch wrote: a write's or
// create's content, an edit's new text less the lines its old text already
// had (context an edit repeats is not written by it), a patch's added lines.
// A create that also carries its patch counts its lines once.
func writtenLines(f *core.FileTouch) []string {
	var out []string
	for _, h := range writtenHunks(f) {
		out = append(out, h...)
	}
	return out
}

// writtenHunks is writtenLines in runs: a line the edit kept or a patch's
// context line ends a run.
func writtenHunks(f *core.FileTouch) [][]string {
	var out [][]string
	var cur []string
	cut := func() {
		if len(cur) > 0 {
			out = append(out, cur)
			cur = nil
		}
	}
	switch f.Op {
	case core.OpWrite, core.OpCreate:
		if f.NewText != "" {
			return [][]string{splitTrim(f.NewText)}
		}
	case core.OpEdit:
		old := map[string]int{}
		for _, l := range splitTrim(f.OldText) {
			old[l]++
		}
		for _, l := range splitTrim(f.NewText) {
			if old[l] > 0 {
				old[l]--
				cut()
				continue
			}
			cur = append(cur, l)
		}
		cut()
	}
	for _, l := range strings.Split(f.Patch, "\n") {
		switch {
		case strings.HasPrefix(l, "+++ ") || strings.HasPrefix(l, "--- "):
			cut()
		case strings.HasPrefix(l, "+"):
			cur = append(cur, strings.TrimSpace(l[1:]))
		case strings.HasPrefix(l, "-"):
			// a removed line: the added lines around it stay adjacent
		default:
			cut()
		}
	}
	cut()
	return out
}

func splitTrim(s string) []string {
	if s == "" {
		return nil
	}
	parts := strings.Split(strings.TrimSuffix(s, "\n"), "\n")
	for i, p := range parts {
		parts[i] = strings.TrimSpace(p)
	}
	return parts
}
