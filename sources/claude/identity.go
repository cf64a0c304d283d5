package claude

import (
	"ctx/core"
	"path/filepath"
	"strings"
)

// identity returns the native session id, the parent's native id (empty for
// a main session) and the agent id of the file.
func (p *parser) identity() (native, parent, agent string) {
	path := p.file.Path
	base, _ := p.baseName()
	sid := p.info.sessionID
	if !p.isSubagent(base) {
		if sid == "" || (core.IsUUID(base) && base != sid) {
			sid = base
		}
		return sid, "", ""
	}
	agent = p.info.agentID
	if agent == "" {
		agent = strings.TrimPrefix(base, "agent-")
	}
	if sid == "" {
		sid = layoutParent(path)
	}
	if sid == "" || agent == "" {
		return base, "", agent
	}
	return sid + "/agent-" + agent, sid, agent
}

// baseName returns the file's name without its extension, and false when
// the parser was given no path.
func (p *parser) baseName() (string, bool) {
	path := p.file.Path
	if path == "" {
		return "", false
	}
	return strings.TrimSuffix(filepath.Base(path), filepath.Ext(path)), true
}

// isSubagent reports whether the file is a subagent transcript: it has a
// meta.json, is named agent-*, or (with no file name to go by) its records
// carry an agentId.
func (p *parser) isSubagent(base string) bool {
	switch {
	case p.meta != nil:
		return true
	case base == "":
		return p.info.agentID != ""
	}
	return strings.HasPrefix(base, "agent-")
}

// layoutParent returns the parent session id a new-layout subagent path
// names (<session>/subagents/agent-<id>.jsonl), or "".
func layoutParent(path string) string {
	dir := filepath.Dir(path)
	if filepath.Base(dir) != "subagents" {
		return ""
	}
	s := filepath.Base(filepath.Dir(dir))
	if s == "." || s == string(filepath.Separator) {
		return ""
	}
	return s
}
