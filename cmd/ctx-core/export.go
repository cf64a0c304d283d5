package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"ctx/app"
)

type exportOptions struct {
	Output, Range string
	Force         bool
	Clip          int
}

// errTargetExists is returned when -o names an existing file and --force
// is not given.
var errTargetExists = errors.New("the target file exists")

func newExportCmd(env *Env, f *format) *cobra.Command {
	opts := &exportOptions{}
	cmd := &cobra.Command{
		Use:   "export ID",
		Short: "Write a session as Markdown, one self-contained HTML file, or JSON Lines",
		Long: "Write a readable transcript of a session: its metadata and provenance, then its\n" +
			"events, tool outputs folded under their calls, edits as diffs, long outputs\n" +
			"clipped with a marker. --format markdown (the default), html (one file, no\n" +
			"script, readable offline) or jsonl. Text is escaped in every format. ID is any\n" +
			"form ctx resume takes. -o writes a file (never over an existing one without\n" +
			"--force); --range FIRST-LAST exports event ordinals FIRST to LAST.",
		Args:              cobra.ExactArgs(1),
		ValidArgsFunction: recentSessions(env),
		RunE: func(cmd *cobra.Command, args []string) error {
			if f.value == "text" {
				f.value = app.ExportMarkdown
			}
			if err := f.check(app.ExportMarkdown, app.ExportHTML, app.ExportJSONL); err != nil {
				return err
			}
			return runExport(cmd.Context(), env, f.value, opts, args[0])
		},
	}
	fl := cmd.Flags()
	fl.StringVarP(&opts.Output, "output", "o", "", "write to this file instead of stdout")
	fl.BoolVar(&opts.Force, "force", false, "replace the -o file when it exists")
	fl.StringVar(&opts.Range, "range", "", "only event ordinals FIRST-LAST (10-20, 10-, -20)")
	fl.IntVar(&opts.Clip, "clip", app.ExportDefaultClip, "bytes of one tool output or diff to show")
	return cmd
}

func runExport(ctx context.Context, env *Env, format string, opts *exportOptions, arg string) error {
	from, to, err := app.ParseExportRange(opts.Range)
	if err != nil {
		return usagef("--range: %v", err)
	}
	if opts.Clip < 1 {
		return usagef("--clip must be at least 1")
	}
	target := ""
	if opts.Output != "" {
		if target, err = filepath.Abs(opts.Output); err != nil {
			return usagef("-o: %v", err)
		}
		if _, err := os.Lstat(target); err == nil && !opts.Force {
			return fmt.Errorf("%w: %s (pass --force to replace it)", errTargetExists, opts.Output)
		}
	}
	eo := app.ExportOptions{Format: format, From: from, To: to, Clip: opts.Clip, Version: version, Now: env.Now()}
	return env.App().Pinned(ctx, func(p *app.Pinned) error {
		id, err := p.ResolveSession(ctx, arg)
		if err != nil {
			return err
		}
		if target == "" {
			return p.Export(ctx, env.Stdout, id, eo)
		}
		return writeFileAtomic(target, func(f *os.File) error { return p.Export(ctx, f, id, eo) })
	})
}

// writeFileAtomic writes a private file beside target and renames it into
// place once complete, so a failed export leaves nothing half written.
func writeFileAtomic(target string, write func(*os.File) error) error {
	tmp, err := os.CreateTemp(filepath.Dir(target), "."+filepath.Base(target)+".tmp-*")
	if err != nil {
		return err
	}
	done := false
	defer func() {
		if !done {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	if err := tmp.Chmod(fs.FileMode(0o600)); err != nil {
		return err
	}
	if err := write(tmp); err != nil {
		return err
	}
	if err := tmp.Sync(); err != nil {
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	done = true
	return os.Rename(tmp.Name(), target)
}
