package main

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"sort"
	"strings"

	"github.com/spf13/cobra"

	"ctx/app"
	"ctx/query"
)

func newStatusCmd(env *Env, f *format) *cobra.Command {
	repo := "."
	cmd := &cobra.Command{
		Use:   "status",
		Short: "Show the active generation, sources, problems, index, upgrade and attribution state",
		Long: "Status reads the store and the git repository around --repo (default: the current\n" +
			"directory) and reports the active generation, per-source counts and problems, the\n" +
			"index, semantic vectors, the upgrade state (formats and pending rebuilds), whether\n" +
			"ctx hooks and notes link this repository's commits, the daemon and local usage.\n" +
			"It only reads. --format json prints the read model the MCP status tool returns.",
		Args: cobra.NoArgs,
		RunE: answer(env, f, func(cmd *cobra.Command, _ []string) (*app.StatusReport, error) {
			return env.App().Status(cmd.Context(), repo)
		}, printStatusReport),
	}
	cmd.Flags().StringVar(&repo, "repo", ".", "a directory of the git repository whose attribution state to report")
	return cmd
}

func printStatusReport(env *Env, st *app.StatusReport) {
	printConfig(env, st.Config)
	printStatus(env, st.Status)
	printProblemFiles(env, st)
	printAttribution(env, st)
	d := st.Daemon
	if d.Running {
		fmt.Fprintf(env.Stdout, "Daemon: running (pid %d), last generation %d, lag %.1fs, watching %d dirs\n",
			d.PID, d.LastGeneration, d.LagSeconds, d.Watching)
		if d.Repair != nil {
			fmt.Fprintln(env.Stdout, repairLine(d.Repair))
		}
	} else {
		fmt.Fprintln(env.Stdout, "Daemon: not running")
	}
}

// printConfig names config.toml, and where it is broken: its path and
// line, never its contents.
func printConfig(env *Env, c app.ConfigState) {
	w := env.Stdout
	switch {
	case !c.Exists:
		fmt.Fprintf(w, "Config: %s (none: the defaults)\n", tildeHome(env, c.Path))
	case c.OK:
		fmt.Fprintf(w, "Config: %s\n", tildeHome(env, c.Path))
	case c.Line > 0:
		fmt.Fprintf(w, "Config: %s:%d: %s (reads use the defaults until it is fixed)\n", tildeHome(env, c.Path), c.Line, oneLine(c.Error))
	default:
		fmt.Fprintf(w, "Config: %s: %s (reads use the defaults until it is fixed)\n", tildeHome(env, c.Path), oneLine(c.Error))
	}
}

// printProblemFiles names the source files whose problems status counts.
func printProblemFiles(env *Env, st *app.StatusReport) {
	if len(st.ProblemFiles) == 0 {
		return
	}
	w := env.Stdout
	fmt.Fprintln(w, "Files with problems:")
	for _, p := range st.ProblemFiles {
		codes := make([]string, 0, len(p.Problems))
		for c, n := range p.Problems {
			codes = append(codes, fmt.Sprintf("%s %d", c, n))
		}
		sort.Strings(codes)
		if p.Missing {
			codes = append(codes, "missing")
		}
		fmt.Fprintf(w, "  %s  %s (%s)\n", p.Provider, tildeHome(env, oneLine(p.Path)), strings.Join(codes, ", "))
	}
	if more := st.ProblemFilesTotal - len(st.ProblemFiles); more > 0 {
		fmt.Fprintf(w, "  … and %s (ctx status --format json lists %d)\n", plural(more, "more file"), len(st.ProblemFiles))
	}
}

func printAttribution(env *Env, st *app.StatusReport) {
	w := env.Stdout
	a := st.Attribution
	if !a.InRepository {
		fmt.Fprintln(w, "Attribution: not in a git repository")
		return
	}
	hooksState := "not installed (ctx hooks install)"
	if a.Hooks.Installed {
		hooksState = "installed"
	}
	if a.Hooks.Manager != "" {
		hooksState += ", hooks managed by " + a.Hooks.Manager
	}
	fmt.Fprintf(w, "Attribution in %s: hooks %s, %d commits with ctx notes\n", a.Repository, hooksState, a.Notes.Count)
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
	printSemantic(w, st.Semantic)
	for _, p := range st.Upgrade.PendingRebuilds {
		fmt.Fprintf(w, "Rebuild pending: %s (%s, %d): %s\n", p.Kind, p.Reason, p.Count, p.Fix)
	}
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
		codes := slices.Sorted(maps.Keys(st.Problems))
		fmt.Fprintln(w, "Problems (counted by code; the good records were imported):")
		for _, c := range codes {
			fmt.Fprintf(w, "  %-16s %d\n", c, st.Problems[c])
		}
	}
}

func printSemantic(w io.Writer, s query.SemanticStatus) {
	if !s.Enabled {
		fmt.Fprintln(w, "Semantic search: off")
		return
	}
	fmt.Fprintf(w, "Semantic search: %s, %s", s.Embedder, s.State)
	if s.Vectors > 0 {
		fmt.Fprintf(w, ", %d vectors", s.Vectors)
	}
	if s.BuiltEmbedder != "" {
		fmt.Fprintf(w, " (built by %s)", s.BuiltEmbedder)
	}
	fmt.Fprintln(w)
}
