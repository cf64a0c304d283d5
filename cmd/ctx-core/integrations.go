package main

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/spf13/cobra"

	"ctx/integrations"
	"ctx/query"
)

// integrationFlags are the flags of ctx integrations install|remove|status.
type integrationFlags struct {
	clients []string
	force   bool
	project string
}

func newIntegrationsCmd(env *Env, f *format) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "integrations",
		Short: "Add ctx's MCP server to coding agents' configuration",
		Long: "Integrations adds, removes and inspects the ctx MCP server entry (ctx mcp serve)\n" +
			"in the configuration files of Claude Code, Cursor, Codex, Gemini CLI, VS Code,\n" +
			"Windsurf, Zed, OpenCode and Copilot CLI. Only the ctx entry is ever changed.\n" +
			"Run ctx docs show mcp-integrations for the paths and manual snippets.",
	}
	cmd.AddCommand(
		newIntegrationCmd(env, f, integrations.OpInstall, "install", "Add the ctx entry (an identical one is kept)"),
		newIntegrationCmd(env, f, integrations.OpRemove, "remove", "Remove the ctx entry (an absent one is fine)"),
		newIntegrationCmd(env, f, integrations.OpStatus, "status", "Show each client's file and ctx entry"),
	)
	return cmd
}

func newIntegrationCmd(env *Env, f *format, op integrations.Op, name, short string) *cobra.Command {
	var fl integrationFlags
	cmd := &cobra.Command{
		Use:   name + " mcp",
		Short: short,
		Long: short + ".\n\nWithout --client, install covers the clients whose configuration directory\n" +
			"exists; status and remove cover every client. With --project DIR, the clients'\n" +
			"project-scope files in DIR are used instead of the user's.\n\nClients: " + joinClientIDs() + ".",
		Args: cobra.ExactArgs(1),
		RunE: f.textOrJSON(func(_ *cobra.Command, args []string) error {
			if args[0] != "mcp" {
				return usagef("unknown integration: the one integration is mcp")
			}
			return runIntegration(env, f, op, fl)
		}),
	}
	cmd.Flags().StringArrayVar(&fl.clients, "client", nil, "a client to act on (repeatable)")
	cmd.Flags().StringVar(&fl.project, "project", "", "use the project-scope files of this directory (Claude Code: DIR/.mcp.json)")
	if op != integrations.OpStatus {
		cmd.Flags().BoolVar(&fl.force, "force", false, "replace or remove a ctx entry that runs a different command")
	}
	return cmd
}

func runIntegration(env *Env, f *format, op integrations.Op, fl integrationFlags) error {
	opts, err := integrationOptions(env, fl)
	if err != nil {
		return err
	}
	reports, err := integrations.Run(op, opts)
	if err != nil {
		return usagef("%v", err)
	}
	if len(reports) == 0 {
		return usagef("no supported MCP client found (none of their configuration directories exists); name one with --client")
	}
	err = f.write(env, integrationResult{Integration: "mcp", Server: serverJSON(opts.Server), Scope: opts.Scope, Clients: reports},
		func() { printIntegrationReports(env, op, reports) })
	if err != nil || op == integrations.OpStatus {
		return err
	}
	return firstFailure(reports)
}

func integrationOptions(env *Env, fl integrationFlags) (integrations.Options, error) {
	opts := integrations.Options{
		Env:     integrations.Env{Home: env.Home(), Getenv: env.Getenv, OS: runtime.GOOS},
		Server:  integrations.DefaultServer(serverCommand(env)),
		Clients: fl.clients,
		Scope:   integrations.ScopeUser,
		Force:   fl.force,
	}
	if fl.project != "" {
		dir, err := filepath.Abs(fl.project)
		if err != nil {
			return opts, usagef("--project: %v", err)
		}
		if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
			return opts, usagef("--project must name an existing directory")
		}
		opts.Scope, opts.Project = integrations.ScopeProject, dir
	}
	return opts, nil
}

// serverCommand is the absolute path of the ctx binary (the front beside
// this ctx-core, else this one): the name it has on $PATH when that is the
// same file (a package manager's stable link rather than a versioned
// location), else where it is, else plain "ctx".
func serverCommand(env *Env) string {
	exe, err := os.Executable()
	if err != nil {
		return "ctx"
	}
	if front := filepath.Join(filepath.Dir(exe), "ctx"); front != exe {
		if fi, err := os.Stat(front); err == nil && fi.Mode().IsRegular() {
			exe = front
		}
	}
	self, err := os.Stat(exe)
	if err != nil {
		return exe
	}
	name := "ctx"
	if runtime.GOOS == "windows" {
		name = "ctx.exe"
	}
	for _, dir := range filepath.SplitList(env.Getenv("PATH")) {
		candidate := filepath.Join(dir, name)
		if fi, err := os.Stat(candidate); err == nil && filepath.IsAbs(candidate) && os.SameFile(fi, self) {
			return candidate
		}
	}
	return exe
}

type integrationResult struct {
	Integration string                `json:"integration"`
	Server      serverInfo            `json:"server"`
	Scope       integrations.Scope    `json:"scope"`
	Clients     []integrations.Report `json:"clients"`
}

type serverInfo struct {
	Name      string   `json:"name"`
	Command   string   `json:"command"`
	Args      []string `json:"args"`
	Transport string   `json:"transport"`
}

func serverJSON(s integrations.Server) serverInfo {
	return serverInfo{Name: s.Name, Command: s.Command, Args: s.Args, Transport: "stdio"}
}

func printIntegrationReports(env *Env, op integrations.Op, reports []integrations.Report) {
	w := env.Stdout
	for _, r := range reports {
		path := oneLine(r.Path)
		if !r.ConfigPresent {
			path += " (no file)"
		}
		if op == integrations.OpStatus {
			fmt.Fprintf(w, "%-12s %-15s %s\n", r.Client, r.Entry, path)
		} else {
			fmt.Fprintf(w, "%-12s %-10s %-15s %s\n", r.Client, r.Action, r.Entry, path)
		}
		if r.Error != nil {
			fmt.Fprintf(w, "  %s: %s\n", r.Error.Code, oneLine(r.Error.Message))
		}
	}
}

// firstFailure turns the reports of an install or remove into the command's
// error: nil when every client succeeded or needed nothing.
func firstFailure(reports []integrations.Report) error {
	failed := 0
	var first error
	for _, r := range reports {
		if r.Err != nil {
			failed++
			if first == nil {
				first = r.Err
			}
		}
	}
	if first == nil {
		return nil
	}
	msg := fmt.Sprintf("%d of %d clients not changed: %v", failed, len(reports), first)
	return &query.Error{Code: query.Code(integrations.CodeOf(first)), Message: msg}
}

func joinClientIDs() string { return strings.Join(integrations.ClientIDs(), ", ") }
