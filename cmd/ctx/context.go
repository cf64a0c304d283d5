package main

import (
	"fmt"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"ctx/workspace"
)

type contextOptions struct {
	scope string
	root  string
}

func newContextCmd(env *Env, f *format) *cobra.Command {
	var opts contextOptions
	cmd := &cobra.Command{
		Use:   "context",
		Short: "Print the workspace's context: plan, key files, git state, recent sessions (get_context)",
		Long: "Print the ContextObject of get_context for a workspace (the working directory unless\n" +
			"--root): its plan (PLAN.md, TODO.md, docs/plan*.md), key files within the token budget\n" +
			"(ranked by what agent sessions of this workspace read and edited), git state and recent\n" +
			"sessions from the store. --format json prints the object itself.",
		Args: cobra.NoArgs,
		RunE: f.textOrJSON(func(cmd *cobra.Command, _ []string) error { return runContext(cmd, env, f, opts) }),
	}
	cmd.Flags().StringVar(&opts.scope, "scope", "full", "full, plan, files or git")
	cmd.Flags().StringVar(&opts.root, "root", "", "the workspace (default: the working directory)")
	return cmd
}

func runContext(cmd *cobra.Command, env *Env, f *format, opts contextOptions) error {
	if !workspace.ValidScope(opts.scope) {
		return usagef("--scope must be full, plan, files or git")
	}
	root := opts.root
	if root == "" {
		root, _ = os.Getwd()
	}
	h, err := handoff(env)
	if err != nil {
		return err
	}
	o, err := h.GetContext(cmd.Context(), cliCaller(root), opts.scope)
	if err != nil {
		return handoffErr(err)
	}
	return f.write(env, o, func() { renderContext(env, o) })
}

func renderContext(env *Env, o *workspace.Object) {
	w := env.Stdout
	m := o.Meta
	fmt.Fprintf(w, "%s (%s scope): %d of %d tokens\n", m.Root, m.Scope, m.TokensUsed, m.TokenBudget)
	if o.Plan != nil {
		for _, p := range o.PlanFiles {
			cut := ""
			if p.Truncated {
				cut = ", cut"
			}
			fmt.Fprintf(w, "plan %s: %d tokens%s\n", p.Path, p.Tokens, cut)
		}
	}
	for _, k := range o.KeyFiles {
		cut := ""
		if k.Truncated {
			cut = ", cut"
		}
		fmt.Fprintf(w, "file %-40s %6d tokens  %s%s\n", oneLine(k.Path), k.Tokens, k.Reason, cut)
	}
	if g := o.GitState; g != nil {
		branch := g.Branch
		if g.Detached {
			branch = "detached at " + g.Head
		}
		fmt.Fprintf(w, "git %s: %d staged, %d modified, %d untracked, ahead %d, behind %d\n", branch,
			len(g.Staged), len(g.Modified), len(g.Untracked), g.Ahead, g.Behind)
		for _, c := range g.Commits {
			fmt.Fprintf(w, "  %.10s %s %s\n", c.Hash, c.Date.Format("2006-01-02"), oneLine(c.Subject))
		}
	}
	for _, s := range o.Sessions {
		fmt.Fprintf(w, "session %s %-14s %s  %s\n", s.SessionID, s.Provider, s.Ended.Format("2006-01-02 15:04"),
			oneLine(strings.TrimSpace(s.Title)))
	}
	if o.SessionSummary != nil {
		fmt.Fprintf(w, "summary (a model's digest, untrusted): %s\n", oneLine(*o.SessionSummary))
	}
	for _, c := range m.Connectors {
		if c.Status == workspace.StatusError {
			fmt.Fprintf(w, "connector %s failed: %s\n", c.Name, oneLine(c.Detail))
		}
	}
}
