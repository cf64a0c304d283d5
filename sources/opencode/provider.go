package opencode

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"ctx/core"
)

// ProviderID is the provider id of OpenCode.
const ProviderID = "opencode"

// Problem codes of this provider, beside the core ones.
const (
	// ProblemOrphanPart: a part whose message does not exist (yet); it is
	// skipped and read on the next import once its message is there.
	ProblemOrphanPart = "orphan_part"
	// ProblemOrphanMessage: a message whose session does not exist.
	ProblemOrphanMessage = "orphan_message"
	// ProblemDatabaseLocked: the database stayed locked by another
	// connection for longer than the busy timeout; nothing was read.
	ProblemDatabaseLocked = "database_locked"
	// ProblemInvalidDatabase: the file is not a SQLite database, is
	// corrupt, or lacks OpenCode's tables; nothing was read.
	ProblemInvalidDatabase = "invalid_database"
)

// DefaultBusyTimeout bounds how long a read waits for a lock another
// connection holds on the database.
const DefaultBusyTimeout = 2 * time.Second

// Provider discovers and parses OpenCode history.
type Provider struct {
	busyTimeout time.Duration
}

var (
	_ core.Provider       = (*Provider)(nil)
	_ core.RootDiscoverer = (*Provider)(nil)
)

// New returns the OpenCode provider.
func New() *Provider { return &Provider{busyTimeout: DefaultBusyTimeout} }

// Name returns the provider id, "opencode".
func (*Provider) Name() string { return ProviderID }

// Root returns OpenCode's data directory (sources.Rooted).
func (*Provider) Root(env core.Env) string { return DataDir(env) }

// Parse reads one source: a legacy storage/session/<project>/<id>.json file
// with its messages and parts, or a SQLite database (any other name). It
// fails only when the file cannot be read at all; a locked or invalid
// database is a problem.
func (p *Provider) Parse(f core.SourceFile) (core.ParseResult, error) {
	if strings.HasSuffix(f.Path, ".json") {
		return parseLegacy(f)
	}
	if _, err := os.Stat(f.Path); err != nil {
		return core.ParseResult{}, fmt.Errorf("opencode: database: %w", err)
	}
	timeout := p.busyTimeout
	if timeout <= 0 {
		timeout = DefaultBusyTimeout
	}
	return parseDB(f, timeout)
}

// isDatabaseName reports whether name is an OpenCode database: opencode.db
// or a release channel's opencode-<channel>.db.
func isDatabaseName(name string) bool {
	return name == mainDB || (strings.HasPrefix(name, "opencode-") && filepath.Ext(name) == ".db")
}
