package aider

import (
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	"ctx/core"
)

// builder turns one raw session into a parsed session.
type builder struct {
	ps      core.ParsedSession
	ts      time.Time
	model   string
	formats []string // edit formats named in the banner (main and editor)
	talked  bool     // a user or assistant block has been seen
	command string   // the /run command whose output the next tool block holds
}

// build converts the blocks of a session into events. It reports false for
// a session without any user input or reply (started and left).
func build(raw *rawSession, nativeID, path string, ts time.Time) (core.ParsedSession, bool) {
	b := &builder{ts: ts}
	for i := range raw.blocks {
		blk := &raw.blocks[i]
		key := strconv.Itoa(i) + ":"
		switch blk.kind {
		case blockUser:
			b.user(blk, key)
		case blockTool:
			b.tool(blk, key)
		case blockAssistant:
			b.assistant(blk, key)
		}
	}
	if !b.talked {
		return core.ParsedSession{}, false
	}
	s := &b.ps.Session
	s.Provider, s.NativeID = ProviderID, nativeID
	s.Workspace = filepath.Dir(path)
	b.ps.Finalize()
	return b.ps, true
}

func (b *builder) add(e core.Event) {
	e.Timestamp = b.ts
	b.ps.Events = append(b.ps.Events, e)
}

// user handles "#### " input: a prompt, a shell command (/run, !, /test,
// /git) or an answer aider typed for the user at a confirmation prompt.
func (b *builder) user(blk *block, key string) {
	b.talked, b.command = true, ""
	text := strings.TrimSpace(strings.Join(blk.lines, "\n"))
	if cmd, ok := userCommand(text); ok {
		b.command = cmd
		b.add(core.Event{Role: core.RoleUser, Type: core.TypeCommandStart, Text: text, Command: cmd,
			Tool: "run", Key: key + "cmd"})
		return
	}
	if isConfirmAnswer(text) {
		b.add(core.Event{Role: core.RoleUser, Type: core.TypeOther, Native: "confirm", Text: text, Key: key + "confirm"})
		return
	}
	b.add(core.Event{Role: core.RoleUser, Type: core.TypeMessage, Text: text, Key: key + "user"})
}

// userCommand returns the shell command of /run, !, /test and /git input.
func userCommand(text string) (string, bool) {
	if strings.Contains(text, "\n") {
		return "", false
	}
	if cmd, ok := strings.CutPrefix(text, "!"); ok && strings.TrimSpace(cmd) != "" {
		return strings.TrimSpace(cmd), true
	}
	verb, args, _ := strings.Cut(text, " ")
	args = strings.TrimSpace(args)
	switch {
	case args == "":
		return "", false
	case verb == "/run" || verb == "/test":
		return args, true
	case verb == "/git":
		return "git " + args, true
	}
	return "", false
}

// isConfirmAnswer recognizes a confirmation question aider answered itself
// ("Add file to the chat? (Y)es/(N)o/… [Yes]: all") and logged as input.
func isConfirmAnswer(text string) bool {
	q, _, ok := strings.Cut(text, "? (Y)es/(N)o")
	return ok && q != "" && !strings.Contains(text, "\n") && strings.Contains(text, "]: ")
}

// tool handles a run of "> " lines: the startup banner, the output of a
// /run command, "Running <cmd>" lines of suggested shell commands, or any
// other aider output (edits applied, commits, token counts, errors).
func (b *builder) tool(blk *block, key string) {
	b.banner(blk.lines)
	text := strings.TrimSpace(strings.Join(blk.lines, "\n"))
	switch {
	case !b.talked:
		b.add(core.Event{Role: core.RoleSystem, Type: core.TypeOther, Native: "startup", Text: text, Key: key + "startup"})
	case b.command != "":
		b.commandOutput(b.command, text, key+"out")
		b.command = ""
	default:
		b.runs(blk.lines, key)
	}
}

// runs splits a tool block at "Running <cmd>" lines: what precedes the
// first is tool output, each command is a command start and the lines after
// it its output.
func (b *builder) runs(lines []string, key string) {
	start, n, cmd := 0, 0, ""
	flush := func(end int) {
		text := strings.TrimSpace(strings.Join(lines[start:end], "\n"))
		switch {
		case cmd != "":
			b.commandOutput(cmd, text, key+"out"+strconv.Itoa(n))
		case text != "":
			b.add(core.Event{Role: core.RoleTool, Type: core.TypeToolOutput, Text: text,
				IsError: isErrorOutput(text), Key: key + "tool"})
		}
	}
	for i, l := range lines {
		c, ok := strings.CutPrefix(l, "Running ")
		if !ok || strings.TrimSpace(c) == "" {
			continue
		}
		flush(i)
		n++
		cmd, start = strings.TrimSpace(c), i+1
		b.add(core.Event{Role: core.RoleAssistant, Type: core.TypeCommandStart, Text: cmd, Command: cmd,
			Tool: "shell", Key: key + "run" + strconv.Itoa(n)})
	}
	flush(len(lines))
}

// exitRe finds an exit code printed in command output; aider itself prints
// none, so a finish event appears only when the output names one.
var exitRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?i)\bexit(?:ed with)? (?:code|status):? (-?\d+)`) })

func (b *builder) commandOutput(cmd, text, key string) {
	if text != "" {
		b.add(core.Event{Role: core.RoleTool, Type: core.TypeCommandOutput, Text: text, Command: cmd, Key: key})
	}
	if m := exitRe().FindStringSubmatch(text); m != nil {
		if code, err := strconv.Atoi(m[1]); err == nil {
			b.add(core.Event{Role: core.RoleTool, Type: core.TypeCommandFinish, Text: "exit code " + m[1],
				Command: cmd, ExitCode: &code, IsError: code != 0, Key: key + "/finish"})
		}
	}
}

// errorMarkers are aider messages that report a failure: failed edits and
// Python tracebacks; model API errors are "litellm.<Name>Error".
var errorMarkers = []string{"SEARCH/REPLACE block failed to match", "SEARCH/REPLACE blocks failed to match",
	"Traceback (most recent call last)", "The LLM did not conform to the edit format"}

func isErrorOutput(text string) bool {
	for _, m := range errorMarkers {
		if strings.Contains(text, m) {
			return true
		}
	}
	for rest := text; ; {
		i := strings.Index(rest, "litellm.")
		if i < 0 {
			return false
		}
		rest = rest[i+len("litellm."):]
		name := rest[:len(rest)-len(strings.TrimLeft(rest, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_"))]
		if strings.HasSuffix(name, "Error") || strings.HasSuffix(name, "Exception") {
			return true
		}
	}
}
