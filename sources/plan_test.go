package sources

import (
	"os"
	"path/filepath"
	"testing"

	"ctx/config"
	"ctx/core"
)

func loadConfig(t *testing.T, body string) *config.Config {
	t.Helper()
	home := t.TempDir()
	dir := filepath.Join(home, ".config", "ctx")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "config.toml"), []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg, err := config.Load(core.Env{Home: home})
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

func TestPlanDefaults(t *testing.T) {
	planned, err := Plan(loadConfig(t, ""), nil)
	if err != nil || len(planned) != len(Builtin()) {
		t.Fatalf("planned %d sources: %v", len(planned), err)
	}
}

func TestPlanConfiguredFirst(t *testing.T) {
	cfg := loadConfig(t, `automatic_discovery = false
[[source]]
root = "Work_1"
provider = "claude-code"
path = "~/cc"
[[source]]
root = "work_1"
provider = "codex"
path = "/srv/codex"
`)
	planned, err := Plan(cfg, []string{"codex"})
	if err != nil || len(planned) != 1 || planned[0].Root != "work_1" || planned[0].Kind != core.KindConfigured {
		t.Fatalf("plan: %+v %v", planned, err)
	}
	if _, err := Plan(cfg, []string{"gemini"}); err == nil {
		t.Fatal("an unknown provider was planned")
	}
}
