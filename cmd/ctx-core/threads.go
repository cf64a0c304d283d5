package main

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"ctx/app"
	"ctx/sources/reported"
)

func newThreadsCmd(env *Env, f *format) *cobra.Command {
	list := answer(env, f, func(*cobra.Command, []string) (*app.ThreadList, error) {
		return onHandoff(env, (*app.Handoff).ListThreads)
	}, printThreads)
	cmd := &cobra.Command{
		Use:   "threads",
		Short: "List, show and extend the durable threads agents save sessions to",
		Args:  cobra.NoArgs,
		RunE:  list,
	}
	cmd.AddCommand(&cobra.Command{
		Use:   "list",
		Short: "List threads: sessions, last activity, last client surface (list_threads)",
		Args:  cobra.NoArgs,
		RunE:  list,
	}, newThreadsShowCmd(env, f), &cobra.Command{
		Use:   "add NAME SESSION",
		Short: "Add an imported session (ses_…) to a thread, created on first use",
		Long: "Add a session of the store to a thread: continue_thread then merges its real\n" +
			"transcript with the sessions agents saved to the thread.",
		Args: cobra.ExactArgs(2),
		RunE: answer(env, f, func(_ *cobra.Command, args []string) (ThreadAdded, error) {
			name, err := onHandoff(env, func(h *app.Handoff) (string, error) { return h.AddToThread(args[0], args[1], reported.DoorCLI) })
			return ThreadAdded{Thread: name, CtxSessionID: args[1]}, err
		}, func(env *Env, a ThreadAdded) {
			fmt.Fprintf(env.Stdout, "added %s to thread %s\n", a.CtxSessionID, oneLine(a.Thread))
		}),
	})
	return cmd
}

// ThreadAdded is ctx threads add --format json.
type ThreadAdded struct {
	Thread       string `json:"thread"`
	CtxSessionID string `json:"ctx_session_id"`
}

func newThreadsShowCmd(env *Env, f *format) *cobra.Command {
	var budget int
	cmd := &cobra.Command{
		Use:   "show [NAME]",
		Short: "Print a thread's merged history, newest detailed (continue_thread)",
		Long: "Print what continue_thread gives an agent: the thread NAME means (matched without case,\n" +
			"with prefixes and typos; the most recent thread when omitted), its sessions in time order\n" +
			"within the token budget, and its newest handoff package.",
		Args: cobra.MaximumNArgs(1),
		RunE: answer(env, f, func(_ *cobra.Command, args []string) (*app.Continuation, error) {
			return onHandoff(env, func(h *app.Handoff) (*app.Continuation, error) { return h.ContinueThread(firstArg(args), budget) })
		}, renderThread),
	}
	cmd.Flags().IntVar(&budget, "budget", 0, "token budget (default from config)")
	return cmd
}

func printThreads(env *Env, l *app.ThreadList) {
	if len(l.Threads) == 0 {
		fmt.Fprintln(env.Stdout, "no threads yet: an agent's save_session with a thread name creates one")
	}
	for _, t := range l.Threads {
		fmt.Fprintf(env.Stdout, "%-30s %3d sessions  last %s via %s (%s)\n", oneLine(t.Name), t.Sessions,
			t.LastActive.Format("2006-01-02 15:04"), t.LastSurface.Door, oneLine(t.LastSurface.Harness))
	}
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
