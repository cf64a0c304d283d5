package main

import (
	"github.com/spf13/cobra"

	"ctx/core"
	"ctx/query"
)

// filterFlags are the filter flags of the read commands (search, list
// events, list sessions, timeline, stats): each flag is defined, described
// and parsed here once, and a command registers the groups it takes.
type filterFlags struct {
	Providers, Machines, Roots, Groups []string
	Roles, Files, Sessions             []string
	Workspace, Since, Until            string
	PrimaryOnly                        bool
}

// filterGroup is a set of filter flags a command takes.
type filterGroup uint

const (
	// flagsSessions: --provider, --machine, --workspace, --primary-only.
	flagsSessions filterGroup = 1 << iota
	// flagsSources: --source-root, --source-group.
	flagsSources
	// flagsEvents: --role, --file, --session.
	flagsEvents
)

// window is how a command's --since and --until read.
type window struct{ since, sinceUsage, untilUsage string }

var (
	// eventWindow bounds events (search, list events).
	eventWindow = window{"", "only events at or after this time (RFC 3339, YYYY-MM-DD, or 7d)", "only events before this time"}
	// activeWindow keeps sessions active in it (list sessions).
	activeWindow = window{"", "only sessions active at or after this time (RFC 3339, YYYY-MM-DD, or 7d)",
		"only sessions active before this time"}
)

// periodWindow is a report's window, from since (an age such as 7d).
func periodWindow(since, allHint string) window {
	return window{since, "from this time (RFC 3339, YYYY-MM-DD, or an age such as " + since + ")" + allHint,
		"until this time"}
}

func (ff *filterFlags) register(cmd *cobra.Command, groups filterGroup, w window) {
	fl := cmd.Flags()
	if groups&flagsSessions != 0 {
		fl.StringSliceVar(&ff.Providers, "provider", nil, "only these providers (repeatable)")
		fl.StringArrayVar(&ff.Machines, "machine", nil, machineFlagUsage)
		fl.StringVar(&ff.Workspace, "workspace", "", "only sessions in this directory or below it")
		fl.BoolVar(&ff.PrimaryOnly, "primary-only", false, "exclude subagent sessions")
	}
	if groups&flagsSources != 0 {
		fl.StringArrayVar(&ff.Roots, "source-root", nil, "only this configured source root (repeatable, OR with --source-group)")
		fl.StringArrayVar(&ff.Groups, "source-group", nil, "only this configured source group (repeatable)")
	}
	if groups&flagsEvents != 0 {
		fl.StringSliceVar(&ff.Roles, "role", nil, "only these roles: user, assistant, system, tool")
		fl.StringArrayVar(&ff.Files, "file", nil, "only events that touched this path or file name (repeatable)")
		fl.StringArrayVar(&ff.Sessions, "session", nil, "only this session id (repeatable)")
	}
	fl.StringVar(&ff.Since, "since", w.since, w.sinceUsage)
	fl.StringVar(&ff.Until, "until", "", w.untilUsage)
}

// args resolves the flags against the environment: the times parsed, the
// workspace made absolute. The caller adds what is its own and parses.
func (ff *filterFlags) args(env *Env) (query.FilterArgs, error) {
	since, err := parseTime(ff.Since, env.Now())
	if err != nil {
		return query.FilterArgs{}, err
	}
	until, err := parseTime(ff.Until, env.Now())
	if err != nil {
		return query.FilterArgs{}, err
	}
	return query.FilterArgs{Providers: ff.Providers, Machines: ff.Machines, SourceRoots: ff.Roots,
		SourceGroups: ff.Groups, Roles: ff.Roles, Files: ff.Files, Sessions: ff.Sessions,
		Workspace: absDir(env, ff.Workspace), Since: since, Until: until, PrimaryOnly: ff.PrimaryOnly}, nil
}

// filter parses the flags as a filter, with what own (when not nil) adds
// of the command's own filters.
func (ff *filterFlags) filter(env *Env, own func(*query.FilterArgs)) (core.Filter, error) {
	args, err := ff.args(env)
	if err != nil {
		return core.Filter{}, err
	}
	if own != nil {
		own(&args)
	}
	return args.Parse()
}
