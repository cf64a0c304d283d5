package main

import (
	"errors"
	"fmt"
	"os"
	"syscall"

	"github.com/spf13/cobra"

	"ctx/internal/exe"
)

func newMCPCmd(env *Env, f *format) *cobra.Command {
	cmd := &cobra.Command{Use: "mcp", Short: "Serve ctx to MCP hosts"}
	cmd.AddCommand(newMCPServeCmd(env, f))
	return cmd
}

// mcpServer is the binary that serves MCP (cmd/ctx-mcp). It is not linked
// into ctx: the MCP library's JSON Schema package compiles its meta-schemas
// when a process starts, which every ctx command (a git hook, a listing)
// would pay for otherwise.
const mcpServer = "ctx-mcp"

// errNoMCPServer is returned when ctx-mcp is neither beside ctx nor on PATH.
var errNoMCPServer = errors.New("ctx mcp serve runs " + mcpServer + ", which is neither beside ctx nor on PATH: " +
	"build both with make build, or install them with go install ./cmd/ctx ./cmd/ctx-core ./cmd/ctx-mcp")

func newMCPServeCmd(env *Env, _ *format) *cobra.Command {
	return &cobra.Command{
		Use:   "serve [--root DIR] [--http ADDR [--allow-remote] [--allow-origin ORIGIN]...]",
		Short: "Run the MCP server over stdio (newline-delimited JSON-RPC)",
		Long: "Serve runs a local MCP server for agents and MCP hosts over stdio (or, with --http,\n" +
			"Streamable HTTP with bearer tokens). It runs the ctx-mcp binary, found beside ctx or\n" +
			"on PATH, with the same arguments: ctx mcp serve --help prints its flags.",
		DisableFlagParsing: true,
		RunE: func(cmd *cobra.Command, args []string) error {
			bin, err := mcpServerPath()
			if err != nil {
				return err
			}
			err = syscall.Exec(bin, append([]string{bin}, args...), os.Environ())
			return fmt.Errorf("run %s: %w", bin, err) // Exec returns only when it failed
		},
	}
}

// mcpServerPath finds ctx-mcp: beside this executable, else on PATH.
func mcpServerPath() (string, error) {
	if p, ok := exe.Find(mcpServer); ok {
		return p, nil
	}
	return "", errNoMCPServer
}
