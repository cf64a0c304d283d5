package main

import (
	"context"
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"ctx/blame"
)

type notesOptions struct {
	Repo      string
	Configure bool
}

// notesResult is what ctx notes fetch|push report.
type notesResult struct {
	*blame.SyncResult
	Configured []string `json:"configured,omitempty"`
}

func newNotesCmd(env *Env, f *format) *cobra.Command {
	opts := &notesOptions{}
	cmd := &cobra.Command{
		Use:   "notes",
		Short: "Work with the notes that link commits to agent evidence (refs/notes/ctx): share, link",
		Long: "ctx notes fetch and push exchange refs/notes/ctx, the notes ctx hooks write, with a\n" +
			"remote: REMOTE names one of git remote's (default: the current branch's upstream\n" +
			"remote, else origin).\n\n" +
			"fetch brings the remote's notes into refs/notes/ctx-remote/REMOTE and merges them into\n" +
			"refs/notes/ctx with git notes merge -s cat_sort_uniq: notes of the same commit are\n" +
			"concatenated line by line, which keeps them valid JSON Lines. push fetches and merges\n" +
			"first, then pushes refs/notes/ctx without force; when a teammate pushed meanwhile it\n" +
			"fetches, merges and pushes again (a few rounds), so nobody's notes are overwritten.\n\n" +
			"Nothing else in the repository changes. --configure also adds, to this repository's own\n" +
			"config when missing, remote.REMOTE.fetch +refs/notes/ctx:refs/notes/ctx-remote/REMOTE (git\n" +
			"fetch then brings the notes along; ctx notes fetch still merges them) and\n" +
			"notes.displayRef refs/notes/ctx (git log shows the notes).",
	}
	verb := func(use, short string, do func(context.Context, *blame.Repo, string) (*blame.SyncResult, error)) *cobra.Command {
		c := &cobra.Command{Use: use + " [REMOTE]", Short: short, Args: cobra.MaximumNArgs(1),
			RunE: f.textOrJSON(func(c *cobra.Command, args []string) error {
				remote := ""
				if len(args) == 1 {
					remote = args[0]
				}
				repo, err := blame.OpenRepo(c.Context(), opts.Repo)
				if err != nil {
					return usagef("%v", err)
				}
				res, err := do(c.Context(), repo, remote)
				if err != nil {
					return notesErr(err)
				}
				out := &notesResult{SyncResult: res}
				if opts.Configure {
					if out.Configured, err = blame.ConfigureRemote(c.Context(), repo, res.Remote); err != nil {
						return err
					}
				}
				return f.write(env, out, func() { printNotes(env, use, out) })
			})}
		c.Flags().StringVar(&opts.Repo, "repo", ".", "a directory inside the repository")
		c.Flags().BoolVar(&opts.Configure, "configure", false,
			"also add the notes fetch refspec and notes.displayRef to the repository's config")
		return c
	}
	cmd.AddCommand(
		verb("fetch", "Fetch the remote's notes and merge them into refs/notes/ctx", blame.FetchNotes),
		verb("push", "Fetch and merge, then push refs/notes/ctx without force",
			func(ctx context.Context, repo *blame.Repo, remote string) (*blame.SyncResult, error) {
				return blame.PushNotes(ctx, repo, remote, 0)
			}))
	return cmd
}

// notesErr makes a missing or unknown remote a usage error.
func notesErr(err error) error {
	if errors.Is(err, blame.ErrNoRemote) || errors.Is(err, blame.ErrUnknownRemote) {
		return usagef("%v", err)
	}
	return err
}

func printNotes(env *Env, verb string, res *notesResult) {
	w := env.Stdout
	switch {
	case !res.RemoteHadNotes:
		fmt.Fprintf(w, "%s has no ctx notes yet.\n", res.Remote)
	case res.Merged:
		fmt.Fprintf(w, "Merged the notes of %s into %s.\n", res.Remote, blame.NotesRef)
	default:
		fmt.Fprintf(w, "Nothing new from %s.\n", res.Remote)
	}
	if verb == "push" {
		switch {
		case res.Local == "":
			fmt.Fprintln(w, "No ctx notes here to push.")
		case res.Pushed:
			fmt.Fprintf(w, "Pushed %s to %s.\n", blame.NotesRef, res.Remote)
		default:
			fmt.Fprintf(w, "%s already has these notes.\n", res.Remote)
		}
	}
	for _, c := range res.Configured {
		fmt.Fprintln(w, "Configured:", c)
	}
}
