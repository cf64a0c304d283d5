package reported

import (
	"os"
	"strconv"

	"ctx/core"
	"ctx/store"
)

// Source reads the inbox as the history of provider ctx-reported.
type Source struct{}

// New returns the ctx-reported provider.
func New() *Source { return &Source{} }

// Name is the provider id.
func (*Source) Name() string { return Provider }

// CtxHome resolves $CTX_HOME from env the way the store does:
// $CTX_HOME, else $XDG_DATA_HOME/ctx, else ~/.local/share/ctx.
func CtxHome(env core.Env) string { return store.Home(env.Get, env.Home) }

// Root is the inbox directory.
func (*Source) Root(env core.Env) string { return InboxDir(CtxHome(env)) }

// Discover lists the inbox file when it exists.
func (*Source) Discover(env core.Env) ([]core.SourceFile, []core.Problem) {
	p := InboxPath(CtxHome(env))
	if _, err := os.Stat(p); err != nil {
		return nil, nil
	}
	return []core.SourceFile{{Provider: Provider, Path: p}}, nil
}

// Parse reads every reported session of the inbox. A removed session is
// returned without events, so that nothing of it stays searchable.
func (*Source) Parse(f core.SourceFile) (core.ParseResult, error) {
	in := &Inbox{path: f.Path}
	recs, err := in.Records()
	if err != nil {
		return core.ParseResult{}, err
	}
	var res core.ParseResult
	for _, s := range Group(recs) {
		ps := parsed(s)
		ps.Finalize()
		res.Sessions = append(res.Sessions, *ps)
	}
	return res, nil
}

func parsed(s *Session) *core.ParsedSession {
	last := s.Latest()
	ps := &core.ParsedSession{Session: core.Session{Provider: Provider, NativeID: s.ID,
		Workspace: last.Workspace, Title: TitleOf(last.Report)}}
	if s.Removed != nil {
		ps.Session.Title = "(removed)"
		return ps
	}
	for _, r := range s.Revisions {
		ev := core.Event{Key: s.ID + "#r" + itoa(r.Revision), Timestamp: r.ReceivedAt, Role: core.RoleAssistant,
			Type: core.TypeSummary, Native: Provider + "/" + r.Provenance.Kind,
			Text: Heading(&r) + "\n\n" + Render(r.Report)}
		for _, p := range r.Report.FilesTouched {
			ev.Files = append(ev.Files, core.FileTouch{Path: p, Op: core.OpEdit})
		}
		ps.Events = append(ps.Events, ev)
	}
	return ps
}

func itoa(i int) string { return strconv.Itoa(i) }
