package integrations

import (
	"os"
	"path/filepath"
	"slices"
)

// Server is the MCP server entry to install: a local stdio command.
type Server struct {
	Name    string   // the entry's key, "ctx"
	Command string   // absolute path of the ctx binary, or "ctx"
	Args    []string // ["mcp", "serve"]
}

// DefaultServer returns the ctx entry for a binary at command.
func DefaultServer(command string) Server {
	if command == "" {
		command = "ctx"
	}
	return Server{Name: "ctx", Command: command, Args: []string{"mcp", "serve"}}
}

// field and obj describe a JSON object with its key order, for rendering.
type field struct {
	key string
	val any // string, bool, []string or obj
}

type obj []field

func claudeEntry(s Server) obj {
	return obj{{"type", "stdio"}, {"command", s.Command}, {"args", s.Args}, {"env", obj{}}}
}

func plainEntry(s Server) obj {
	return obj{{"command", s.Command}, {"args", s.Args}}
}

func typedEntry(typ string) func(Server) obj {
	return func(s Server) obj { return obj{{"type", typ}, {"command", s.Command}, {"args", s.Args}} }
}

func copilotEntry(s Server) obj {
	return obj{{"type", "local"}, {"command", s.Command}, {"args", s.Args}, {"env", obj{}},
		{"tools", []string{"*"}}}
}

// opencodeEntry is OpenCode's shape: the command is one array, and schema v1
// marks an entry enabled where v2 only knows "disabled".
func opencodeEntry(v1 bool) func(Server) obj {
	return func(s Server) obj {
		o := obj{{"type", "local"}, {"command", append([]string{s.Command}, s.Args...)}}
		if v1 {
			o = append(o, field{"enabled", true})
		}
		return o
	}
}

// localCommand extracts the command line of a decoded entry in any of the
// shapes the clients use: "command" plus "args", an OpenCode command array,
// or Zed's older {"command": {"path", "args"}}. ok is false when the entry
// is not a local stdio server.
func localCommand(entry map[string]any) (cmd string, args []string, ok bool) {
	if t, has := entry["type"]; has && t != "stdio" && t != "local" {
		return "", nil, false
	}
	switch c := entry["command"].(type) {
	case string:
		args, ok = stringList(entry["args"], true)
		return c, args, ok
	case []any:
		list, ok := stringList(c, false)
		if !ok || len(list) == 0 {
			return "", nil, false
		}
		return list[0], list[1:], true
	case map[string]any:
		path, isStr := c["path"].(string)
		args, ok = stringList(c["args"], true)
		return path, args, ok && isStr
	}
	return "", nil, false
}

func stringList(v any, missingOK bool) ([]string, bool) {
	if v == nil {
		return nil, missingOK
	}
	list, ok := v.([]any)
	if !ok {
		return nil, false
	}
	out := make([]string, 0, len(list))
	for _, e := range list {
		s, ok := e.(string)
		if !ok {
			return nil, false
		}
		out = append(out, s)
	}
	return out, true
}

// matches reports whether a decoded entry runs this server: the same
// arguments and the same command, or another path to the same binary.
// Other settings of the entry (env, timeouts, trust) do not matter.
// stateOf is the state of the entry a client's file holds under s's name
// (none when !present): absent, ctx's own, or another server's.
func (s Server) stateOf(entry map[string]any, present bool) State {
	switch {
	case !present:
		return StateAbsent
	case s.matches(entry):
		return StateInstalled
	}
	return StateConflicting
}

func (s Server) matches(entry map[string]any) bool {
	cmd, args, ok := localCommand(entry)
	if !ok || !slices.Equal(args, s.Args) {
		return false
	}
	return cmd == s.Command || sameFile(cmd, s.Command)
}

func sameFile(a, b string) bool {
	if !filepath.IsAbs(a) || !filepath.IsAbs(b) {
		return false
	}
	fa, err := os.Stat(a)
	if err != nil {
		return false
	}
	fb, err := os.Stat(b)
	return err == nil && os.SameFile(fa, fb)
}

// commandOf returns the command of a decoded entry for messages, "" if none.
func commandOf(entry map[string]any) string {
	cmd, _, _ := localCommand(entry)
	return cmd
}
