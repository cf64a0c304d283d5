package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"ctx/sources/reported"
)

func newThreadsAddCmd(env *Env, f *format) *cobra.Command {
	return &cobra.Command{
		Use:   "add NAME SESSION",
		Short: "Add an imported session (ses_…) to a thread, created on first use",
		Long: "Add a session of the store to a thread: continue_thread then merges its real\n" +
			"transcript with the sessions agents saved to the thread.",
		Args: cobra.ExactArgs(2),
		RunE: f.textOrJSON(func(_ *cobra.Command, args []string) error {
			h, err := handoff(env)
			if err != nil {
				return err
			}
			name, err := h.AddToThread(args[0], args[1], reported.DoorCLI)
			if err != nil {
				return handoffErr(err)
			}
			return f.write(env, ThreadAdded{Thread: name, CtxSessionID: args[1]},
				func() { fmt.Fprintf(env.Stdout, "added %s to thread %s\n", args[1], oneLine(name)) })
		}),
	}
}

// ThreadAdded is ctx threads add --format json.
type ThreadAdded struct {
	Thread       string `json:"thread"`
	CtxSessionID string `json:"ctx_session_id"`
}
