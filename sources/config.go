package sources

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/BurntSushi/toml"

	"ctx/core"
	"ctx/semantic"
)

// Config is $XDG_CONFIG_HOME/ctx/config.toml (documented by ctx docs show
// config). A missing file is the default configuration.
type Config struct {
	AutomaticDiscovery *bool              `toml:"automatic_discovery"`
	Sources            []ConfiguredSource `toml:"source"`
	Plugins            []PluginSource     `toml:"plugin"`
	Redaction          struct {
		Enabled *bool `toml:"enabled"`
	} `toml:"redaction"`
	Daemon struct {
		Enabled *bool `toml:"enabled"`
	} `toml:"daemon"`
	Semantic SemanticSettings `toml:"semantic"`
	Sync     SyncSettings     `toml:"sync"`
	path     string
}

// SyncSettings is the [sync] table: what ctx sync push shares (nothing
// unless a list names something).
type SyncSettings struct {
	Include struct {
		// Workspaces selects the sessions whose workspace is one of these
		// directories or below one (absolute, or starting with ~/).
		Workspaces []string `toml:"workspaces"`
		// Providers selects every session of these providers.
		Providers []string `toml:"providers"`
	} `toml:"include"`
}

// SemanticSettings is the [semantic] table: vectors for semantic and
// hybrid search (docs: config). Unset fields take semantic.DefaultConfig.
type SemanticSettings struct {
	Enabled   *bool    `toml:"enabled"`
	Embedder  string   `toml:"embedder"`
	Endpoint  string   `toml:"endpoint"`
	Model     string   `toml:"model"`
	APIKeyEnv string   `toml:"api_key_env"`
	Weight    *float64 `toml:"weight"`
}

// SemanticConfig returns the resolved [semantic] table.
func (c *Config) SemanticConfig() semantic.Config {
	out := semantic.DefaultConfig()
	s := c.Semantic
	if s.Enabled != nil {
		out.Enabled = *s.Enabled
	}
	if s.Embedder != "" {
		out.Embedder, out.Weight = s.Embedder, semantic.DefaultWeightFor(s.Embedder)
	}
	out.Endpoint, out.Model, out.APIKeyEnv = s.Endpoint, s.Model, s.APIKeyEnv
	if s.Weight != nil {
		out.Weight = *s.Weight
	}
	return out
}

// ConfiguredSource is a [[source]] table: a named root of one provider.
type ConfiguredSource struct {
	Root     string `toml:"root"`
	Group    string `toml:"group"`
	Provider string `toml:"provider"`
	Path     string `toml:"path"`
}

// PluginSource is a [[plugin]] table: an external command that prints
// normalized JSONL (docs: plugin-sources).
type PluginSource struct {
	Name    string   `toml:"name"`
	Command []string `toml:"command"`
	Timeout string   `toml:"timeout"`
}

// ConfigError is a configuration problem; it names the file and the entry,
// never a secret value.
type ConfigError struct {
	Path string
	Msg  string
}

func (e *ConfigError) Error() string { return fmt.Sprintf("config %s: %s", e.Path, e.Msg) }

var nameRE = regexp.MustCompile(`^[A-Za-z0-9_-]{1,64}$`)

// ValidName reports whether s is a valid root or group name: 1 to 64 ASCII
// letters, digits, hyphens or underscores.
func ValidName(s string) bool { return nameRE.MatchString(s) }

// ConfigPath returns $XDG_CONFIG_HOME/ctx/config.toml, else
// ~/.config/ctx/config.toml.
func ConfigPath(env core.Env) string {
	if x := env.Get("XDG_CONFIG_HOME"); x != "" {
		return filepath.Join(x, "ctx", "config.toml")
	}
	return filepath.Join(env.Home, ".config", "ctx", "config.toml")
}

// LoadConfig reads and validates the configuration.
func LoadConfig(env core.Env) (*Config, error) {
	c := &Config{path: ConfigPath(env)}
	data, err := os.ReadFile(c.path)
	if errors.Is(err, fs.ErrNotExist) {
		return c, nil
	}
	if err != nil {
		return nil, &ConfigError{Path: c.path, Msg: err.Error()}
	}
	md, err := toml.Decode(string(data), c)
	if err != nil {
		return nil, &ConfigError{Path: c.path, Msg: "not valid TOML: " + err.Error()}
	}
	if undec := md.Undecoded(); len(undec) > 0 {
		return nil, &ConfigError{Path: c.path, Msg: fmt.Sprintf("unknown setting %s", undec[0])}
	}
	return c, c.validate(env)
}

// Automatic reports whether default locations are discovered.
func (c *Config) Automatic() bool { return c.AutomaticDiscovery == nil || *c.AutomaticDiscovery }

// RedactionEnabled reports whether secrets are redacted (the default).
func (c *Config) RedactionEnabled() bool { return c.Redaction.Enabled == nil || *c.Redaction.Enabled }

// DaemonEnabled reports whether a wake may start the daemon (the default).
func (c *Config) DaemonEnabled() bool { return c.Daemon.Enabled == nil || *c.Daemon.Enabled }

func (c *Config) validate(env core.Env) error {
	known := map[string]bool{}
	for _, p := range Builtin() {
		known[p.Name()] = true
	}
	roots := map[string]bool{}
	for i := range c.Sources {
		s := &c.Sources[i]
		where := fmt.Sprintf("[[source]] #%d", i+1)
		switch {
		case !ValidName(s.Root):
			return &ConfigError{c.path, where + ": root must be 1-64 of A-Z a-z 0-9 _ -"}
		case s.Group != "" && !ValidName(s.Group):
			return &ConfigError{c.path, where + ": group must be 1-64 of A-Z a-z 0-9 _ -"}
		case roots[s.Root]:
			return &ConfigError{c.path, where + ": root " + s.Root + " is named twice"}
		case !known[s.Provider]:
			return &ConfigError{c.path, where + ": unknown provider (see ctx sources)"}
		case s.Path == "":
			return &ConfigError{c.path, where + ": path is required"}
		}
		roots[s.Root] = true
		s.Path = expandHome(s.Path, env.Home)
		if !filepath.IsAbs(s.Path) {
			return &ConfigError{c.path, where + ": path must be absolute or start with ~/"}
		}
	}
	for i, w := range c.Sync.Include.Workspaces {
		w = filepath.Clean(expandHome(w, env.Home))
		if !filepath.IsAbs(w) {
			return &ConfigError{c.path, fmt.Sprintf("[sync.include] workspaces #%d: must be absolute or start with ~/", i+1)}
		}
		c.Sync.Include.Workspaces[i] = w
	}
	if err := c.SemanticConfig().Validate(); err != nil {
		return &ConfigError{c.path, "[semantic]: " + err.Error()}
	}
	for i, p := range c.Plugins {
		where := fmt.Sprintf("[[plugin]] #%d", i+1)
		if !ValidName(p.Name) || known[p.Name] {
			return &ConfigError{c.path, where + ": name must be 1-64 of A-Z a-z 0-9 _ - and not a built-in provider"}
		}
		if len(p.Command) == 0 {
			return &ConfigError{c.path, where + ": command is required"}
		}
		if p.Timeout != "" {
			if d, err := time.ParseDuration(p.Timeout); err != nil || d <= 0 {
				return &ConfigError{c.path, where + ": timeout must be a positive duration like 30s"}
			}
		}
	}
	return nil
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
