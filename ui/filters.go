package ui

import (
	"net/url"
	"time"

	"ctx/app"
	"ctx/core"
	"ctx/query"
	"ctx/sources"
)

// defaultWindow is the window the timeline and stats pages show when the
// request bounds neither end: the last 30 days.
const defaultWindow = "30d"

// windowFilter is the session filter of the timeline and stats pages, as
// the form shows it.
type windowFilter struct {
	Provider, Workspace, Since, Until string
	PrimaryOnly                       bool
	Providers                         []string
}

// readWindow reads the filter form of q; with no bound at all the window
// is the last 30 days.
func readWindow(q url.Values) *windowFilter {
	f := &windowFilter{Provider: q.Get("provider"), Workspace: q.Get("workspace"), Since: q.Get("since"),
		Until: q.Get("until"), PrimaryOnly: q.Get("primary") == "1"}
	if !q.Has("since") && !q.Has("until") {
		f.Since = defaultWindow
	}
	for _, p := range sources.Builtin() {
		f.Providers = append(f.Providers, p.Name())
	}
	return f
}

// filter parses the form into the typed session filter.
func (f *windowFilter) filter(now time.Time) (core.Filter, error) {
	args := app.FilterArgs{Workspace: f.Workspace, PrimaryOnly: f.PrimaryOnly}
	if f.Provider != "" {
		args.Providers = []string{f.Provider}
	}
	var err error
	if args.Since, err = query.ParseTime(f.Since, now, "since"); err != nil {
		return core.Filter{}, err
	}
	if args.Until, err = query.ParseTime(f.Until, now, "until"); err != nil {
		return core.Filter{}, err
	}
	return args.Parse()
}
