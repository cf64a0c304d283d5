package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"
)

// format is the --format flag shared by every command.
type format struct{ value string }

func (f *format) json() bool { return f.value == "json" || f.value == "jsonl" }

func (f *format) check(allowed ...string) error {
	for _, a := range allowed {
		if f.value == a {
			return nil
		}
	}
	return usagef("--format must be one of %s", strings.Join(allowed, ", "))
}

// textOrJSON is run behind the check a command that prints one answer
// makes before anything else: --format is text or json.
func (f *format) textOrJSON(run func(*cobra.Command, []string) error) func(*cobra.Command, []string) error {
	return func(cmd *cobra.Command, args []string) error {
		if err := f.check("text", "json"); err != nil {
			return err
		}
		return run(cmd, args)
	}
}

// runFlags is the RunE of a command whose arguments are all flags, bound
// to opts: --format is checked to be text or json, and run gets opts.
func runFlags[O any](env *Env, f *format, opts O, run func(context.Context, *Env, *format, O) error) func(*cobra.Command, []string) error {
	return f.textOrJSON(func(cmd *cobra.Command, _ []string) error { return run(cmd.Context(), env, f, opts) })
}

// answer is the RunE of a command that computes one answer and prints it:
// --format is checked to be text or json, get runs, and its answer is
// written as JSON or by text.
func answer[T any](env *Env, f *format, get func(*cobra.Command, []string) (T, error), text func(*Env, T)) func(*cobra.Command, []string) error {
	return f.textOrJSON(func(cmd *cobra.Command, args []string) error {
		v, err := get(cmd, args)
		return reply(env, f, v, err, text)
	})
}

// reply is the end of a command's run: err as it is, else v written as
// write writes it, by text under --format text.
func reply[T any](env *Env, f *format, v T, err error, text func(*Env, T)) error {
	if err != nil {
		return err
	}
	return f.write(env, v, func() { text(env, v) })
}

// paged is text run through a pager, for an answer long enough to want one.
func paged[T any](text func(*Env, T)) func(*Env, T) {
	return func(env *Env, v T) { withPager(env, func() { text(env, v) }) }
}

// write prints a command's answer: v as indented JSON under --format json,
// else whatever text prints.
func (f *format) write(env *Env, v any, text func()) error {
	if f.json() {
		return writeJSON(env.Stdout, v)
	}
	text()
	return nil
}

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

func writeJSONLine(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}

func newRootCmd(env *Env, f *format) *cobra.Command {
	root := newBareRoot(env, f)
	root.AddCommand(newImportCmd(env, f), newStatusCmd(env, f), newSourcesCmd(env, f), newSearchCmd(env, f),
		newShowCmd(env, f), newListCmd(env, f), newVerifyCmd(env, f), newGCCmd(env, f), newDocsCmd(env, f),
		newMCPCmd(env, f), newDaemonCmd(env, f), newHooksCmd(env, f), newBlameCmd(env, f),
		newIntegrationsCmd(env, f), newNotesCmd(env, f), newTimelineCmd(env, f), newStatsCmd(env, f), newResumeCmd(env, f), newExportCmd(env, f), newForgetCmd(env, f), newVersionCmd(env, f),
		newSyncCmd(env, f))
	root.AddCommand(newTokensCmd(env, f), newContextCmd(env, f), newThreadsCmd(env, f), newIngestCmd(env, f), newUICmd(env, f))
	root.SetHelpCommand(newHelpCmd(root))

	attachNotesLink(root, env, f)
	guardGroups(root)
	return root
}

// newSearchRoot is the root with the search command alone: what the
// daemon runs the front's command lines (ctx search's only) under. Search
// prints the same under it; building every command and its flags took
// 0.3 ms and 230 KB of a warm search.
func newSearchRoot(env *Env, f *format) *cobra.Command {
	root := newBareRoot(env, f)
	root.AddCommand(newSearchCmd(env, f))
	root.SetHelpCommand(newHelpCmd(root))
	return root
}

// newBareRoot is the root command with its global flags and no command.
func newBareRoot(env *Env, f *format) *cobra.Command {
	root := &cobra.Command{
		Use:           "ctx",
		Short:         "Search every coding agent's history on this machine",
		Long:          "ctx imports the conversations coding agents leave on disk into one local,\ncontent-addressed store and searches them.",
		SilenceUsage:  true,
		SilenceErrors: true,
		Version:       version,
		// Cobra runs the nearest PersistentPreRun only: no subcommand sets one.
		PersistentPreRun: func(cmd *cobra.Command, _ []string) { tuneGC(cmd, env.Getenv) },
	}
	root.SetOut(env.Stdout)
	root.SetErr(env.Stderr)
	root.PersistentFlags().StringVar(&f.value, "format", "text", "output format: text or json (jsonl where a command streams)")
	root.PersistentFlags().StringVar(&env.Color, "color", colorAuto, "colour and bold text: auto (on a terminal without NO_COLOR), always or never")
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return usagef("%v", err) })
	return root
}

func newHelpCmd(root *cobra.Command) *cobra.Command {
	return &cobra.Command{
		Use:   "help [command | exit-codes]",
		Short: "Help about a command, or the exit codes",
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 1 && args[0] == "exit-codes" {
				fmt.Fprint(cmd.OutOrStdout(), exitCodesHelp)
				return nil
			}
			target, _, err := root.Find(args)
			if err != nil || target == nil {
				return usagef("unknown help topic")
			}
			return target.Help()
		},
	}
}

func run(args []string, env *Env) int { return runUnder(args, env, newRootCmd) }

// runUnder runs a command line under the root newRoot builds.
func runUnder(args []string, env *Env, newRoot func(*Env, *format) *cobra.Command) int {
	f := &format{value: "text"}
	root := newRoot(env, f)
	root.SetArgs(args)
	err := root.Execute()
	if err == nil {
		return exitOK
	}
	if strings.HasPrefix(err.Error(), "unknown command") || strings.HasPrefix(err.Error(), "unknown flag") ||
		strings.Contains(err.Error(), "arg(s)") {
		err = &usageError{err.Error()}
	}
	code := printError(env, err, f.json())
	var ue *usageError
	if errors.As(err, &ue) && !f.json() {
		fmt.Fprintln(env.Stderr, "Run 'ctx help' for usage.")
	}
	return code
}
