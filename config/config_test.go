package config

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"ctx/core"
)

func writeConfig(t *testing.T, body string) core.Env {
	t.Helper()
	home := t.TempDir()
	dir := filepath.Join(home, ".config", "ctx")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "config.toml"), []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	return core.Env{Home: home}
}

func TestLoadConfigDefaults(t *testing.T) {
	cfg, err := Load(core.Env{Home: t.TempDir()})
	if err != nil || !cfg.Automatic() || !cfg.RedactionEnabled() || len(cfg.Sources) != 0 {
		t.Fatalf("defaults: %+v %v", cfg, err)
	}
}

func TestLoadConfigValid(t *testing.T) {
	env := writeConfig(t, `automatic_discovery = false
[[source]]
root = "Work_1"
group = "g-2"
provider = "claude-code"
path = "~/cc"
[[source]]
root = "work_1"
provider = "codex"
path = "/srv/codex"
`)
	cfg, err := Load(env)
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Automatic() || cfg.Sources[0].Path != filepath.Join(env.Home, "cc") {
		t.Fatalf("%+v", cfg)
	}
}

func TestLoadConfigDaemon(t *testing.T) {
	cfg, err := Load(core.Env{Home: t.TempDir()})
	if err != nil || !cfg.DaemonEnabled() {
		t.Fatalf("default: daemon enabled = %v, %v", cfg.DaemonEnabled(), err)
	}
	cfg, err = Load(writeConfig(t, "[daemon]\nenabled = false\n"))
	if err != nil || cfg.DaemonEnabled() {
		t.Fatalf("enabled = false: daemon enabled = %v, %v", cfg != nil && cfg.DaemonEnabled(), err)
	}
}

func TestLoadConfigSemantic(t *testing.T) {
	cfg, err := Load(core.Env{Home: t.TempDir()})
	if err != nil || cfg.SemanticConfig() != DefaultSemantic() {
		t.Fatalf("default: %+v %v", cfg.SemanticConfig(), err)
	}
	env := writeConfig(t, `[semantic]
enabled = true
embedder = "openai"
endpoint = "http://localhost:11434"
model = "nomic-embed-text"
api_key_env = "OLLAMA_KEY"
weight = 0.25
`)
	cfg, err = Load(env)
	if err != nil {
		t.Fatal(err)
	}
	want := Semantic{Enabled: true, Embedder: EmbedderOpenAI, Endpoint: "http://localhost:11434",
		Model: "nomic-embed-text", APIKeyEnv: "OLLAMA_KEY", Weight: 0.25}
	if got := cfg.SemanticConfig(); got != want {
		t.Fatalf("got %+v", got)
	}
	cfg, err = Load(writeConfig(t, "[semantic]\nweight = 0\n"))
	if err != nil || cfg.SemanticConfig().Active() {
		t.Fatalf("weight 0: %+v %v", cfg.SemanticConfig(), err)
	}
}

func TestLoadConfigInvalid(t *testing.T) {
	cases := map[string]string{
		"bad root":      "[[source]]\nroot = \"a b\"\nprovider = \"codex\"\npath = \"/x\"\n",
		"long root":     "[[source]]\nroot = \"" + strings.Repeat("a", 65) + "\"\nprovider = \"codex\"\npath = \"/x\"\n",
		"bad group":     "[[source]]\nroot = \"a\"\ngroup = \"x/y\"\nprovider = \"codex\"\npath = \"/x\"\n",
		"dup root":      "[[source]]\nroot = \"a\"\nprovider = \"codex\"\npath = \"/x\"\n[[source]]\nroot = \"a\"\nprovider = \"codex\"\npath = \"/y\"\n",
		"provider":      "[[source]]\nroot = \"a\"\nprovider = \"nope\"\npath = \"/x\"\n",
		"relative path": "[[source]]\nroot = \"a\"\nprovider = \"codex\"\npath = \"x\"\n",
		"unknown key":   "automatic_discovery = true\nsurprise = 1\n",
		"not toml":      "[[source]\n",
		"plugin cmd":    "[[plugin]]\nname = \"p\"\n",
		"plugin name":   "[[plugin]]\nname = \"codex\"\ncommand = [\"x\"]\n",
		"daemon key":    "[daemon]\nenable = false\n",
		"daemon type":   "[daemon]\nenabled = \"no\"\n",
		"exclude ws":    "[exclude]\nworkspaces = [\"relative/dir\"]\n",
		"exclude glob":  "[exclude]\nworkspaces = [\"/a/[\"]\n",
		"exclude prov":  "[exclude]\nproviders = [\"nope\"]\n",
	}
	for name, body := range cases {
		_, err := Load(writeConfig(t, body))
		var ce *Error
		if !errors.As(err, &ce) {
			t.Errorf("%s: got %v, want *Error", name, err)
		}
	}
}

