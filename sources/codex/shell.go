package codex

import (
	"encoding/json"
	"path"
	"strconv"
	"strings"

	"ctx/sources/applypatch"
	"ctx/sources/jsonx"
)

// shellCommand reads the command of a shell tool call from its arguments:
// {"command":[argv…]} (shell), {"command":"…"} (shell_command) or
// {"cmd":"…"} (exec_command). An apply_patch invocation returns the patch
// instead. Arguments that are not JSON are returned as the command.
func shellCommand(args string) (cmd, patch string) {
	var a struct {
		Command json.RawMessage `json:"command"`
		Cmd     string          `json:"cmd"`
	}
	if jsonx.Decode([]byte(args), &a) != nil {
		return args, ""
	}
	switch {
	case a.Cmd != "":
		cmd = a.Cmd
	case jsonx.FirstByte(a.Command) == '[':
		var argv []string
		_ = jsonx.Decode(a.Command, &argv)
		if len(argv) >= 2 && isPatchTool(argv[0]) {
			return "", argv[1]
		}
		cmd = argvCommand(argv)
	default:
		cmd = jsonString(a.Command)
	}
	if isPatchScript(cmd) {
		return "", applypatch.Extract(cmd)
	}
	return cmd, ""
}

func isPatchTool(s string) bool { return s == "apply_patch" || s == "applypatch" }

// isPatchScript recognizes apply_patch run through a shell with a here-doc.
func isPatchScript(s string) bool {
	t := strings.TrimSpace(s)
	return (strings.HasPrefix(t, "apply_patch") || strings.HasPrefix(t, "applypatch")) &&
		applypatch.Extract(t) != ""
}

// patchFromArgs reads the patch of an apply_patch function call
// ({"input":"…"}); other arguments are taken as the patch text.
func patchFromArgs(args string) string {
	var a struct {
		Input string `json:"input"`
	}
	if jsonx.Decode([]byte(args), &a) == nil && a.Input != "" {
		return a.Input
	}
	return args
}

// shells are interpreters whose "-c script" form is shown as the script.
var shells = map[string]bool{"bash": true, "sh": true, "zsh": true, "dash": true, "ksh": true,
	"fish": true, "pwsh": true, "powershell": true, "powershell.exe": true, "pwsh.exe": true,
	"cmd": true, "cmd.exe": true}

var shellFlags = map[string]bool{"-c": true, "-lc": true, "-ic": true, "-Command": true,
	"-command": true, "/c": true, "/C": true}

// argvCommand renders argv as a command line: the script of
// ["bash","-lc",script], else the words joined with shell quoting.
func argvCommand(argv []string) string {
	if len(argv) == 3 && shells[path.Base(strings.ReplaceAll(argv[0], `\`, "/"))] && shellFlags[argv[1]] {
		return argv[2]
	}
	words := make([]string, len(argv))
	for i, a := range argv {
		words[i] = quote(a)
	}
	return strings.Join(words, " ")
}

func quote(s string) string {
	if s == "" {
		return "''"
	}
	if !strings.ContainsAny(s, " \t\n'\"\\$`;&|<>()*?[]{}!#~") {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// shellResult is a shell call output split into its text and exit code.
type shellResult struct {
	text    string
	exit    *int
	running bool // exec_command left the process running
}

// parseShellOutput reads the exit code from the forms Codex writes:
// a JSON string {"output","metadata":{"exit_code"}} (0.3x), a header
// "Exit code: N\nWall time: …\nOutput:\n…" (0.7x), "Process exited with
// code N" / "Process running with session ID N" (exec_command), and
// "failed in sandbox … exit code: N, stdout: …" (sandbox denials).
func parseShellOutput(s string) shellResult {
	if text, exit, ok := jsonOutput(s); ok {
		return shellResult{text: text, exit: exit}
	}
	if strings.HasPrefix(s, "failed in sandbox") {
		return shellResult{text: s, exit: sandboxExit(s)}
	}
	return parseHeader(s)
}

// parseHeader reads a "Key: value" header ending at an "Output:" line.
func parseHeader(s string) shellResult {
	res := shellResult{text: s}
	rest := s
	for i := 0; i < 12; i++ {
		line, after, found := strings.Cut(rest, "\n")
		line = strings.TrimSuffix(line, "\r")
		switch {
		case line == "Output:":
			if res.exit != nil || res.running {
				res.text = after
			}
			return res
		case strings.HasPrefix(line, "Exit code: "):
			res.exit = atoi(strings.TrimPrefix(line, "Exit code: "))
		case strings.HasPrefix(line, "Process exited with code "):
			res.exit = atoi(strings.TrimPrefix(line, "Process exited with code "))
		case strings.HasPrefix(line, "Process running with session ID"):
			res.running = true
		case line == "" || strings.HasPrefix(line, "Wall time:") || strings.HasPrefix(line, "Chunk ID:") ||
			strings.HasPrefix(line, "Original token count:") || strings.HasPrefix(line, "Total output lines:"):
		default:
			return res
		}
		if !found {
			return res
		}
		rest = after
	}
	return res
}

func sandboxExit(s string) *int {
	_, rest, ok := strings.Cut(s, "exit code: ")
	if !ok {
		return nil
	}
	end := 0
	for end < len(rest) && (rest[end] >= '0' && rest[end] <= '9' || end == 0 && rest[end] == '-') {
		end++
	}
	return atoi(rest[:end])
}

func atoi(s string) *int {
	n, err := strconv.Atoi(strings.TrimSpace(s))
	if err != nil {
		return nil
	}
	return &n
}

// jsonOutput reads the 0.3x output form, a JSON object string
// {"output":"…","metadata":{"exit_code":N,…}}.
func jsonOutput(s string) (text string, exit *int, ok bool) {
	if jsonx.FirstByte([]byte(s)) != '{' {
		return "", nil, false
	}
	var o struct {
		Output   *string `json:"output"`
		Metadata *struct {
			ExitCode *int `json:"exit_code"`
		} `json:"metadata"`
	}
	if jsonx.Decode([]byte(s), &o) != nil || o.Output == nil {
		return "", nil, false
	}
	if o.Metadata != nil {
		exit = o.Metadata.ExitCode
	}
	return *o.Output, exit, true
}
