// Command ctx-mcp is ctx's MCP server: what `ctx mcp serve` runs. It is a
// binary of its own because the MCP library validates tool input and
// output with a JSON Schema package whose initialisation (the meta-schemas
// of five drafts, compiled at start) would otherwise cost every ctx process,
// a git hook or a listing as much as an MCP server, about 30 ms of CPU
// before any command runs. `ctx mcp serve ARGS` executes `ctx-mcp ARGS`,
// found beside ctx or on PATH; it can also be run directly.
package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"ctx/core"
	"ctx/internal/version"
	"ctx/mcp"
	"ctx/sources/reported"
	"ctx/store"
)

func main() {
	if err := newCmd().Execute(); err != nil {
		var ue usageError
		if errors.As(err, &ue) {
			fmt.Fprintf(os.Stderr, "ctx mcp serve: %v\n", err)
			os.Exit(2)
		}
		fmt.Fprintf(os.Stderr, "ctx mcp serve: %v\n", err)
		os.Exit(1)
	}
}

// usageError is a mistake in the command line (exit 2, as ctx's usage
// errors).
type usageError string

func (e usageError) Error() string { return string(e) }

func usagef(format string, args ...any) error { return usageError(fmt.Sprintf(format, args...)) }

// options are the flags of ctx mcp serve.
type options struct {
	root        string
	http        string
	allowRemote bool
	origins     []string
}

func newCmd() *cobra.Command {
	var opts options
	cmd := &cobra.Command{
		Use:   "ctx mcp serve",
		Short: "Run the MCP server over stdio (newline-delimited JSON-RPC)",
		Long: "Serve runs a local MCP server for agents and MCP hosts: it reads JSON-RPC requests\n" +
			"from stdin and writes responses to stdout, one per line, and exits once stdin\n" +
			"ends and every request read has been answered. Logs go to stderr; nothing but\n" +
			"MCP messages is written to stdout. It speaks MCP 2025-11-25 and 2025-06-18.\n\n" +
			"The server only reads the store; run ctx import to bring it up to date. Each tool\n" +
			"call reads the newest generation. Local usage accounting (counts, response bytes,\n" +
			"durations per tool; no content) is kept in $CTX_HOME/usage.json; create\n" +
			"$CTX_HOME/usage.disabled to turn it off.\n\n" +
			"get_context serves the client's root when it offers roots, else --root, else the\n" +
			"working directory. save_session and ingest_context append to ctx's inbox (durable\n" +
			"before they answer) and wake the daemon, which imports them as ctx-reported sessions.\n\n" +
			"This is the ctx-mcp binary, which ctx mcp serve runs.",
		Version:       version.Version,
		Args:          cobra.NoArgs,
		SilenceUsage:  true,
		SilenceErrors: true,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return serve(cmd.Context(), opts)
		},
	}
	cmd.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return usageError(err.Error()) })
	cmd.Flags().StringVar(&opts.root, "root", "", "the workspace get_context serves when the client offers no roots")
	cmd.Flags().StringVar(&opts.http, "http", "", "serve Streamable HTTP on ADDR (e.g. 127.0.0.1:7340) instead of stdio: "+
		"the five tools of spec 001, bearer tokens from ctx tokens")
	cmd.Flags().BoolVar(&opts.allowRemote, "allow-remote", false, "let --http listen on a non-loopback address")
	cmd.Flags().StringArrayVar(&opts.origins, "allow-origin", nil, "a browser Origin the HTTP door accepts besides loopback ones")
	return cmd
}

func serve(ctx context.Context, opts options) error {
	if ctx == nil {
		ctx = context.Background()
	}
	ctx, stop := signal.NotifyContext(ctx, syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	if opts.root != "" {
		abs, err := filepath.Abs(opts.root)
		if err != nil {
			return usagef("--root: %v", err)
		}
		opts.root = abs
	}
	home := os.Getenv("HOME")
	if home == "" {
		home = "/"
	}
	cfg := mcp.Config{CtxHome: store.Home(os.Getenv, home), Source: core.Env{Home: home, Getenv: os.Getenv},
		Version: version.Version, Log: os.Stderr, Now: time.Now, Root: opts.root}
	var err error
	if opts.http != "" {
		err = serveHTTP(ctx, cfg, opts)
	} else {
		err = mcp.New(cfg).Serve(ctx, os.Stdin, os.Stdout)
	}
	if errors.Is(err, context.Canceled) && ctx.Err() != nil {
		return nil // SIGINT or SIGTERM: a requested stop
	}
	return err
}

// serveHTTP runs the HTTP door: loopback unless --allow-remote, and then it
// says what it exposes.
func serveHTTP(ctx context.Context, cfg mcp.Config, opts options) error {
	host, _, err := net.SplitHostPort(opts.http)
	if err != nil {
		return usagef("--http wants HOST:PORT, e.g. 127.0.0.1:7340")
	}
	ip := net.ParseIP(host)
	loopback := host == "localhost" || ip != nil && ip.IsLoopback()
	if !loopback && !opts.allowRemote {
		return usagef("--http %s is not a loopback address: pass --allow-remote to expose the door beyond this machine", opts.http)
	}
	ln, err := net.Listen("tcp", opts.http)
	if err != nil {
		return err
	}
	cfg.Door = reported.DoorHTTP
	fmt.Fprintf(os.Stderr, "ctx mcp: serving http://%s%s (tools get_context, save_session, continue_thread, "+
		"list_threads, ingest_context; bearer tokens from ctx tokens create)\n", ln.Addr(), mcp.HTTPPath)
	if !loopback {
		fmt.Fprintf(os.Stderr, "ctx mcp: warning: listening beyond loopback: any client with a token can read this "+
			"workspace's plan, files, git state, recent sessions and threads, and write sessions\n")
	}
	return mcp.New(cfg).ServeHTTPOn(ctx, ln, opts.origins)
}
