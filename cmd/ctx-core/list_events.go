package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"ctx/app"
	"ctx/query"
)

type listEventsOptions struct {
	filterFlags
	RootSessions, EventTypes      []string
	Scope, Order, Content, Cursor string
	Limit                         int
}

// listRecord is one line of list events --format jsonl: events, then one
// completion record with the page metadata.
type listRecord struct {
	Type       string          `json:"type"`
	Event      *query.EventRow `json:"event,omitempty"`
	Completion *pageMeta       `json:"completion,omitempty"`
}

// pageMeta is a page without its events: the completion record.
type pageMeta struct {
	*query.EventRangePage
	Events []query.EventRow `json:"events,omitempty"` // shadows the page's events
}

func newListCmd(env *Env, f *format) *cobra.Command {
	cmd := &cobra.Command{Use: "list", Short: "List stored records"}
	cmd.AddCommand(newListEventsCmd(env, f), newListSessionsCmd(env, f))
	return cmd
}

func newListEventsCmd(env *Env, f *format) *cobra.Command {
	opts := &listEventsOptions{}
	cmd := &cobra.Command{
		Use:   "events",
		Short: "List events of the active generation, page by page",
		Long: "List the events the filters select, in a deterministic order: sessions by id,\n" +
			"then each session's events by ordinal (--order desc reverses it). Filters of\n" +
			"different kinds combine by AND, repeated values of one filter by OR.\n\n" +
			"A page holds --limit events (default 200); when more remain it ends with a\n" +
			"cursor: pass it to --cursor with the same filters for the next page. A cursor\n" +
			"is bound to the filters and to the generation it was made in; cursors are\n" +
			"signed with $CTX_HOME/cursor.key, which the import creates.\n\n" +
			"--format jsonl prints one event per line and ends with a completion record;\n" +
			"without --limit or --cursor it streams every selected event.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := f.check("text", "json", "jsonl"); err != nil {
				return err
			}
			if cmd.Flags().Changed("scope") && len(opts.EventTypes) > 0 {
				return usagef("--event-type and --scope cannot be combined")
			}
			stream := f.value == "jsonl" && !cmd.Flags().Changed("limit") && opts.Cursor == ""
			return runListEvents(cmd.Context(), env, f, opts, stream)
		},
	}
	fl := cmd.Flags()
	opts.register(cmd, flagsSessions|flagsSources|flagsEvents, eventWindow)
	fl.StringArrayVar(&opts.RootSessions, "root-session", nil, "only sessions of this root session: it and its subagents (repeatable)")
	fl.StringSliceVar(&opts.EventTypes, "event-type", nil, "only these event types (conflicts with --scope)")
	fl.StringVar(&opts.Scope, "scope", "all", "content scope: all, transcript, calls or outputs")
	fl.StringVar(&opts.Order, "order", query.OrderAsc, "asc or desc")
	fl.StringVar(&opts.Content, "content", query.ContentFull, "full, text (no activity or edit bodies) or none (metadata only)")
	fl.IntVar(&opts.Limit, "limit", query.DefaultPageLimit, "events per page (1-4096)")
	fl.StringVar(&opts.Cursor, "cursor", "", "continue after the page that printed this cursor")
	return cmd
}

func (o *listEventsOptions) request(env *Env) (query.ListRequest, error) {
	filter, err := o.filter(env, func(a *query.FilterArgs) { a.RootSessions, a.EventTypes = o.RootSessions, o.EventTypes })
	if err != nil {
		return query.ListRequest{}, err
	}
	scope := o.Scope
	if len(o.EventTypes) > 0 {
		scope = ""
	}
	return query.ListRequest{Filter: filter, Scope: scope, Order: o.Order, Content: o.Content, Limit: o.Limit,
		Cursor: o.Cursor}, nil
}

func runListEvents(ctx context.Context, env *Env, f *format, opts *listEventsOptions, stream bool) error {
	req, err := opts.request(env)
	if err != nil {
		return err
	}
	a := env.App()
	if stream {
		return a.StreamEvents(ctx, req, func(page *app.EventRangePage, last bool) error {
			if last {
				return writeEventLines(env, page, page)
			}
			return writeEventLines(env, page, nil)
		})
	}
	page, err := a.ListEvents(ctx, req)
	if err != nil {
		return err
	}
	switch f.value {
	case "json":
		return writeJSON(env.Stdout, page)
	case "jsonl":
		return writeEventLines(env, page, page)
	}
	printEventPage(env, page)
	return nil
}

func writeEventLines(env *Env, page, completion *query.EventRangePage) error {
	for i := range page.Events {
		if err := writeJSONLine(env.Stdout, listRecord{Type: "event", Event: &page.Events[i]}); err != nil {
			return err
		}
	}
	if completion == nil {
		return nil
	}
	return writeJSONLine(env.Stdout, listRecord{Type: "completion", Completion: &pageMeta{EventRangePage: completion}})
}

func printEventPage(env *Env, page *query.EventRangePage) {
	w := env.Stdout
	for _, e := range page.Events {
		head := fmt.Sprintf("%s %s [%d] %s/%s", stamp(e.Timestamp, "2006-01-02 15:04:05"),
			e.CtxSessionID, e.Ordinal, e.Role, e.EventType)
		if e.Tool != "" {
			head += " " + oneLine(e.Tool)
		}
		if e.ExitCode != nil {
			head += fmt.Sprintf(" exit=%d", *e.ExitCode)
		}
		fmt.Fprintf(w, "%s  %s\n", head, e.CtxEventID)
		text := ""
		if e.Text != nil {
			text = *e.Text
		}
		if text == "" {
			text = e.Command
		}
		if line := oneLine(text); line != "" {
			fmt.Fprintf(w, "    %s\n", truncate(line, 200))
		}
	}
	fmt.Fprintf(w, "%d events, generation %d", page.Usage.Returned, page.Generation.Number)
	if page.NextCursor != "" {
		fmt.Fprintf(w, "; more with --cursor %s\n", page.NextCursor)
		return
	}
	fmt.Fprintln(w, "; end of the selection")
}

// truncate cuts s to at most n runes, marking the cut.
func truncate(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return strings.TrimSpace(string(r[:n])) + "…"
}
