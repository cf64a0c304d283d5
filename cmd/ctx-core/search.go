package main

import (
	"context"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/spf13/cobra"

	"ctx/query"
)

type searchOptions struct {
	filterFlags
	Scope     string
	EventType string
	Limit     int
	Mode      string
	Weight    float64
	WeightSet bool
}

func newSearchCmd(env *Env, f *format) *cobra.Command {
	opts := &searchOptions{}
	cmd := &cobra.Command{
		Use:   "search QUERY...",
		Short: "Search the imported history",
		Long: "Search finds events of the active generation. Results are grouped by root session:\n" +
			"one best hit per conversation (a session and its subagents) before any repeats.\n" +
			"Messages weigh 1.0, summaries 0.9, tool calls and command starts 0.8, outputs 0.6.",
		Args: cobra.MinimumNArgs(1),
		RunE: f.textOrJSON(func(cmd *cobra.Command, args []string) error {
			if cmd.Flags().Changed("scope") && opts.EventType != "" {
				return usagef("--event-type and --scope cannot be combined")
			}
			opts.WeightSet = cmd.Flags().Changed("semantic-weight")
			return runSearch(cmd.Context(), env, f, opts, strings.Join(args, " "))
		}),
	}
	fl := cmd.Flags()
	fl.StringVar(&opts.Scope, "scope", "all", "content scope: all, transcript, calls or outputs")
	fl.StringVar(&opts.EventType, "event-type", "", "only this event type (conflicts with --scope)")
	opts.register(cmd, flagsSessions|flagsSources|flagsEvents, eventWindow)
	fl.IntVar(&opts.Limit, "limit", 20, "maximum results")
	fl.StringVar(&opts.Mode, "mode", "lexical", "lexical, semantic (messages and summaries by similarity) or hybrid (both, fused)")
	fl.Float64Var(&opts.Weight, "semantic-weight", 0.5, "weight of the vector ranks in hybrid search, 0-1 (default: [semantic] weight); 0 does no vector work")
	return cmd
}

func runSearch(ctx context.Context, env *Env, f *format, opts *searchOptions, q string) error {
	filter, err := opts.filter(env, func(a *query.FilterArgs) {
		if opts.EventType != "" {
			a.EventTypes = []string{opts.EventType}
		}
	})
	if err != nil {
		return err
	}
	scope := opts.Scope
	if opts.EventType != "" {
		scope = ""
	}
	req := query.SearchRequest{Query: q, Scope: scope, Filter: filter, Limit: opts.Limit, Mode: opts.Mode}
	if opts.WeightSet {
		req.SemanticWeight = &opts.Weight
	}
	res, err := env.App().Search(ctx, req)
	return reply(env, f, res, err, printSearch)
}

func printSearch(env *Env, res *query.SearchResult) {
	w, st, width := env.Stdout, env.style(), env.width()
	md := res.Metadata
	if len(res.Results) == 0 {
		fmt.Fprintf(w, "No results (generation %d, scope %s, %s).\n", res.Generation.Number, res.Filters.ContentScope, md.Mode)
	}
	var b strings.Builder
	for i, h := range res.Results {
		b.Reset()
		printHitHead(&b, env, st, width, i+1, &h)
		renderSnippet(&b, st, h.Snippet, h.Highlights, width, "    ")
		fmt.Fprintf(&b, "    %s  %s  %s\n", st.cyan(idPrefix(h.CtxEventID, 12)), st.dim(idPrefix(h.CtxSessionID, 8)),
			st.dim(fmt.Sprintf("score %.3f", h.Score)))
		fmt.Fprint(w, b.String())
	}
	if len(res.Results) > 0 {
		fmt.Fprintf(w, "%d of %s matches, generation %d, scope %s, %s, %d ms\n", md.Returned,
			md.Total(), res.Generation.Number, res.Filters.ContentScope, md.Mode, md.TookMS)
	}
	if fb := md.Fallback; fb != nil {
		fmt.Fprintf(w, "Note: %s search answered as %s (%s): %s.\n", fb.From, fb.To, fb.Reason, fb.Note)
	}
	if p := md.Partial; p != nil {
		fmt.Fprintf(w, "%s partial results: %s (damaged: %s).\n", st.bold("Warning:"), p.Note, strings.Join(p.DamagedShards, ", "))
	}
}

// printHitHead writes a hit's first line: rank, time (or "-"),
// provider, role/type and the workspace, cut from its left to fit the
// width.
func printHitHead(b *strings.Builder, env *Env, st style, width, n int, h *query.SearchHit) {
	when := stamp(h.Timestamp, "2006-01-02 15:04")
	kind := oneLine(h.Role) + "/" + oneLine(h.EventType)
	if h.IsSubagent {
		kind += " subagent"
	}
	head := fmt.Sprintf("%2d. %s  %s %s", n, when, oneLine(h.Provider), kind)
	ws := tildeHome(env, oneLine(h.Workspace))
	if width > 0 && ws != "" {
		ws = fitLeft(ws, max(width-utf8.RuneCountInString(head)-2, 12))
	}
	fmt.Fprintf(b, "%2d. %s  %s %s", n, when, st.cyan(oneLine(h.Provider)), kind)
	if ws != "" {
		fmt.Fprintf(b, "  %s", st.dim(ws))
	}
	b.WriteByte('\n')
}
