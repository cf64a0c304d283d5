package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"ctx/app"
	"ctx/core"
	"ctx/daemon"
	"ctx/wake"
)

func newDaemonCmd(env *Env, f *format) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "daemon",
		Short: "Run, start, stop or inspect the background importer",
		Long: "The daemon watches every source, imports what is written within about a second\n" +
			"and answers wakes from search and the MCP server on $CTX_HOME/daemon.sock.\n" +
			"Its log is $CTX_HOME/logs/daemon.log. One daemon runs per store.",
	}
	cmd.AddCommand(&cobra.Command{
		Use: "run", Short: "Run the daemon in the foreground until interrupted", Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return runDaemon(cmd.Context(), env) },
	}, &cobra.Command{
		Use: "start", Short: "Start the daemon in the background", Args: cobra.NoArgs,
		RunE: f.textOrJSON(func(*cobra.Command, []string) error { return startDaemon(env, f) }),
	}, &cobra.Command{
		Use: "stop", Short: "Stop the running daemon", Args: cobra.NoArgs,
		RunE: f.textOrJSON(func(*cobra.Command, []string) error { return stopDaemon(env, f) }),
	}, &cobra.Command{
		Use: "status", Short: "Show whether the daemon runs, its pid, last generation and lag", Args: cobra.NoArgs,
		RunE: f.textOrJSON(func(*cobra.Command, []string) error { return daemonStatus(env, f) }),
	})
	return cmd
}

// daemonOptions builds the daemon's options from the environment and the
// config; the sources are re-planned on every rescan.
func daemonOptions(env *Env) (daemon.Options, *app.App, error) {
	a := env.App()
	p, err := a.Plan(nil)
	if err != nil {
		return daemon.Options{}, nil, err
	}
	plan := func() ([]core.Source, error) {
		p, err := a.Plan(nil)
		if err != nil {
			return nil, err
		}
		return p.Sources, nil
	}
	// The searches the CLI hands over are answered by a pooled App, which
	// keeps the active generation's shards open between them.
	searcher := app.New(app.Options{Env: env.Source(), Home: env.CtxHome(), Now: env.Now, Version: version,
		Pooled: true, NoWake: true})
	return daemon.Options{Home: env.CtxHome(), Env: env.Source(), Sources: plan, Redactor: p.Redactor, Exclude: p.Exclude,
		Version: version, Search: searcher.ServeSearch, Command: frontCommand(searcher)}, searcher, nil
}

// frontCommand runs, in the daemon, the command lines the ctx front hands
// over (ctx search) exactly as ctx would run them in the client's
// directory and environment, with its terminals, over the pooled App's
// open shards: what it writes and its exit code go back to the front,
// which prints them. Anything else, and a client in another time
// zone (times are printed in the local one), is refused: the front then
// runs ctx itself.
func frontCommand(searcher *app.App) func(context.Context, daemon.Request) (daemon.RunOutput, error) {
	return func(_ context.Context, req daemon.Request) (out daemon.RunOutput, err error) {
		if len(req.Args) == 0 || req.Args[0] != "search" {
			return out, errors.New("the daemon runs ctx search only")
		}
		if !filepath.IsAbs(req.Dir) {
			return out, errors.New("the run op needs the client's absolute working directory")
		}
		vars := make(map[string]string, len(req.Env))
		for _, kv := range req.Env {
			if k, v, ok := strings.Cut(kv, "="); ok {
				vars[k] = v
			}
		}
		if tz, _ := os.LookupEnv("TZ"); vars["TZ"] != tz {
			return out, errors.New("the client has another time zone")
		}
		var stdout, stderr strings.Builder
		env := &Env{Stdin: strings.NewReader(""), Stdout: &stdout, Stderr: &stderr,
			Getenv: func(k string) string { return vars[k] },
			Lookup: func(k string) (string, bool) { v, ok := vars[k]; return v, ok },
			Now:    time.Now,
			Getwd:  func() (string, error) { return req.Dir, nil }}
		env.IsTTY = func(w io.Writer) bool {
			return (w == io.Writer(&stdout) && req.StdoutTTY) || (w == io.Writer(&stderr) && req.StderrTTY)
		}
		env.app = searcher.For(env.Source())
		defer func() {
			if p := recover(); p != nil {
				out, err = daemon.RunOutput{}, fmt.Errorf("ctx search failed in the daemon: %v", p)
			}
		}()
		code := runUnder(req.Args, env, newSearchRoot)
		return daemon.RunOutput{Stdout: stdout.String(), Stderr: stderr.String(), Exit: code}, nil
	}
}

