package main

import (
	"context"
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"ctx/app"
)

type statsOptions struct {
	filterFlags
	Period string
}

func newStatsCmd(env *Env, f *format) *cobra.Command {
	opts := &statsOptions{}
	cmd := &cobra.Command{
		Use:   "stats",
		Short: "Usage: sessions, events, tool calls, files edited and tokens per agent",
		Long: "Count the sessions of a window per agent and per day or week: events, prompts,\n" +
			"tool calls, commands, files edited, errors, and tokens and models where the agent\n" +
			"records them. A session counts in the period it started (local time).",
		Args: cobra.NoArgs,
		RunE: runFlags(env, f, opts, runStats),
	}
	fl := cmd.Flags()
	opts.register(cmd, flagsSessions, periodWindow("30d", `; "" for all`))
	fl.StringVar(&opts.Period, "by", app.PeriodDay, "group by day or week")
	completeProviders(cmd, "provider")
	completeValues(cmd, "by", app.PeriodDay, app.PeriodWeek)
	return cmd
}

func runStats(ctx context.Context, env *Env, f *format, opts *statsOptions) error {
	if opts.Period != app.PeriodDay && opts.Period != app.PeriodWeek {
		return usagef("--by must be day or week")
	}
	filter, err := opts.filter(env, nil)
	if err != nil {
		return err
	}
	s, err := env.App().Stats(ctx, app.StatsRequest{Filter: filter, Period: opts.Period, Location: time.Local})
	return reply(env, f, s, err, paged(printStats))
}

func printStats(env *Env, s *app.Stats) {
	st, w := env.style(), env.Stdout
	if s.Total.Sessions == 0 {
		fmt.Fprintln(w, "No sessions in this window.")
		return
	}
	fmt.Fprintln(w, st.bold("By agent"))
	statsTable(env, st, "AGENT", s.Agents, func(r app.StatsRow) string { return r.Provider }, &s.Total)
	fmt.Fprintln(w)
	fmt.Fprintln(w, st.bold("By "+s.Period))
	rows := make([]app.StatsRow, len(s.Periods))
	for i, p := range s.Periods {
		rows[i] = p.Total
		rows[i].Provider = p.Period
	}
	statsTable(env, st, "PERIOD", rows, func(r app.StatsRow) string { return r.Provider }, nil)
	if len(s.Models) > 0 {
		fmt.Fprintln(w)
		fmt.Fprintln(w, st.bold("Models"))
		t := &table{head: []string{"MODEL", "SESSIONS"}, right: map[int]bool{1: true}, flex: 0, shrink: -1}
		for _, m := range s.Models {
			t.add(oneLine(m.Model), humanCount(m.Sessions))
		}
		t.print(w, env.width(), st)
	}
	if len(s.Files) > 0 {
		fmt.Fprintln(w)
		fmt.Fprintln(w, st.bold("Files edited most"))
		t := &table{head: []string{"FILE", "SESSIONS"}, right: map[int]bool{1: true}, flex: 0, shrink: 0}
		for _, f := range s.Files {
			t.add(tildeHome(env, oneLine(f.Path)), humanCount(f.Sessions))
		}
		t.print(w, env.width(), st)
		if !s.FilesComplete {
			fmt.Fprintln(w, st.dim("(lower bounds: a few sessions edited more files than their summaries list)"))
		}
	}
}

func statsTable(env *Env, st style, first string, rows []app.StatsRow, name func(app.StatsRow) string, total *app.StatsRow) {
	t := &table{head: []string{first, "SESSIONS", "EVENTS", "PROMPTS", "TOOL CALLS", "COMMANDS", "FILES EDITED", "TOKENS"},
		right: map[int]bool{1: true, 2: true, 3: true, 4: true, 5: true, 6: true, 7: true}, flex: 0, shrink: -1}
	add := func(label string, r app.StatsRow) {
		tokens := "-"
		if r.TokenSessions > 0 {
			tokens = humanCount(r.Tokens.Total())
		}
		t.add(label, humanCount(r.Sessions), humanCount(r.Events), humanCount(r.Prompts), humanCount(r.ToolCalls),
			humanCount(r.Commands), humanCount(r.FilesEdited), tokens)
	}
	for _, r := range rows {
		add(name(r), r)
	}
	if total != nil && len(rows) > 1 {
		add(st.bold("total"), *total)
	}
	t.print(env.Stdout, env.width(), st)
}
