package main

import (
	"context"
	"fmt"
	"os"
	"runtime/debug"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"ctx/app"
	"ctx/blame"
)

type blameOptions struct {
	Commit string
	PR     string
	Repo   string
	Active bool
}

func newBlameCmd(env *Env, f *format) *cobra.Command {
	opts := &blameOptions{}
	cmd := &cobra.Command{
		Use:   "blame FILE[:A[-B]] | --commit REV | --pr BASE..HEAD",
		Short: "Trace committed lines to the agent sessions and events that wrote them",
		Long: "blame joins git blame with the notes ctx hooks write (refs/notes/ctx) and resolves\n" +
			"their evidence in the store. Lines no agent wrote have no evidence.",
		Args: cobra.MaximumNArgs(1),
		RunE: f.textOrJSON(func(cmd *cobra.Command, args []string) error {
			if (len(args) == 1) == (opts.Commit != "" || opts.PR != "") || (opts.Commit != "" && opts.PR != "") {
				return usagef("give one of FILE[:A[-B]], --commit REV or --pr BASE..HEAD")
			}
			return runBlame(cmd.Context(), env, f, opts, args)
		}),
	}
	cmd.Flags().StringVar(&opts.Commit, "commit", "", "list a commit's evidence by file")
	cmd.Flags().StringVar(&opts.PR, "pr", "", "aggregate a range BASE..HEAD")
	cmd.Flags().StringVar(&opts.Repo, "repo", ".", "a directory inside the repository")
	cmd.Flags().BoolVar(&opts.Active, "active", false,
		"with --commit, also list sessions active at commit time that wrote none of its lines (a weaker signal, never cited)")
	return cmd
}

func runBlame(ctx context.Context, env *Env, f *format, opts *blameOptions, args []string) error {
	if opts.Active && opts.Commit == "" {
		return usagef("--active goes with --commit")
	}
	req := app.BlameRequest{Repo: opts.Repo, Commit: opts.Commit, PR: opts.PR, Active: opts.Active}
	if len(args) == 1 {
		fr, err := parseBlameArg(args[0])
		if err != nil {
			return err
		}
		req.File, req.Start, req.End = fr.Path, fr.Start, fr.End
		if opts.Repo == "." { // paths are the working directory's
			req.Dir, _ = os.Getwd()
		}
		// A short-lived process that builds one large view: collect garbage
		// less often (a quarter of the default), trading a few megabytes.
		debug.SetGCPercent(400)
	}
	res, err := env.App().Blame(ctx, req)
	if err != nil {
		return err
	}
	switch res.Kind {
	case app.BlamePR:
		return f.write(env, res.PR, func() { printPR(env, res.PR) })
	case app.BlameCommit:
		return f.write(env, res.Commit, func() { printCommitBlame(env, res.Commit) })
	}
	return printFileBlame(env, f, res.File)
}

// parseBlameArg splits FILE[:A[-B]]; a path whose last colon is not
// followed by a line range is a plain path.
func parseBlameArg(s string) (blame.FileRequest, error) {
	req := blame.FileRequest{Path: s}
	i := strings.LastIndex(s, ":")
	if i < 0 {
		return req, nil
	}
	a, b, isRange := strings.Cut(s[i+1:], "-")
	start, err := strconv.Atoi(a)
	if err != nil {
		return req, nil
	}
	req.Path, req.Start, req.End = s[:i], start, start
	if isRange {
		if req.End, err = strconv.Atoi(b); err != nil {
			return req, usagef("bad line range: want FILE:A or FILE:A-B")
		}
	}
	if req.Start < 1 || req.End < req.Start {
		return req, usagef("bad line range: want 1 <= A <= B")
	}
	return req, nil
}

func printFileBlame(env *Env, f *format, v *blame.FileView) error {
	if f.json() {
		return writeJSONFast(env.Stdout, v, 1024*len(v.Lines)) // megabytes for a large file
	}
	w := env.Stdout
	for _, p := range v.Problems {
		fmt.Fprintln(env.Stderr, "ctx blame:", p)
	}
	for _, l := range v.Lines {
		who, kind := "-", "-"
		if len(l.Evidence) > 0 {
			who, kind = evidenceLabel(&l.Evidence[0]), clean(l.Evidence[0].Match)
			if n := len(l.Evidence); n > 1 {
				who += fmt.Sprintf(" (+%d)", n-1)
			}
		}
		id := shortID(l.Commit)
		if l.Shallow { // as git blame marks a boundary commit
			id = "^" + id[:len(id)-1]
		}
		fmt.Fprintf(w, "%s %5d  %-44s %-10s %s\n", id, l.Line, who, kind, clean(l.Text))
	}
	return nil
}

// evidenceLabel names the session (provider, short id and title) and the
// event of one piece of evidence.
func evidenceLabel(e *blame.Evidence) string {
	s := e.Provider + " " + shortN(e.CtxSessionID, 12)
	if e.SessionTitle != "" {
		s += " " + strconv.Quote(clip(oneLine(e.SessionTitle), 40))
	}
	if e.CtxEventID != "" {
		s += " event " + shortN(e.CtxEventID, 12)
	}
	switch {
	case e.Forgotten:
		s += " (forgotten)"
	case !e.InStore:
		s += " (not in store)"
	}
	return s
}

func shortN(id string, n int) string {
	if len(id) > n {
		return id[:n]
	}
	return id
}

// clip cuts s to n runes, marking the cut.
func clip(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}

func printCommitBlame(env *Env, v *blame.CommitView) {
	w := env.Stdout
	fmt.Fprintf(w, "commit %s %s\n", shortID(v.Commit), oneLine(v.Subject))
	for _, p := range v.Problems {
		fmt.Fprintln(w, "  problem:", p)
	}
	if len(v.Files) == 0 && len(v.Sessions) == 0 {
		fmt.Fprintln(w, "  no agent evidence")
	}
	for _, fe := range v.Files {
		fmt.Fprintln(w, " ", fe.File)
		for _, r := range fe.Records {
			for _, e := range r.Evidence {
				fmt.Fprintf(w, "    lines %s  %s %s  %s\n", rangesText(r.Lines), evidenceLabel(&e), clean(e.Match), oneLine(e.Excerpt))
			}
		}
	}
	for _, e := range v.Sessions {
		fmt.Fprintf(w, "  active at commit time, wrote none of its lines (not cited): %s (%s)\n", evidenceLabel(&e), e.NativeSessionID)
	}
}

func printPR(env *Env, v *blame.PRView) {
	w := env.Stdout
	fmt.Fprintf(w, "%s: %d commits, %d lines added, %d by agents (%.1f%%)\n", v.Range, v.Commits, v.AddedLines,
		v.AgentLines, 100*v.AgentShare)
	for _, s := range v.BySession {
		fmt.Fprintf(w, "  %6d  %s %s (%s)\n", s.Lines, s.Provider, s.CtxSessionID, s.NativeSessionID)
	}
	fmt.Fprintf(w, "Sessions cited: %d\n", len(v.Cited))
	for _, p := range v.Problems {
		fmt.Fprintln(w, "  problem:", p)
	}
}

func rangesText(rs [][2]int) string {
	parts := make([]string, len(rs))
	for i, r := range rs {
		parts[i] = strconv.Itoa(r[0])
		if r[1] != r[0] {
			parts[i] += "-" + strconv.Itoa(r[1])
		}
	}
	return strings.Join(parts, ",")
}

func shortID(id string) string {
	if len(id) > 10 {
		return id[:10]
	}
	return id
}
