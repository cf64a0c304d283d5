package config

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/BurntSushi/toml"
)

// Config is config.toml. A missing file is the default configuration.
type Config struct {
	AutomaticDiscovery *bool         `toml:"automatic_discovery"`
	Sources            []Source      `toml:"source"`
	Plugins            []Plugin      `toml:"plugin"`
	Redaction          Switch        `toml:"redaction"`
	Daemon             Switch        `toml:"daemon"`
	Semantic           SemanticTable `toml:"semantic"`
	Sync               Sync          `toml:"sync"`
	Context            ContextTable  `toml:"context"`
	Threads            ThreadsTable  `toml:"threads"`
	Ingest             IngestTable   `toml:"ingest"`
	Exclude            Exclude       `toml:"exclude"`
	path               string
}

// Exclude is the [exclude] table: sessions an import leaves out. What is
// already stored stays (ctx forget takes it out).
type Exclude struct {
	// Workspaces are directories (absolute, or starting with ~/) or glob
	// patterns of them (~/clients/*): a session in one, or below one, is
	// left out.
	Workspaces []string `toml:"workspaces"`
	// Providers leaves out every session of these providers.
	Providers []string `toml:"providers"`
}

// Excludes reports whether [exclude] leaves out a session of provider in
// workspace.
func (c *Config) Excludes(provider, workspace string) bool {
	for _, p := range c.Exclude.Providers {
		if p == provider {
			return true
		}
	}
	if workspace == "" || !filepath.IsAbs(workspace) {
		return false
	}
	for dir := filepath.Clean(workspace); ; dir = filepath.Dir(dir) {
		for _, pat := range c.Exclude.Workspaces {
			if ok, _ := filepath.Match(pat, dir); ok {
				return true
			}
		}
		if parent := filepath.Dir(dir); parent == dir {
			return false
		}
	}
}

// HasExcludes reports whether [exclude] names anything.
func (c *Config) HasExcludes() bool {
	return len(c.Exclude.Workspaces) > 0 || len(c.Exclude.Providers) > 0
}

// Sync is the [sync] table: what ctx sync push shares (nothing unless a
// list names something).
type Sync struct {
	Include struct {
		// Workspaces selects the sessions whose workspace is one of these
		// directories or below one (absolute, or starting with ~/).
		Workspaces []string `toml:"workspaces"`
		// Providers selects every session of these providers.
		Providers []string `toml:"providers"`
	} `toml:"include"`
}

// Switch is a table with one enabled setting, on when unset.
type Switch struct {
	Enabled *bool `toml:"enabled"`
}

func (s Switch) on() bool { return s.Enabled == nil || *s.Enabled }

// Source is a [[source]] table: a named root of one provider.
type Source struct {
	Root     string `toml:"root"`
	Group    string `toml:"group"`
	Provider string `toml:"provider"`
	Path     string `toml:"path"`
}

// Plugin is a [[plugin]] table: an external command that prints normalized
// JSONL (docs: plugin-sources).
type Plugin struct {
	Name    string   `toml:"name"`
	Command []string `toml:"command"`
	Timeout string   `toml:"timeout"`
}

// TimeoutDuration is the plugin's timeout, 0 when unset.
func (p Plugin) TimeoutDuration() time.Duration {
	d, _ := time.ParseDuration(p.Timeout)
	return d
}

// Error is a configuration problem; it names the file and the entry, never
// a secret value.
type Error struct {
	Path string
	Msg  string
	// Key is the setting at fault ("[context] token_budget") when one
	// setting is; "" for a file-level problem.
	Key string
	// Line is the line of the file the error points at (1-based; 0 when
	// it points at none).
	Line int
}

func (e *Error) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("config %s:%d: %s", e.Path, e.Line, e.Msg)
	}
	return fmt.Sprintf("config %s: %s", e.Path, e.Msg)
}

var nameRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z0-9_-]{1,64}$`) })

// ValidName reports whether s is a valid root or group name: 1 to 64 ASCII
// letters, digits, hyphens or underscores.
func ValidName(s string) bool { return nameRE().MatchString(s) }

// Env is where the configuration is looked for: the environment
// variables and the home directory (core.Env is one).
type Env interface {
	Get(name string) string
	HomeDir() string
}

// BuiltinProviders are the ids of the built-in providers, in the order the
// sources package registers them; a test there keeps the two in step, so
// config checks names without linking any parser.
var BuiltinProviders = []string{"claude-code", "codex", "gemini-cli", "copilot-cli", "amp", "cursor",
	"opencode", "cline", "roo-code", "kilo-code", "aider", "ctx-reported"}

// IsBuiltinProvider reports whether name is the id of a built-in provider.
func IsBuiltinProvider(name string) bool { return slices.Contains(BuiltinProviders, name) }

// Path returns $XDG_CONFIG_HOME/ctx/config.toml, else
// ~/.config/ctx/config.toml.
func Path(env Env) string {
	if x := env.Get("XDG_CONFIG_HOME"); x != "" {
		return filepath.Join(x, "ctx", "config.toml")
	}
	return filepath.Join(env.HomeDir(), ".config", "ctx", "config.toml")
}

// Load reads and validates the configuration.
func Load(env Env) (*Config, error) {
	c := &Config{path: Path(env)}
	data, err := os.ReadFile(c.path)
	if errors.Is(err, fs.ErrNotExist) {
		return c, nil
	}
	if err != nil {
		return nil, &Error{Path: c.path, Msg: err.Error()}
	}
	md, err := toml.Decode(string(data), c)
	if err != nil {
		return nil, &Error{Path: c.path, Msg: "not valid TOML: " + err.Error(), Line: parseLine(err, string(data))}
	}
	if undec := md.Undecoded(); len(undec) > 0 {
		return nil, &Error{Path: c.path, Msg: fmt.Sprintf("unknown setting %s", undec[0]), Line: keyLine(string(data), undec[0])}
	}
	if err := c.validate(env); err != nil {
		if ce, ok := err.(*Error); ok {
			ce.Line = messageLine(string(data), ce.Msg)
			if ce.Line == 0 && ce.Key != "" {
				ce.Line = messageLine(string(data), ce.Key)
			}
		}
		return c, err
	}
	return c, nil
}

// Automatic reports whether default locations are discovered.
func (c *Config) Automatic() bool { return c.AutomaticDiscovery == nil || *c.AutomaticDiscovery }

// RedactionEnabled reports whether secrets are redacted (the default).
func (c *Config) RedactionEnabled() bool { return c.Redaction.on() }

// DaemonEnabled reports whether a wake may start the daemon (the default).
func (c *Config) DaemonEnabled() bool { return c.Daemon.on() }

func (c *Config) validate(env Env) error {
	roots := map[string]bool{}
	for i := range c.Sources {
		s := &c.Sources[i]
		where := fmt.Sprintf("[[source]] #%d", i+1)
		switch {
		case !ValidName(s.Root):
			return &Error{Path: c.path, Msg: where + ": root must be 1-64 of A-Z a-z 0-9 _ -"}
		case s.Group != "" && !ValidName(s.Group):
			return &Error{Path: c.path, Msg: where + ": group must be 1-64 of A-Z a-z 0-9 _ -"}
		case roots[s.Root]:
			return &Error{Path: c.path, Msg: where + ": root " + s.Root + " is named twice"}
		case !IsBuiltinProvider(s.Provider):
			return &Error{Path: c.path, Msg: where + ": unknown provider (see ctx sources)"}
		case s.Path == "":
			return &Error{Path: c.path, Msg: where + ": path is required"}
		}
		roots[s.Root] = true
		s.Path = expandHome(s.Path, env.HomeDir())
		if !filepath.IsAbs(s.Path) {
			return &Error{Path: c.path, Msg: where + ": path must be absolute or start with ~/"}
		}
	}
	for i, w := range c.Sync.Include.Workspaces {
		w = filepath.Clean(expandHome(w, env.HomeDir()))
		if !filepath.IsAbs(w) {
			return &Error{Path: c.path, Msg: fmt.Sprintf("[sync.include] workspaces #%d: must be absolute or start with ~/", i+1)}
		}
		c.Sync.Include.Workspaces[i] = w
	}
	for i, w := range c.Exclude.Workspaces {
		w = filepath.Clean(expandHome(w, env.HomeDir()))
		if _, err := filepath.Match(w, w); !filepath.IsAbs(w) || err != nil {
			return &Error{Path: c.path, Msg: fmt.Sprintf("[exclude] workspaces #%d: must be an absolute directory or pattern, or start with ~/", i+1)}
		}
		c.Exclude.Workspaces[i] = w
	}
	if err := c.SemanticConfig().Validate(); err != nil {
		return &Error{Path: c.path, Msg: "[semantic]: " + err.Error()}
	}
	if err := c.validateHandoff(); err != nil {
		return err
	}
	for i, p := range c.Plugins {
		where := fmt.Sprintf("[[plugin]] #%d", i+1)
		if !ValidName(p.Name) || IsBuiltinProvider(p.Name) {
			return &Error{Path: c.path, Msg: where + ": name must be 1-64 of A-Z a-z 0-9 _ - and not a built-in provider"}
		}
		if len(p.Command) == 0 {
			return &Error{Path: c.path, Msg: where + ": command is required"}
		}
		if p.Timeout != "" {
			if d, err := time.ParseDuration(p.Timeout); err != nil || d <= 0 {
				return &Error{Path: c.path, Msg: where + ": timeout must be a positive duration like 30s"}
			}
		}
	}
	for i, p := range c.Exclude.Providers {
		if !IsBuiltinProvider(p) && !c.isPlugin(p) {
			return &Error{Path: c.path, Msg: fmt.Sprintf("[exclude] providers #%d: unknown provider (see ctx sources)", i+1)}
		}
	}
	return nil
}

func (c *Config) isPlugin(name string) bool {
	for _, p := range c.Plugins {
		if p.Name == name {
			return true
		}
	}
	return false
}

func expandHome(p, home string) string {
	if p == "~" {
		return home
	}
	if strings.HasPrefix(p, "~/") {
		return filepath.Join(home, p[2:])
	}
	return p
}
