package mcp

import (
	"path/filepath"
	"time"

	"ctx/core"
	"ctx/query"
)

// parseTime reads a time argument the way the CLI's --since and --until
// do: RFC 3339, a date-time without zone (UTC), a date (UTC midnight), or
// an age before now such as 7d or 36h. The message never echoes the value.
func parseTime(s string, now time.Time, name string) (time.Time, error) {
	t, err := query.ParseTime(s, now, name)
	if err != nil {
		return t, invalidf("%s must be RFC 3339, YYYY-MM-DD, or an age such as 7d or 36h", name)
	}
	return t, nil
}

// isASCIIToken reports whether s is printable ASCII without spaces (the
// shape of ids and cursors).
func isASCIIToken(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] <= ' ' || s[i] > '~' {
			return false
		}
	}
	return true
}

// parseFilter finishes the filter arguments of search, query_events and
// list_sessions: the workspace must be absolute, since and until are
// parsed against now, and the whole is parsed once into the typed filter.
func parseFilter(args query.FilterArgs, workspace, since, until string, now time.Time) (core.Filter, error) {
	if workspace != "" && !filepath.IsAbs(workspace) {
		return core.Filter{}, invalidf("workspace must be an absolute directory")
	}
	var err error
	args.Workspace = workspace
	if args.Since, err = parseTime(since, now, "since"); err != nil {
		return core.Filter{}, err
	}
	if args.Until, err = parseTime(until, now, "until"); err != nil {
		return core.Filter{}, err
	}
	return args.Parse()
}
