package relevance

import (
	"fmt"
	"os"
	"path/filepath"

	"ctx/internal/fixtures"
)

// placements maps fixture directories (relative to shared/fixtures/agents)
// to where each agent keeps its history under a home directory by default.
// Cursor's fixtures are JSON exports of SQLite rows, not a state.vscdb, and
// OpenCode's opencode.db rows likewise: neither is a file the agent writes,
// so they are left out.
var placements = []struct{ src, dst string }{
	{"claude-code/projects", ".claude/projects"},
	{"codex/sessions", ".codex/sessions"},
	{"gemini-cli/projects.json", ".gemini/projects.json"},
	{"gemini-cli/tmp", ".gemini/tmp"},
	{"copilot-cli/session-state", ".copilot/session-state"},
	{"amp/threads", ".local/share/amp/threads"},
	{"opencode/storage-legacy-1.1.12", ".local/share/opencode/storage"},
	{"cline/tasks", ".config/Code/User/globalStorage/saoudrizwan.claude-dev/tasks"},
	{"aider/.aider.chat.history.md", aiderPath},
}

// aiderPath is where the Aider log is placed: at the root of a repository.
const aiderPath = "work/monochromatic/.aider.chat.history.md"

// Layout copies the fixtures under fixturesDir into home at the agents'
// default paths (directories 0700, files 0600).
func Layout(fixturesDir, home string) error {
	for _, p := range placements {
		src, dst := filepath.Join(fixturesDir, p.src), filepath.Join(home, p.dst)
		fi, err := os.Stat(src)
		if err != nil {
			return fmt.Errorf("relevance: fixture %s: %w", p.src, err)
		}
		if fi.IsDir() {
			err = fixtures.CopyTree(src, dst)
		} else {
			err = copyFile(src, dst)
		}
		if err != nil {
			return fmt.Errorf("relevance: placing %s: %w", p.src, err)
		}
	}
	return nil
}

func copyFile(src, dst string) error {
	data, err := os.ReadFile(src)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o700); err != nil {
		return err
	}
	return os.WriteFile(dst, data, 0o600)
}
