package main

import (
	"context"
	"errors"
	"fmt"
	"log"
	"os"
	"os/exec"
	"os/signal"
	"runtime"
	"syscall"

	"github.com/spf13/cobra"

	"ctx/blame"
	"ctx/ui"
)

type uiOptions struct {
	Addr string
	Open bool
	Repo string
}

func newUICmd(env *Env, _ *format) *cobra.Command {
	opts := &uiOptions{}
	cmd := &cobra.Command{
		Use:   "ui",
		Short: "Browse sessions, search as you type and follow blame in a local web viewer",
		Long: "ui serves a read-only web viewer of the store on loopback and prints its URL.\n" +
			"The URL carries a secret of this run: the first page it opens turns it into a\n" +
			"cookie, and any request without it (another browser, another site, another\n" +
			"host name) is refused. The viewer writes nothing to the store; each page reads\n" +
			"the newest generation. Stop it with Ctrl-C.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runUI(cmd.Context(), env, opts)
		},
	}
	cmd.Flags().StringVar(&opts.Addr, "addr", "127.0.0.1:0", "loopback address to listen on (port 0: any free port)")
	cmd.Flags().BoolVar(&opts.Open, "open", false, "open the URL in the default browser")
	cmd.Flags().StringVar(&opts.Repo, "repo", "", "the repository the blame page opens (default: the current one, if any)")
	return cmd
}

func runUI(ctx context.Context, env *Env, opts *uiOptions) error {
	if ctx == nil {
		ctx = context.Background()
	}
	limitServerHeap(env.Getenv)
	ln, err := ui.Listen(opts.Addr)
	if errors.Is(err, ui.ErrNotLoopback) {
		return usagef("%v", err)
	}
	if err != nil {
		return err
	}
	repo := opts.Repo
	if repo == "" {
		repo, _ = os.Getwd()
	}
	if r, err := blame.OpenRepo(ctx, repo); err == nil {
		repo = r.Root
	} else if opts.Repo != "" {
		ln.Close()
		return usagef("--repo: %v", err)
	} else {
		repo = ""
	}
	s, err := ui.New(ui.Options{Home: env.CtxHome(), Env: env.Source(), Repo: repo,
		Log: log.New(env.Stderr, "ctx ui: ", log.LstdFlags)}, ln)
	if err != nil {
		ln.Close()
		return err
	}
	env.App().Wake()
	fmt.Fprintf(env.Stdout, "ctx ui: %s\n", s.URL())
	fmt.Fprintln(env.Stderr, "(the URL holds this run's secret; Ctrl-C stops the viewer)")
	if opts.Open {
		openBrowser(env, s.URL())
	}
	ctx, stop := signal.NotifyContext(ctx, syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	return s.Serve(ctx)
}

// openBrowser asks the desktop to open url; a failure is only reported.
func openBrowser(env *Env, url string) {
	name := "xdg-open"
	if runtime.GOOS == "darwin" {
		name = "open"
	}
	if err := exec.Command(name, url).Start(); err != nil {
		fmt.Fprintf(env.Stderr, "ctx ui: could not open a browser (%v): open the URL above\n", err)
	}
}
