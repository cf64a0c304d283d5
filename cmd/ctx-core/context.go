package main

import (
	"context"
	"fmt"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"ctx/app"
	"ctx/workspace"
)

type contextOptions struct {
	scope string
	root  string
}

func newContextCmd(env *Env, f *format) *cobra.Command {
	opts := &contextOptions{}
	cmd := &cobra.Command{
		Use:   "context",
		Short: "Print the workspace's context: plan, key files, git state, recent sessions (get_context)",
		Long: "Print the ContextObject of get_context for a workspace (the working directory unless\n" +
			"--root): its plan (PLAN.md, TODO.md, docs/plan*.md), key files within the token budget\n" +
			"(ranked by what agent sessions of this workspace read and edited), git state and recent\n" +
			"sessions from the store. --format json prints the object itself.",
		Args: cobra.NoArgs,
		RunE: answer(env, f, func(cmd *cobra.Command, _ []string) (*workspace.Object, error) {
			return getContext(cmd.Context(), env, opts)
		}, renderContext),
	}
	cmd.Flags().StringVar(&opts.scope, "scope", "full", "full, plan, files or git")
	cmd.Flags().StringVar(&opts.root, "root", "", "the workspace (default: the working directory)")
	return cmd
}

func getContext(ctx context.Context, env *Env, opts *contextOptions) (*workspace.Object, error) {
	if !workspace.ValidScope(opts.scope) {
		return nil, usagef("--scope must be full, plan, files or git")
	}
	root := opts.root
	if root == "" {
		root, _ = os.Getwd()
	}
	return onHandoff(env, func(h *app.Handoff) (*workspace.Object, error) {
		return h.GetContext(ctx, cliCaller(root), opts.scope)
	})
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
