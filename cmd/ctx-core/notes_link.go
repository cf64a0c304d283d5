package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"ctx/blame"
)

// attachNotesLink adds "link" to the notes command, creating a bare notes
// command when none exists yet.
func attachNotesLink(root *cobra.Command, env *Env, f *format) {
	var notes *cobra.Command
	for _, c := range root.Commands() {
		if c.Name() == "notes" {
			notes = c
		}
	}
	if notes == nil {
		notes = &cobra.Command{Use: "notes", Short: "Work with the notes that link commits to agent evidence (refs/notes/ctx)"}
		root.AddCommand(notes)
	}
	notes.AddCommand(newNotesLinkCmd(env, f))
}

func newNotesLinkCmd(env *Env, f *format) *cobra.Command {
	var from, repoDir string
	cmd := &cobra.Command{
		Use:   "link REV [--from BASE..HEAD]",
		Short: "Give a commit made where no hook ran (a forge's squash merge) the evidence of the commits it squashed",
		Long: "link matches commit REV by content against the notes of the commits in --from\n" +
			"(a range such as main..feature: the pull request's commits, whose notes are here)\n" +
			"and adds the evidence of every line REV still has as those commits wrote it to\n" +
			"REV's note. Without --from it uses the noted commits of local branches that REV\n" +
			"does not contain. Lines the squash changed get no evidence. Running it again\n" +
			"changes nothing.",
		Example: "  git fetch && ctx notes link origin/main --from main..my-feature",
		Args:    cobra.ExactArgs(1),
		RunE: f.textOrJSON(func(c *cobra.Command, args []string) error {
			res, err := env.App().LinkSquash(c.Context(), repoDir, args[0], from)
			return reply(env, f, res, err, printLink)
		}),
	}
	cmd.Flags().StringVar(&from, "from", "", "the squashed commits, as a range BASE..HEAD")
	cmd.Flags().StringVar(&repoDir, "repo", ".", "a directory inside the repository")
	return cmd
}

func printLink(env *Env, res *blame.LinkResult) {
	w := env.Stdout
	fmt.Fprintf(w, "commit %s: matched against %s\n", shortID(res.Commit), plural(len(res.Sources), "noted commit"))
	if res.Note == nil {
		fmt.Fprintln(w, "  no line carried")
	} else {
		fmt.Fprintf(w, "  %s with evidence in %s: %s\n", plural(res.Lines, "line"), plural(len(res.Files), "file"),
			filesLine(res.Files, len(res.Files), 8))
	}
	for _, p := range res.Skipped {
		fmt.Fprintln(w, "  problem:", p)
	}
}
