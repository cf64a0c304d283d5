package app

import "strings"

// knownClients maps what an MCP client sends as clientInfo.name (matched
// without case, as a substring) to the harness id a save records.
var knownClients = []struct{ match, harness string }{
	{"claude-code", "claude-code"},
	{"claude code", "claude-code"},
	{"codex", "codex"},
	{"cursor", "cursor"},
	{"gemini", "gemini-cli"},
	{"windsurf", "windsurf"},
	{"zed", "zed"},
	{"opencode", "opencode"},
	{"copilot", "copilot-cli"},
	{"visual studio code", "vscode"},
	{"vscode", "vscode"},
}

// HarnessOf infers the harness from an MCP client's name; an unknown
// client is recorded under its own name, lowercased, or "unknown".
func HarnessOf(clientName string) string {
	n := strings.ToLower(strings.TrimSpace(clientName))
	for _, k := range knownClients {
		if strings.Contains(n, k.match) {
			return k.harness
		}
	}
	var b strings.Builder
	for _, r := range n {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9', r == '.', r == '_', r == '-':
			b.WriteRune(r)
		case r == ' ':
			b.WriteByte('-')
		}
		if b.Len() >= 64 {
			break
		}
	}
	if b.Len() == 0 {
		return "unknown"
	}
	return b.String()
}
