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

// HomeDir returns the home directory.
func (e Env) HomeDir() string { return e.Home }

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

// Source kinds (spec 000: the sources read model).
const (
	KindAutomatic  = "automatic"  // a provider's default locations
	KindConfigured = "configured" // a root named in config.toml
	KindPlugin     = "plugin"     // an external command printing normalized JSONL
)

// Volatile is implemented by providers whose files cannot be stat'ed for
// change (plugin commands): they are read on every import, and content
// addressing keeps an unchanged answer from writing anything.
type Volatile interface {
	Volatile() bool
}

// Source is one place history is read from: a provider's default locations,
// a configured root (Root names it, Group optionally groups it, Dir is its
// directory) or a plugin.
type Source struct {
	Kind     string
	Root     string
	Group    string
	Dir      string
	Provider Provider
}

// Discover lists the source's files, tagged with its root and group.
func (s Source) Discover(env Env) ([]SourceFile, []Problem) {
	var files []SourceFile
	var problems []Problem
	if s.Kind == KindConfigured {
		rd, ok := s.Provider.(RootDiscoverer)
		if !ok {
			return nil, []Problem{{Code: ProblemUnsupportedRoot, Provider: s.Provider.Name(), Path: s.Dir}}
		}
		files, problems = rd.DiscoverIn(s.Dir)
	} else {
		files, problems = s.Provider.Discover(env)
	}
	for i := range files {
		files[i].Root, files[i].Group = s.Root, s.Group
	}
	return files, problems
}
