package main

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"time"

	"github.com/spf13/cobra"

	"ctx/app"
	"ctx/ingest"
	"ctx/wake"
)

type importOptions struct {
	Sources []string
}

type importOutput struct {
	Published     bool           `json:"published"`
	Generation    any            `json:"generation"`
	FilesSeen     int            `json:"files_seen"`
	FilesRead     int            `json:"files_read"`
	Sessions      int            `json:"sessions_written"`
	EventsRead    int            `json:"events_read"`
	EventsIndexed int            `json:"events_indexed"`
	Objects       int            `json:"objects_written"`
	ObjectBytes   int64          `json:"object_bytes_written"`
	Problems      map[string]int `json:"problems"`
	DurationMS    int64          `json:"duration_ms"`
}

func newImportCmd(env *Env, f *format) *cobra.Command {
	opts := &importOptions{}
	cmd := &cobra.Command{
		Use:   "import",
		Short: "Import every discovered agent history into a new generation",
		Long: "Import reads the history files of every provider it discovers, re-reading only\n" +
			"files that changed since the last import, and publishes a new generation.\n" +
			"Nothing is published when nothing changed.",
		Args: cobra.NoArgs,
		RunE: runFlags(env, f, opts, runImport),
	}
	cmd.Flags().StringSliceVar(&opts.Sources, "source", nil, "import only this provider (repeatable): claude-code, codex")
	return cmd
}

func runImport(ctx context.Context, env *Env, f *format, opts *importOptions) error {
	start := time.Now()
	bar := newImportProgress(env, !f.json())
	// A running daemon is the single writer: the import is handed to it.
	res, err := env.App().Import(ctx, app.ImportOptions{Only: opts.Sources, ViaDaemon: true,
		Busy:     env.waitingForWriter,
		Progress: bar.update,
	})
	bar.done()
	if err != nil {
		return err
	}
	if res.Daemon != nil {
		return printDaemonImport(env, f, *res.Daemon)
	}
	rep := res.Report
	out := importOutput{Published: rep.Published, FilesSeen: rep.FilesSeen, FilesRead: rep.FilesRead,
		Sessions: rep.SessionsWrote, EventsRead: rep.EventsRead, EventsIndexed: rep.EventsIndexed,
		Objects: rep.Objects, ObjectBytes: rep.ObjectBytes, Problems: map[string]int{},
		DurationMS: time.Since(start).Milliseconds()}
	for _, p := range rep.Problems {
		out.Problems[p.Code]++
	}
	if rep.Published {
		out.Generation = map[string]any{"id": rep.GenerationID.String(), "number": rep.Generation.Number,
			"sessions": rep.Generation.Sessions, "events": rep.Generation.Events}
	}
	return f.write(env, out, func() { printImport(env, rep, out) })
}

func printDaemonImport(env *Env, f *format, r wake.Reply) error {
	out := map[string]any{"by_daemon": true, "published": r.Published,
		"generation": map[string]any{"number": r.Generation}, "files_read": r.FilesRead, "events_indexed": r.EventsIndexed}
	return f.write(env, out, func() {
		if r.Published {
			fmt.Fprintf(env.Stdout, "The daemon imported %d changed files (%d events indexed): generation %d.\n",
				r.FilesRead, r.EventsIndexed, r.Generation)
		} else {
			fmt.Fprintf(env.Stdout, "Nothing changed: the daemon's generation %d is up to date.\n", r.Generation)
		}
	})
}

func printImport(env *Env, rep *ingest.Report, out importOutput) {
	w := env.Stdout
	if !rep.Published {
		fmt.Fprintf(w, "Nothing changed: %d history files seen, no new generation.\n", rep.FilesSeen)
	} else {
		g := rep.Generation
		fmt.Fprintf(w, "Imported %d of %d history files: %d sessions, %d events (%d indexed) in %.1fs.\n",
			rep.FilesRead, rep.FilesSeen, rep.SessionsWrote, rep.EventsRead, rep.EventsIndexed, float64(out.DurationMS)/1000)
		fmt.Fprintf(w, "Generation %d (%s): %d sessions, %d events in the store; %d new objects, %s.\n",
			g.Number, rep.GenerationID.Short(), g.Sessions, g.Events, rep.Objects, humanBytes(rep.ObjectBytes))
		if rep.Checkpoints > 0 {
			fmt.Fprintf(w, "Published in %d steps: an interrupted import resumes from the last one.\n", rep.Checkpoints+1)
		}
	}
	if len(out.Problems) > 0 {
		codes := slices.Sorted(maps.Keys(out.Problems))
		fmt.Fprint(w, "Problems (skipped, everything else imported):")
		for _, c := range codes {
			fmt.Fprintf(w, " %s=%d", c, out.Problems[c])
		}
		fmt.Fprintln(w, " — see ctx status")
	}
}

func humanBytes(n int64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.1f GiB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}