func TestLoadConfigHandoff(t *testing.T) {
	cfg, err := Load(writeConfig(t, "[threads]\nmax_budget = 10000\n[context]\ntoken_budget = 8000\n"))
	if err != nil {
		t.Fatal(err)
	}
	h := cfg.HandoffConfig()
	if h.TokenBudget != 8000 || h.ThreadMaxBudget != 10000 || h.ThreadBudget != 10000 || h.Summary.Configured() {
		t.Fatalf("resolved %+v: max_budget alone lowers the default budget to it", h)
	}
	_, err = Load(writeConfig(t, "[context]\ntoken_budget = \"big\"\n"))
	var ce *Error
	if !errors.As(err, &ce) || !strings.Contains(err.Error(), "context.token_budget") {
		t.Fatalf("a string budget: %v", err)
	}
}

func TestExclude(t *testing.T) {
	env := writeConfig(t, "[exclude]\nworkspaces = [\"~/clients/*\", \"/srv/secret\"]\nproviders = [\"cursor\"]\n")
	cfg, err := Load(env)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		provider, ws string
		want         bool
	}{
		{"codex", filepath.Join(env.Home, "clients", "acme"), true},
		{"codex", filepath.Join(env.Home, "clients", "acme", "api"), true},
		{"codex", filepath.Join(env.Home, "clients"), false},
		{"codex", "/srv/secret", true},
		{"codex", "/srv/secret/x", true},
		{"codex", "/srv/secrets", false},
		{"cursor", "/anywhere", true},
		{"cursor", "", true},
		{"codex", "", false},
		{"codex", "relative/clients/acme", false},
	} {
		if got := cfg.Excludes(c.provider, c.ws); got != c.want {
			t.Errorf("Excludes(%s, %s) = %v, want %v", c.provider, c.ws, got, c.want)
		}
	}
	if !cfg.HasExcludes() {
		t.Fatal("HasExcludes")
	}
}

// TestConfigErrorLine: an invalid config.toml names the line to fix.
func TestConfigErrorLine(t *testing.T) {
	for name, c := range map[string]struct {
		body string
		line int
	}{
		"syntax":         {"automatic_discovery = true\n\n[[source]\n", 3},
		"unknown key":    {"# a comment\n[daemon]\nenabled = true\nenable = false\n", 4},
		"dotted key":     {"daemon.enable = false\n", 1},
		"second source":  {"[[source]]\nroot = \"a\"\nprovider = \"codex\"\npath = \"/x\"\n\n[[source]]\nroot = \"b\"\nprovider = \"codex\"\npath = \"y\"\n", 9},
		"duplicate root": {"[[source]]\nroot = \"a\"\nprovider = \"codex\"\npath = \"/x\"\n[[source]]\nroot = \"a\"\nprovider = \"codex\"\npath = \"/y\"\n", 6},
		"missing path":   {"[[source]]\nroot = \"a\"\nprovider = \"codex\"\n", 1},
		"exclude":        {"[daemon]\nenabled = true\n[exclude]\nproviders = []\nworkspaces = [\"rel\"]\n", 5},
		"semantic":       {"[semantic]\nembedder = \"nope\"\n", 1},
	} {
		_, err := Load(writeConfig(t, c.body))
		var ce *Error
		if !errors.As(err, &ce) || ce.Line != c.line {
			t.Errorf("%s: %v (line %d), want line %d", name, err, lineOf(ce), c.line)
			continue
		}
		if !strings.Contains(ce.Error(), ".toml:"+strconv.Itoa(c.line)+": ") {
			t.Errorf("%s: %q does not name the line", name, ce.Error())
		}
	}
}

func lineOf(e *Error) int {
	if e == nil {
		return -1
	}
	return e.Line
}
