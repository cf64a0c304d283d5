package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"

	"github.com/spf13/cobra"

	"ctx/app"
	"ctx/hooks"
	"ctx/wake"
)

type hooksOptions struct {
	Repo string
}

func newHooksCmd(env *Env, f *format) *cobra.Command {
	opts := &hooksOptions{}
	cmd := &cobra.Command{
		Use:   "hooks",
		Short: "Install, remove or inspect the git hooks that link commits to agent evidence",
		Long: "ctx hooks installs post-commit, post-rewrite and post-merge hooks in a repository.\n" +
			"They record, as git notes under refs/notes/ctx, which agent sessions and events wrote\n" +
			"the lines of each commit; ctx blame reads them. Amend, rebase, cherry-pick, merge\n" +
			"--squash and reset --soft carry the evidence to the new commits; a squash merged by a\n" +
			"forge gets it when it is pulled (post-merge), or with ctx notes link (ctx docs show\n" +
			"notes-format). A hook never fails or blocks a commit.",
	}
	cmd.PersistentFlags().StringVar(&opts.Repo, "repo", ".", "a directory inside the repository")
	verb := func(use, short string, do func(context.Context, hooks.Options) (*hooks.Result, error)) *cobra.Command {
		return &cobra.Command{Use: use, Short: short, Args: cobra.NoArgs,
			RunE: f.textOrJSON(func(c *cobra.Command, _ []string) error {
				res, err := do(c.Context(), hooks.Options{Repo: opts.Repo, Binary: selfPath(), Home: env.CtxHome()})
				if err != nil {
					return err
				}
				return f.write(env, res, func() { printHooks(env, use, res) })
			})}
	}
	cmd.AddCommand(verb("install", "Install the hooks (an existing hook is kept and chained)", hooks.Install),
		verb("remove", "Remove the hooks and restore what was there", hooks.Remove),
		verb("status", "Show the hooks and the latest problems of their runs", hooks.Status),
		newHooksRunCmd(env))
	return cmd
}

// newHooksRunCmd is what the installed scripts call. It always exits 0.
func newHooksRunCmd(env *Env) *cobra.Command {
	return &cobra.Command{
		Use:    "run post-commit|post-rewrite|post-merge [args]",
		Short:  "Run a hook's work (called by the installed hooks)",
		Hidden: true,
		Args:   cobra.ArbitraryArgs,
		RunE: func(c *cobra.Command, args []string) error {
			if len(args) == 0 {
				return nil
			}
			dir, _ := os.Getwd()
			err := env.App().RunHook(c.Context(), app.HookRun{Hook: args[0], Args: args[1:], Stdin: env.Stdin, Dir: dir,
				DaemonTried: env.Getenv(wake.HookTriedEnv)})
			if err != nil {
				fmt.Fprintln(env.Stderr, "ctx hooks:", err, "(logged; the commit is unaffected)")
			}
			return nil
		},
	}
}

// selfPath is the path of this ctx binary as it was invoked (symlinks kept,
// so a package manager's upgrade is followed), else the executable.
func selfPath() string {
	if p, err := exec.LookPath(os.Args[0]); err == nil {
		if abs, err := filepath.Abs(p); err == nil {
			return abs
		}
	}
	if p, err := os.Executable(); err == nil {
		return p
	}
	return ""
}

func printHooks(env *Env, verb string, res *hooks.Result) {
	w := env.Stdout
	fmt.Fprintf(w, "Repository %s, hooks in %s\n", res.Repo, res.HooksDir)
	if m := res.Manager; m != nil {
		fmt.Fprintf(w, "Hooks are managed by %s (%s): ctx wrote no hook file.\n%s\n", m.Name, m.Config, m.Instructions)
	}
	for _, h := range res.Hooks {
		chained := ""
		if h.Chained {
			chained = ", chains " + h.Name + hooks.ChainSuffix
		}
		fmt.Fprintf(w, "  %-13s %s%s\n", h.Name, h.State, chained)
	}
	if verb != "status" {
		if len(res.Changed) == 0 {
			fmt.Fprintln(w, "Nothing to change.")
		} else {
			fmt.Fprintf(w, "Changed: %v\n", res.Changed)
		}
	}
	for _, p := range res.Problems {
		fmt.Fprintln(w, "  problem:", p)
	}
}
