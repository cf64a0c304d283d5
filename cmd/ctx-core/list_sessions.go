package main

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"ctx/app"
)

type listSessionsOptions struct {
	filterFlags
	Edited       []string
	Sort, Cursor string
	Reverse, All bool
	Limit        int
}

func newListSessionsCmd(env *Env, f *format) *cobra.Command {
	opts := &listSessionsOptions{}
	cmd := &cobra.Command{
		Use:   "sessions",
		Short: "List sessions, newest activity first",
		Long: "List the sessions of the active generation with their agent, workspace, start,\n" +
			"duration, events and title (the agent's own title, else the first real prompt).\n" +
			"Filters are those of search; --since/--until keep sessions active in the window.\n\n" +
			"A page holds --limit sessions (default 50); when more remain it ends with a\n" +
			"cursor for --cursor. --all lists every selected session.",
		Args: cobra.NoArgs,
		RunE: runFlags(env, f, opts, runListSessions),
	}
	fl := cmd.Flags()
	opts.register(cmd, flagsSessions|flagsSources, activeWindow)
	fl.StringArrayVar(&opts.Edited, "has-edits-to", nil, "only sessions that edited this path or file name (repeatable)")
	fl.StringVar(&opts.Sort, "sort", "activity", "activity, started, events or name")
	fl.BoolVar(&opts.Reverse, "reverse", false, "reverse the order")
	fl.IntVar(&opts.Limit, "limit", app.DefaultSessionsLimit, fmt.Sprintf("sessions per page (1-%d)", app.MaxSessionsLimit))
	fl.BoolVar(&opts.All, "all", false, "every selected session, no paging")
	fl.StringVar(&opts.Cursor, "cursor", "", "continue after the page that printed this cursor")
	completeValues(cmd, "sort", "activity", "started", "events", "name")
	completeProviders(cmd, "provider")
	return cmd
}

func (o *listSessionsOptions) request(env *Env) (app.SessionsRequest, error) {
	args, err := o.args(env)
	if err != nil {
		return app.SessionsRequest{}, err
	}
	sort := o.Sort
	switch sort {
	case "activity", "last-activity", "":
		sort = app.SortLastActivity
	case app.SortStarted, app.SortEvents, app.SortName:
	default:
		return app.SessionsRequest{}, usagef("--sort must be activity, started, events or name")
	}
	args.Files = o.Edited
	filter, err := args.Parse()
	if err != nil {
		return app.SessionsRequest{}, err
	}
	return app.SessionsRequest{Filter: filter, Sort: sort, Reverse: o.Reverse, Limit: o.Limit, All: o.All,
		Cursor: o.Cursor}, nil
}

func runListSessions(ctx context.Context, env *Env, f *format, opts *listSessionsOptions) error {
	req, err := opts.request(env)
	if err != nil {
		return err
	}
	list, err := env.App().ListSessions(ctx, req)
	return reply(env, f, list, err, paged(printSessionList))
}

func printSessionList(env *Env, l *app.SessionList) {
	st, w, now := env.style(), env.width(), env.Now()
	if len(l.Sessions) == 0 {
		fmt.Fprintln(env.Stdout, "No sessions match.")
		return
	}
	t := &table{head: []string{"ID", "AGENT", "WORKSPACE", "STARTED", "TOOK", "EVENTS", "TITLE"},
		right: map[int]bool{4: true, 5: true}, flex: 6, shrink: 2}
	for _, s := range l.Sessions {
		title := oneLine(s.Title)
		if title == "" {
			title = "(untitled)"
		}
		if s.Subagents > 0 {
			title += " " + st.dim("+"+plural(s.Subagents, "subagent"))
		}
		id := s.ShortID
		if s.IsSubagent {
			id = "↳" + s.ShortID
		}
		var started, took string = "-", "-"
		if s.Started != nil {
			started, took = humanTime(*s.Started, now), humanDuration(time.Duration(s.DurationSeconds)*time.Second)
		}
		agent := s.Provider
		if s.Machine != "" {
			agent += "@" + s.Machine
		}
		t.add(st.cyan(id), agent, tildeHome(env, oneLine(s.Workspace)), started, took, humanCount(s.Events), title)
	}
	t.print(env.Stdout, w, st)
	more := ""
	if l.NextCursor != "" {
		more = fmt.Sprintf("; more with --cursor %s (or --all)", l.NextCursor)
	}
	fmt.Fprintf(env.Stdout, "%s of %s%s\n", plural(len(l.Sessions), "session"), humanCount(l.Total), more)
}

// tildeHome shows a path under $HOME as ~/….
func tildeHome(env *Env, p string) string {
	h := env.Home()
	if h != "/" && h != "" && (p == h || strings.HasPrefix(p, h+"/")) {
		return "~" + p[len(h):]
	}
	return p
}