func runDaemon(ctx context.Context, env *Env) error {
	opts, searcher, err := daemonOptions(env)
	if err != nil {
		return err
	}
	defer searcher.Close()
	if env.IsTTY(env.Stderr) {
		opts.Log = env.Stderr
	}
	if ctx == nil {
		ctx = context.Background()
	}
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	err = daemon.Run(ctx, opts)
	if errors.Is(err, daemon.ErrRunning) {
		fmt.Fprintf(env.Stderr, "ctx: %v; nothing to do.\n", err)
		return nil
	}
	return err
}

func startDaemon(env *Env, f *format) error {
	exe, err := os.Executable()
	if err != nil {
		return fmt.Errorf("daemon start: %w", err)
	}
	st, err := env.App().DaemonStart(exe)
	if err != nil {
		return err
	}
	return f.write(env, st, func() { fmt.Fprintf(env.Stdout, "Daemon running: pid %d.\n", st.PID) })
}

func stopDaemon(env *Env, f *format) error {
	pid, stopped, err := env.App().DaemonStop()
	if err != nil {
		return err
	}
	if !stopped {
		return f.write(env, map[string]any{"stopped": false, "running": false},
			func() { fmt.Fprintln(env.Stdout, "No daemon is running.") })
	}
	return f.write(env, map[string]any{"stopped": true, "pid": pid},
		func() { fmt.Fprintf(env.Stdout, "Daemon stopped (pid %d).\n", pid) })
}

func daemonStatus(env *Env, f *format) error {
	out := env.App().DaemonStatus()
	return f.write(env, out, func() { printDaemonStatus(env, &out) })
}

func printDaemonStatus(env *Env, out *app.DaemonState) {
	w := env.Stdout
	if !out.Running {
		fmt.Fprintf(w, "Daemon: not running (start it with ctx daemon start). Log: %s\n", out.Log)
		return
	}
	fmt.Fprintf(w, "Daemon: running, pid %d, since %s\n", out.PID, out.Since.Local().Format("2006-01-02 15:04:05"))
	fmt.Fprintf(w, "Last generation %d, last import %s, lag %.1fs, watching %d directories, %d searches answered\n",
		out.LastGeneration, orDash(out.LastImport), *out.LagSeconds, out.Watching, out.Searches)
	if r := out.Repair; r != nil {
		fmt.Fprintln(w, repairLine(r))
	}
	if g := out.GC; g != nil {
		fmt.Fprintln(w, gcLine(g))
	}
	fmt.Fprintf(w, "Socket: %s\nLog: %s\n", out.Socket, out.Log)
}

// gcLine says what the daemon's last gc did.
func gcLine(g *wake.Collected) string {
	at := g.At.Local().Format("2006-01-02 15:04:05")
	if g.Error != "" {
		return fmt.Sprintf("GC: failed at %s: %s", at, oneLine(g.Error))
	}
	line := fmt.Sprintf("GC: at %s kept %s, expired %d; removed %s (%s) and %s",
		at, plural(g.KeptGenerations, "generation"), g.ExpiredGenerations, plural(g.ObjectsRemoved, "object"),
		humanBytes(g.BytesRemoved), plural(g.ShardsRemoved, "shard"))
	if g.ShardsReindexed > 0 {
		line += fmt.Sprintf("; %s re-indexed without forgotten sessions", plural(g.ShardsReindexed, "shard"))
	}
	return line
}

// repairLine says what the daemon's last repair of damaged shards did.
func repairLine(r *wake.Repair) string {
	at := r.At.Local().Format("2006-01-02 15:04:05")
	if r.Error != "" {
		return fmt.Sprintf("Repair: %s damaged at %s, rebuilding failed: %s (ctx verify --repair retries)",
			plural(len(r.Shards), "index shard"), at, oneLine(r.Error))
	}
	return fmt.Sprintf("Repair: %s damaged, rebuilt from the store at %s in generation %d (%s)",
		plural(len(r.Shards), "index shard"), at, r.Generation, strings.Join(r.Shards, ", "))
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
