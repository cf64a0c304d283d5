package query

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"ctx/core"
)

// KindResume is the kind of Resume.
const KindResume = "resume"

// resumeArgs is how each agent that can reopen a session is asked to: the
// binary, then the arguments before the native session id.
var resumeArgs = map[string][]string{
	core.ProviderClaude: {"claude", "--resume"},
	core.ProviderCodex:  {"codex", "resume"},
	"gemini-cli":        {"gemini", "--resume"},
	"opencode":          {"opencode", "--session"},
	"copilot-cli":       {"copilot", "--resume"},
}

// Resume says how to reopen a session in the agent that wrote it (kind
// "resume"). Command is the argv to run in Workspace; it is empty where
// the agent has no way to resume a session (Cursor, Cline, Aider, Amp…),
// and Message then says what to do instead. A subagent is resumed through
// its root session. BinaryFound and WorkspaceExists are checked on this
// machine now.
type Resume struct {
	Kind            string   `json:"kind"`
	CtxSessionID    string   `json:"ctx_session_id"`
	ResumedID       string   `json:"resumed_session_id"`
	Provider        string   `json:"provider"`
	NativeSessionID string   `json:"native_session_id"`
	Workspace       string   `json:"workspace,omitempty"`
	WorkspaceExists bool     `json:"workspace_exists"`
	Supported       bool     `json:"supported"`
	Command         []string `json:"command"`
	CommandLine     string   `json:"command_line,omitempty"`
	BinaryFound     bool     `json:"binary_found"`
	Message         string   `json:"message"`
}

// Resume builds the resume command of the session arg names (any form
// ResolveSession takes).
func (r *Reader) Resume(arg string) (*Resume, error) {
	id, err := r.ResolveSession(arg)
	if err != nil {
		return nil, err
	}
	so, err := r.Session(id)
	if err != nil {
		return nil, err
	}
	s := so.Session
	out := &Resume{Kind: KindResume, CtxSessionID: s.ID.String(), ResumedID: s.ID.String(), Provider: s.Provider,
		NativeSessionID: s.NativeID, Workspace: s.Workspace, Command: []string{}}
	var notes []string
	if s.IsSubagent && !s.RootSessionID.IsZero() && s.RootSessionID != s.ID {
		if root, err := r.Session(s.RootSessionID); err == nil {
			notes = append(notes, "a subagent session is resumed through its root session "+root.Session.ID.String())
			s = root.Session
			out.ResumedID, out.NativeSessionID, out.Workspace = s.ID.String(), s.NativeID, s.Workspace
		}
	}
	if s.Workspace != "" {
		st, err := os.Stat(s.Workspace)
		out.WorkspaceExists = err == nil && st.IsDir()
	}
	base, ok := resumeArgs[s.Provider]
	if !ok || s.NativeID == "" {
		notes = append(notes, fmt.Sprintf("%s has no command that resumes a session: open the workspace in it and "+
			"paste the handoff (ctx export %s --format markdown) to continue", s.Provider, ShortID(s.ID)))
		out.Message = strings.Join(append(notes, workspaceNote(out)...), "; ")
		return out, nil
	}
	out.Supported = true
	out.Command = append(append([]string{}, base...), s.NativeID)
	out.CommandLine = ShellQuote(out.Command...)
	if out.WorkspaceExists {
		dir := s.Workspace
		if !filepath.IsAbs(dir) {
			dir = "./" + dir // a relative path may start with "-"
		}
		out.CommandLine = "cd " + ShellQuote(dir) + " && " + out.CommandLine
	}
	_, err = exec.LookPath(base[0])
	out.BinaryFound = err == nil
	if !out.BinaryFound {
		notes = append(notes, fmt.Sprintf("%s was not found on PATH: install %s, or run the command where it is", base[0], s.Provider))
	}
	out.Message = strings.Join(append(notes, workspaceNote(out)...), "; ")
	return out, nil
}

func workspaceNote(r *Resume) []string {
	switch {
	case r.Workspace == "":
		return []string{"the agent recorded no workspace"}
	case !r.WorkspaceExists:
		return []string{"the session's workspace " + r.Workspace + " no longer exists"}
	}
	return nil
}

// ShellQuote joins words as a POSIX shell reads them back, quoting each
// word that needs it.
func ShellQuote(words ...string) string {
	out := make([]string, len(words))
	for i, w := range words {
		if w != "" && strings.Trim(w, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./:=@%+,") == "" {
			out[i] = w
			continue
		}
		out[i] = "'" + strings.ReplaceAll(w, "'", `'\''`) + "'"
	}
	return strings.Join(out, " ")
}
