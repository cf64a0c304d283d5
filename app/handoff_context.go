package app

import (
	"context"
	"path/filepath"
	"sort"
	"strings"

	"ctx/core"
	"ctx/query"
	"ctx/sources/reported"
	"ctx/workspace"
)

// GetContext answers get_context for the caller's workspace: the cached
// snapshot when it is young enough, else a new one, cut to scope.
func (h *Handoff) GetContext(ctx context.Context, c Caller, scope string) (*workspace.Object, error) {
	if !workspace.ValidScope(scope) {
		return nil, query.Errorf(query.CodeInvalidRequest, "scope must be full, plan, files or git")
	}
	o, err := h.cache.Get(ctx, workspace.Options{Root: c.Root, TokenBudget: h.opts.Settings.TokenBudget,
		Version: h.opts.Version, Now: h.opts.Now, Redactor: h.redactor, Sessions: h.workspaceSessions,
		Summarize: h.summary})
	if err != nil {
		return nil, err
	}
	return o.Scoped(scope), nil
}

// Bounds of the sessions part of a ContextObject.
const (
	contextSessions     = 10  // recent sessions listed
	contextTailEvents   = 256 // events read from the end of each
	contextFilesPerSess = 20
)

// workspaceSessions lists the root's recent sessions in the store (every
// provider, and the reported sessions of the inbox not imported yet) and
// what they read and edited.
func (h *Handoff) workspaceSessions(ctx context.Context, root string) ([]workspace.SessionBrief, []workspace.Activity, error) {
	var briefs []workspace.SessionBrief
	var act []workspace.Activity
	seen := map[string]bool{}
	err := h.withReader(func(r *query.Reader) error {
		if r == nil {
			return nil
		}
		t, err := r.Tree()
		if err != nil {
			return err
		}
		var mine []core.TreeEntry
		for _, e := range t.Sessions {
			if e.Workspace != "" && within(root, e.Workspace) && e.Events > 0 {
				mine = append(mine, e)
			}
		}
		sort.Slice(mine, func(i, j int) bool { return mine[i].Ended.After(mine[j].Ended) })
		for _, e := range mine[:min(len(mine), contextSessions)] {
			if err := ctx.Err(); err != nil {
				return err
			}
			b, a, err := brief(r, e)
			if err != nil {
				return err
			}
			briefs, act = append(briefs, b), append(act, a...)
			seen[b.SessionID] = true
		}
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	pending, err := h.pendingReports(root, seen)
	return append(pending, briefs...), act, err
}

// within reports whether dir is root or below it.
func within(root, dir string) bool {
	root, dir = filepath.Clean(root), filepath.Clean(dir)
	return dir == root || strings.HasPrefix(dir, root+string(filepath.Separator))
}

// brief reads the end of one session: its last summary and the files its
// events touched.
func brief(r *query.Reader, e core.TreeEntry) (workspace.SessionBrief, []workspace.Activity, error) {
	so, err := r.Session(e.Session)
	if err != nil {
		return workspace.SessionBrief{}, nil, err
	}
	s := so.Session
	b := workspace.SessionBrief{SessionID: s.ID.String(), Provider: s.Provider, Title: s.Title, Started: s.Started,
		Ended: s.Ended, Events: s.EventCount, FilesTouched: []string{}}
	start, n := len(so.Chunks), 0
	for start > 0 && n < contextTailEvents {
		start--
		n += so.Chunks[start].Count
	}
	tailObj := *so
	tailObj.Chunks = so.Chunks[start:]
	events, err := core.LoadEvents(r.Objects(), &tailObj)
	if err != nil {
		return b, nil, err
	}
	var act []workspace.Activity
	files := map[string]bool{}
	firstPrompt := ""
	for _, ev := range events {
		switch {
		case ev.Type == core.TypeSummary && ev.Text != "":
			b.LastSummary = ev.Text
		case ev.Type == core.TypeMessage && ev.Role == core.RoleAssistant && b.LastSummary == "":
			b.LastSummary = ev.Text
		case ev.Type == core.TypeMessage && ev.Role == core.RoleUser && firstPrompt == "":
			firstPrompt = ev.Text
		}
		for _, f := range ev.Files {
			edit := f.Op != core.OpRead
			act = append(act, workspace.Activity{Path: f.Path, Edit: edit, At: ev.Timestamp})
			if !files[f.Path] && len(files) < contextFilesPerSess {
				files[f.Path] = true
				b.FilesTouched = append(b.FilesTouched, f.Path)
			}
		}
	}
	if b.Title == "" {
		b.Title = firstChars(firstPrompt, 120)
	}
	b.LastSummary = firstChars(b.LastSummary, 600)
	return b, act, nil
}

// pendingReports are the reported sessions of root in the inbox that the
// store does not have yet (read-your-writes).
func (h *Handoff) pendingReports(root string, seen map[string]bool) ([]workspace.SessionBrief, error) {
	recs, err := h.inbox.Records()
	if err != nil {
		return nil, err
	}
	var out []workspace.SessionBrief
	groups := reported.Group(recs)
	for i := len(groups) - 1; i >= 0 && len(out) < contextSessions; i-- {
		s := groups[i]
		last := s.Latest()
		id := reported.SessionID(s.ID).String()
		if s.Removed != nil || seen[id] || last.Workspace == "" || !within(root, last.Workspace) {
			continue
		}
		out = append(out, workspace.SessionBrief{SessionID: id, Provider: reported.Provider,
			Title: reported.TitleOf(last.Report), Started: s.Revisions[0].ReceivedAt, Ended: last.ReceivedAt,
			Events: len(s.Revisions), LastSummary: firstChars(last.Report.Summary, 600),
			FilesTouched: append([]string{}, last.Report.FilesTouched...)})
	}
	return out, nil
}
