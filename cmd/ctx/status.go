package main

import (
	"fmt"
	"sort"

	"github.com/spf13/cobra"

	"ctx/daemon"
	"ctx/query"
)

func newStatusCmd(env *Env, f *format) *cobra.Command {
	return &cobra.Command{
		Use:   "status",
		Short: "Show the active generation, sources, problems and index",
		Args:  cobra.NoArgs,
		RunE: func(*cobra.Command, []string) error {
			if err := f.check("text", "json"); err != nil {
				return err
			}
			st, err := query.ReadStatus(env.CtxHome())
			if err != nil {
				return err
			}
			d := daemon.State(env.CtxHome())
			if f.json() {
				return writeJSON(env.Stdout, statusOutput{Status: st, Daemon: d})
			}
			printStatus(env, st)
			if d.Running {
				fmt.Fprintf(env.Stdout, "Daemon: running (pid %d), last generation %d, lag %.1fs, watching %d dirs\n",
					d.PID, d.LastGeneration, d.LagSeconds, d.Watching)
			} else {
				fmt.Fprintln(env.Stdout, "Daemon: not running")
			}
			return nil
		},
	}
}

// statusOutput is ctx status --format json: the status read model plus the
// daemon's state, the same as the MCP status tool's.
type statusOutput struct {
	*query.Status
	Daemon daemon.Info `json:"daemon"`
}

func printStatus(env *Env, st *query.Status) {
	w := env.Stdout
	fmt.Fprintf(w, "Store: %s\n", st.CtxHome)
	if st.Generation == nil {
		fmt.Fprintln(w, "Nothing imported yet: run ctx import.")
		return
	}
	g := st.Generation
	fmt.Fprintf(w, "Generation %d (%s), %s: %d sessions, %d events\n", g.Number, g.ID[:12],
		g.Created.Local().Format("2006-01-02 15:04:05"), g.Sessions, g.Events)
	fmt.Fprintf(w, "Index: %d shards, %d documents, %s\n", st.Index.Shards, st.Index.Docs, humanBytes(st.Index.Bytes))
	fmt.Fprintln(w, "Sources:")
	for _, s := range st.Sources {
		name := s.Provider
		if s.Root != "" {
			name += " (" + s.Root + ")"
		}
		fmt.Fprintf(w, "  %-22s %5d files %6d sessions %8d events", name, s.Files, s.Sessions, s.Events)
		if s.Redactions > 0 {
			fmt.Fprintf(w, " %5d secrets redacted", s.Redactions)
		}
		fmt.Fprintln(w)
	}
	if len(st.Problems) > 0 {
		codes := make([]string, 0, len(st.Problems))
		for c := range st.Problems {
			codes = append(codes, c)
		}
		sort.Strings(codes)
		fmt.Fprintln(w, "Problems (counted by code; the good records were imported):")
		for _, c := range codes {
			fmt.Fprintf(w, "  %-16s %d\n", c, st.Problems[c])
		}
	}
}
