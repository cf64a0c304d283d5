package main

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"ctx/app"
)

type threadsShowOptions struct {
	budget int
}

func newThreadsShowCmd(env *Env, f *format) *cobra.Command {
	var opts threadsShowOptions
	cmd := &cobra.Command{
		Use:   "show [NAME]",
		Short: "Print a thread's merged history, newest detailed (continue_thread)",
		Long: "Print what continue_thread gives an agent: the thread NAME means (matched without case,\n" +
			"with prefixes and typos; the most recent thread when omitted), its sessions in time order\n" +
			"within the token budget, and its newest handoff package.",
		Args: cobra.MaximumNArgs(1),
		RunE: f.textOrJSON(func(_ *cobra.Command, args []string) error {
			return runThreadsShow(env, f, firstArg(args), opts)
		}),
	}
	cmd.Flags().IntVar(&opts.budget, "budget", 0, "token budget (default from config)")
	return cmd
}

func runThreadsShow(env *Env, f *format, name string, opts threadsShowOptions) error {
	h, err := handoff(env)
	if err != nil {
		return err
	}
	c, err := h.ContinueThread(name, opts.budget)
	if err != nil {
		return handoffErr(err)
	}
	return f.write(env, c, func() { renderThread(env, c) })
}

func renderThread(env *Env, c *app.Continuation) {
	w := env.Stdout
	if c.Match == "ambiguous" {
		fmt.Fprintf(w, "%s\n", oneLine(c.Note))
		for _, cand := range c.Candidates {
			fmt.Fprintf(w, "  %s\n", oneLine(cand))
		}
		return
	}
	fmt.Fprintf(w, "thread %s (%s match): %d sessions, %d of %d tokens\n", oneLine(c.Thread), c.Match, c.Sessions,
		c.TokensUsed, c.TokenBudget)
	if p := c.Handoff; p != nil {
		fmt.Fprintf(w, "handoff from %s via %s at %s\n", oneLine(p.From.Harness), p.From.Door, p.At.Format("2006-01-02 15:04"))
	}
	for _, e := range c.Entries {
		fmt.Fprintf(w, "\n--- %s  %s via %s  %s (%s)\n", e.At.Format("2006-01-02 15:04"), oneLine(e.Harness), e.Door,
			e.SessionID, e.Form)
		for _, line := range strings.Split(e.Text, "\n") {
			fmt.Fprintf(w, "%s\n", clean(line))
		}
	}
	if c.Omitted > 0 {
		fmt.Fprintf(w, "\n(%d older sessions left out for the budget)\n", c.Omitted)
	}
}
