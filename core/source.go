package core

// Env is what discovery may read of the environment: the home directory and
// environment variables. Tests and new users point both at a scratch home;
// nothing reads the real home directory directly.
type Env struct {
	Home   string
	Getenv func(string) string
}

// Get returns the environment variable, or "" when Getenv is nil.
func (e Env) Get(key string) string {
	if e.Getenv == nil {
		return ""
	}
	return e.Getenv(key)
}

// Provider discovers and parses one agent's history.
type Provider interface {
	// Name is the provider id (claude-code, codex, …).
	Name() string
	// Discover lists the provider's history files in its default locations,
	// honouring its environment overrides. Missing locations are not problems;
	// unreadable directories are (code unreadable, no contents).
	Discover(env Env) ([]SourceFile, []Problem)
	// Parse reads one file. It returns an error only when the file cannot be
	// read at all (it vanished or is unreadable); bad records become Problems.
	// Every returned session has Finalize applied.
	Parse(f SourceFile) (ParseResult, error)
}

// RootDiscoverer is implemented by providers that can discover history under
// a configured root directory (config.toml) as well as in their default
// locations. The layout under dir is the provider's own (for Claude Code, a
// config dir with projects/; for Aider, any tree of repositories).
type RootDiscoverer interface {
	DiscoverIn(dir string) ([]SourceFile, []Problem)
}
