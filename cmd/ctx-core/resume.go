package main

import (
	"context"
	"errors"
	"fmt"
	"os/exec"

	"github.com/spf13/cobra"

	"ctx/app"
)

type resumeOptions struct{ Exec bool }

// errCannotResume is returned by --exec when the command cannot run here.
var errCannotResume = errors.New("cannot resume here")

func newResumeCmd(env *Env, f *format) *cobra.Command {
	opts := &resumeOptions{}
	cmd := &cobra.Command{
		Use:   "resume ID",
		Short: "Print (or --exec run) the command that reopens a session in its agent",
		Long: "Print the command that reopens a session in the agent that wrote it, run in the\n" +
			"session's workspace: claude --resume, codex resume, gemini --resume, opencode\n" +
			"--session, copilot --resume. Agents without a resume command (Cursor, Cline,\n" +
			"Aider, Amp) get a plain message instead. ID is a session id, an event id (from a\n" +
			"search hit), a unique ses_ prefix or the agent's own session id.",
		Args:              cobra.ExactArgs(1),
		ValidArgsFunction: recentSessions(env),
		RunE: f.textOrJSON(func(cmd *cobra.Command, args []string) error {
			return runResume(cmd.Context(), env, f, opts, args[0])
		}),
	}
	cmd.Flags().BoolVar(&opts.Exec, "exec", false, "run the command in the session's workspace instead of printing it")
	return cmd
}

func runResume(ctx context.Context, env *Env, f *format, opts *resumeOptions, arg string) error {
	res, err := env.App().Resume(ctx, arg)
	if err != nil {
		return err
	}
	if opts.Exec {
		return execResume(ctx, env, res)
	}
	return f.write(env, res, func() {
		if res.Supported {
			fmt.Fprintln(env.Stdout, res.CommandLine)
		}
		if res.Message != "" {
			fmt.Fprintln(env.Stderr, env.style().yellow("note:"), clean(res.Message))
		}
	})
}

// execResume runs the agent in the session's workspace with the terminal
// handed over.
func execResume(ctx context.Context, env *Env, res *app.Resume) error {
	switch {
	case !res.Supported:
		return fmt.Errorf("%w: %s", errCannotResume, res.Message)
	case !res.BinaryFound:
		return fmt.Errorf("%w: %s not found on PATH; the command is: %s", errCannotResume, res.Command[0], res.CommandLine)
	case res.Workspace != "" && !res.WorkspaceExists:
		return fmt.Errorf("%w: the session's workspace %s no longer exists; the command is: %s", errCannotResume,
			res.Workspace, app.ShellQuote(res.Command...))
	}
	cmd := exec.CommandContext(ctx, res.Command[0], res.Command[1:]...)
	cmd.Dir = res.Workspace
	cmd.Stdin, cmd.Stdout, cmd.Stderr = env.Stdin, env.Stdout, env.Stderr
	return cmd.Run()
}
