package main

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"

	"ctx/app"
)

type forgetOptions struct {
	Workspace, Before string
	Undo, DryRun      bool
}

func newForgetCmd(env *Env, f *format) *cobra.Command {
	opts := &forgetOptions{}
	cmd := &cobra.Command{
		Use:   "forget [SESSION...]",
		Short: "Take sessions out of the store for good: search, lists, vectors and every later import",
		Long: "Forget sessions: the generation ctx forget publishes has no trace of them in the\n" +
			"tree, search or vectors, a tombstone keeps every later import (and sync) from\n" +
			"bringing them back, and ctx gc then removes their bytes (ctx verify proves it).\n" +
			"A forgotten session's subagents go with it. SESSION is any form ctx resume\n" +
			"takes; --workspace DIR forgets every session in DIR or below it (--before D: whose\n" +
			"last activity is before D). --dry-run lists what would go. --undo [SESSION...]\n" +
			"restores (the last forget when none is named): the next import reads them again.\n" +
			"Blame notes that cite a forgotten session stay; ctx blame says it was forgotten.",
		ValidArgsFunction: recentSessions(env),
		RunE: f.textOrJSON(func(cmd *cobra.Command, args []string) error {
			return runForget(cmd.Context(), env, f, opts, args)
		}),
	}
	fl := cmd.Flags()
	fl.StringVar(&opts.Workspace, "workspace", "", "forget every session in this directory or below it")
	fl.StringVar(&opts.Before, "before", "", "with --workspace: only sessions last active before this time (YYYY-MM-DD, RFC 3339, or 30d)")
	fl.BoolVar(&opts.Undo, "undo", false, "restore the named forgotten sessions, or those of the last forget")
	fl.BoolVarP(&opts.DryRun, "dry-run", "n", false, "list what would be forgotten (or restored); change nothing")
	return cmd
}

func runForget(ctx context.Context, env *Env, f *format, opts *forgetOptions, args []string) error {
	before, err := parseTime(opts.Before, env.Now())
	if err != nil {
		return err
	}
	res, err := env.App().Forget(ctx, app.ForgetRequest{Sessions: args, Workspace: absDir(env, opts.Workspace), Before: before,
		Undo: opts.Undo, DryRun: opts.DryRun, Busy: env.waitingForWriter})
	return reply(env, f, res, err, printForget)
}

func printForget(env *Env, res *app.ForgetResult) {
	st, w := env.style(), env.Stdout
	if len(res.Sessions) == 0 {
		fmt.Fprintln(w, "Nothing to do: no session matches (already forgotten ones are skipped).")
		return
	}
	t := &table{head: []string{"ID", "AGENT", "WORKSPACE", "EVENTS", "WHY"}, right: map[int]bool{3: true}, flex: 2, shrink: 2}
	for _, s := range res.Sessions {
		t.add(st.cyan(s.CtxSessionID[:12]), s.Provider, tildeHome(env, oneLine(s.Workspace)), humanCount(s.Events), s.Reason)
	}
	t.print(w, env.width(), st)
	n := plural(len(res.Sessions), "session") + ", " + plural(res.Events, "event")
	switch {
	case res.DryRun && res.Undo:
		fmt.Fprintf(w, "would restore %s (run again without --dry-run)\n", n)
	case res.DryRun:
		fmt.Fprintf(w, "would forget %s (run again without --dry-run)\n", n)
	case res.Undo:
		fmt.Fprintf(w, "restored %s: the next import (ctx import, or the daemon) reads them again\n", n)
	default:
		fmt.Fprintf(w, "forgot %s in generation %d: gone from search and lists; ctx gc (or the daemon's, within minutes) removes their bytes, ctx forget --undo restores them\n",
			n, res.Generation)
	}
	for _, id := range res.Unreadable {
		fmt.Fprintf(env.Stderr, "%s %s: its source file is gone, no import can bring it back\n", st.yellow("note:"), id)
	}
}
