package main

import (
	"fmt"

	"github.com/spf13/cobra"
)

func newThreadsListCmd(env *Env, f *format) *cobra.Command {
	return &cobra.Command{
		Use:   "list",
		Short: "List threads: sessions, last activity, last client surface (list_threads)",
		Args:  cobra.NoArgs,
		RunE:  f.textOrJSON(func(*cobra.Command, []string) error { return runThreadsList(env, f) }),
	}
}

func runThreadsList(env *Env, f *format) error {
	h, err := handoff(env)
	if err != nil {
		return err
	}
	l, err := h.ListThreads()
	if err != nil {
		return handoffErr(err)
	}
	return f.write(env, l, func() {
		if len(l.Threads) == 0 {
			fmt.Fprintln(env.Stdout, "no threads yet: an agent's save_session with a thread name creates one")
		}
		for _, t := range l.Threads {
			fmt.Fprintf(env.Stdout, "%-30s %3d sessions  last %s via %s (%s)\n", oneLine(t.Name), t.Sessions,
				t.LastActive.Format("2006-01-02 15:04"), t.LastSurface.Door, oneLine(t.LastSurface.Harness))
		}
	})
}
