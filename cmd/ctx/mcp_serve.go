package main

import (
	"context"
	"errors"
	"os/signal"
	"syscall"

	"github.com/spf13/cobra"

	"ctx/mcp"
)

func newMCPCmd(env *Env, f *format) *cobra.Command {
	cmd := &cobra.Command{Use: "mcp", Short: "Serve ctx to MCP hosts"}
	cmd.AddCommand(newMCPServeCmd(env, f))
	return cmd
}

// mcpServeOptions are the flags of ctx mcp serve.
type mcpServeOptions struct {
	root string
}

func newMCPServeCmd(env *Env, _ *format) *cobra.Command {
	var opts mcpServeOptions
	cmd := &cobra.Command{
		Use:   "serve",
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
			"before they answer) and wake the daemon, which imports them as ctx-reported sessions.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runMCPServe(cmd.Context(), env, opts)
		},
	}
	cmd.Flags().StringVar(&opts.root, "root", "", "the workspace get_context serves when the client offers no roots")
	return cmd
}

func runMCPServe(ctx context.Context, env *Env, opts mcpServeOptions) error {
	if ctx == nil {
		ctx = context.Background()
	}
	ctx, stop := signal.NotifyContext(ctx, syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	s := mcp.New(mcp.Config{CtxHome: env.CtxHome(), Source: env.Source(), Version: version, Log: env.Stderr,
		Now: env.Now, Root: opts.root})
	err := s.Serve(ctx, env.Stdin, env.Stdout)
	if errors.Is(err, context.Canceled) && ctx.Err() != nil {
		return nil // SIGINT or SIGTERM: a requested stop
	}
	return err
}
