package app

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"ctx/config"
	"ctx/core"
	"ctx/query"
	"ctx/sources/reported"
	"ctx/threads"
	"ctx/workspace"
)

// configApp is an App whose config.toml is body, over a fresh store.
func configApp(t *testing.T, body string) *App { t.Helper(); return configAppEnv(t, body, nil) }

// configAppEnv is configApp with environment variables.
func configAppEnv(t *testing.T, body string, vars map[string]string) *App {
	t.Helper()
	home := t.TempDir()
	if body != "" {
		dir := filepath.Join(home, ".config", "ctx")
		if err := os.MkdirAll(dir, 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "config.toml"), []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	store := filepath.Join(t.TempDir(), "store")
	env := core.Env{Home: home, Getenv: func(k string) string {
		if k == "CTX_HOME" {
			return store
		}
		return vars[k]
	}}
	return New(Options{Env: env, Home: store, Version: "test", NoWake: true})
}

// bigWorkspace holds more text than a small budget takes.
func bigWorkspace(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	body := strings.Repeat("The importer reads every provider's history and publishes a generation.\n", 400)
	for _, name := range []string{"README.md", "main.go", "PLAN.md"} {
		if err := os.WriteFile(filepath.Join(root, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

func TestHandoffDefaultsAgreeWithEngines(t *testing.T) {
	d := config.DefaultHandoff()
	if d.TokenBudget != workspace.DefaultTokenBudget || d.CacheMaxAge != workspace.DefaultCacheMaxAge ||
		d.ThreadBudget != threads.DefaultBudget || d.ThreadMaxBudget != threads.MaxBudget ||
		d.RatePerMinute != reported.DefaultPerMinute || d.Burst != reported.DefaultBurst {
		t.Fatalf("config defaults %+v differ from the engines'", d)
	}
	if got := HandoffSettingsFrom(&config.Config{}); got != DefaultHandoffSettings() {
		t.Fatalf("an empty config resolves to %+v, not the defaults %+v", got, DefaultHandoffSettings())
	}
}

func TestHandoffConfigChangesBehaviour(t *testing.T) {
	ctx := context.Background()
	root := bigWorkspace(t)
	def, err := configApp(t, "").ConfiguredHandoff()
	if err != nil {
		t.Fatal(err)
	}
	small, err := configApp(t, `[context]
token_budget = 2000
cache_max_age_ms = 0
[threads]
budget = 300
max_budget = 600
[ingest]
rate_per_minute = 1
burst = 2
`).ConfiguredHandoff()
	if err != nil {
		t.Fatal(err)
	}
	caller := Caller{Door: reported.DoorCLI, Client: reported.Client{Name: "ctx"}, Conn: "t", Root: root}

	// [context] token_budget: a smaller budget spends fewer tokens.
	big, err := def.GetContext(ctx, caller, "full")
	if err != nil {
		t.Fatal(err)
	}
	little, err := small.GetContext(ctx, caller, "full")
	if err != nil {
		t.Fatal(err)
	}
	if little.Meta.TokenBudget != 2000 || little.Meta.TokensUsed > 2000 || little.Meta.TokensUsed >= big.Meta.TokensUsed {
		t.Fatalf("token_budget 2000: budget %d used %d; default used %d", little.Meta.TokenBudget,
			little.Meta.TokensUsed, big.Meta.TokensUsed)
	}
	// [context] cache_max_age_ms: 0 never serves a snapshot; the default does.
	again, _ := small.GetContext(ctx, caller, "full")
	cached, _ := def.GetContext(ctx, caller, "full")
	if again.Meta.Cached || !cached.Meta.Cached {
		t.Fatalf("cache_max_age_ms 0 served cached=%v; the default served cached=%v", again.Meta.Cached, cached.Meta.Cached)
	}

	// [threads] budget and max_budget.
	if _, err := small.ContinueThread("", 601); !errors.Is(err, ErrBudget) {
		t.Fatalf("a budget above max_budget 600: %v", err)
	}
	if _, err := def.ContinueThread("", 601); errors.Is(err, ErrBudget) {
		t.Fatalf("the default max budget refused 601: %v", err)
	}

	// [ingest] burst 2: the third save of one client (one conversation: two
	// revisions of its session) is refused and stores nothing.
	save := []byte(`{"summary": "checked the config keys", "thread": "config"}`)
	for i := 1; i <= 3; i++ {
		_, err := small.SaveSession(caller, save)
		var rl *reported.RateLimitError
		switch {
		case i <= 2 && err != nil:
			t.Fatalf("save %d: %v", i, err)
		case i == 3 && !errors.As(err, &rl):
			t.Fatalf("save 3 with burst 2: %v, want rate_limited", err)
		case i == 3:
			if p, ok := ClassifyHandoff(err); !ok || p.Code != "rate_limited" {
				t.Fatalf("save 3 classified %+v", p)
			}
		}
	}
	if c, err := small.ContinueThread("config", 0); err != nil || len(c.Entries) != 1 || c.Entries[0].Revision != 2 || c.TokenBudget != 300 {
		t.Fatalf("thread after a refused save: %+v %v (want one session at revision 2, budget 300 from [threads] budget)", c, err)
	}
}

func TestHandoffConfigBadValues(t *testing.T) {
	for _, tc := range []struct{ body, key string }{
		{"[context]\ntoken_budget = 10\n", "[context] token_budget"},
		{"[context]\ncache_max_age_ms = -1\n", "[context] cache_max_age_ms"},
		{"[threads]\nbudget = 50000\nmax_budget = 40000\n", "[threads] budget"},
		{"[threads]\nmax_budget = 200000\n", "[threads] max_budget"},
		{"[ingest]\nrate_per_minute = -5\n", "[ingest] rate_per_minute"},
		{"[ingest]\nburst = 0\n", "[ingest] burst"},
		{"[context.summary]\nmodel = \"m\"\n", "[context.summary] endpoint"},
		{"[context.summary]\nendpoint = \"ftp://x\"\nmodel = \"m\"\n", "[context.summary] endpoint"},
		{"[context.summary]\nendpoint = \"http://127.0.0.1:1\"\n", "[context.summary] model"},
		{"[context.summary]\nendpoint = \"http://127.0.0.1:1\"\nmodel = \"m\"\napi_key_env = \"not a name\"\n",
			"[context.summary] api_key_env"},
	} {
		_, err := configApp(t, tc.body).ConfiguredHandoff()
		var ce *config.Error
		if !errors.As(err, &ce) || ce.Key != tc.key || !strings.Contains(err.Error(), tc.key) {
			t.Errorf("%q: %v (key %q), want a config error naming %s", tc.body, err, keyOf(ce), tc.key)
		}
		if CodeOf(err) != query.CodeInvalidConfig {
			t.Errorf("%q: classified %s", tc.body, CodeOf(err))
		}
	}
	// A value of the wrong type names the key too (the TOML decoder's message).
	_, err := configApp(t, "[ingest]\nburst = \"lots\"\n").ConfiguredHandoff()
	if err == nil || !strings.Contains(err.Error(), "ingest.burst") {
		t.Fatalf("a string burst: %v", err)
	}
	// The MCP server keeps serving on the defaults.
	a := configApp(t, "[ingest]\nburst = 0\n")
	a.lenient = true
	if s, err := a.HandoffSettings(); CodeOf(err) != query.CodeInvalidConfig || s != DefaultHandoffSettings() {
		t.Fatalf("lenient: %+v %v", s, err)
	}
}

func keyOf(e *config.Error) string {
	if e == nil {
		return ""
	}
	return e.Key
}
