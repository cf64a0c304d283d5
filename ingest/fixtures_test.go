package ingest_test

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	_ "modernc.org/sqlite"

	"ctx/core"
	"ctx/ingest"
	sharedfx "ctx/internal/fixtures"
	"ctx/query"
	"ctx/sources"
	"ctx/sources/aider"
)

func fixturesDir(t *testing.T) string {
	t.Helper()
	return sharedfx.Dir(t)
}

func sqliteDB(t *testing.T, path string, stmts ...string) *sql.DB {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	for _, s := range stmts {
		if _, err := db.Exec(s); err != nil {
			t.Fatal(err)
		}
	}
	return db
}

// cursorDBs builds Cursor's global and 2024 workspace databases from the
// fixtures' row exports.
func cursorDBs(t *testing.T, fx, home string) {
	t.Helper()
	user := filepath.Join(home, ".config", "Cursor", "User")
	g := sqliteDB(t, filepath.Join(user, "globalStorage", "state.vscdb"), "CREATE TABLE cursorDiskKV (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB)")
	data, _ := os.ReadFile(filepath.Join(fx, "cursor", "globalStorage-2026", "cursorDiskKV.rows.jsonl"))
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		var row struct{ Key, Value string }
		if err := json.Unmarshal([]byte(line), &row); err != nil {
			t.Fatal(err)
		}
		if _, err := g.Exec("INSERT INTO cursorDiskKV VALUES (?, ?)", row.Key, row.Value); err != nil {
			t.Fatal(err)
		}
	}
	w := sqliteDB(t, filepath.Join(user, "workspaceStorage", "0f1e2d", "state.vscdb"), "CREATE TABLE ItemTable (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB)")
	files, _ := filepath.Glob(filepath.Join(fx, "cursor", "workspaceStorage-2024", "ItemTable.*.json"))
	for _, f := range files {
		key := strings.TrimSuffix(strings.TrimPrefix(filepath.Base(f), "ItemTable."), ".json")
		value, _ := os.ReadFile(f)
		if _, err := w.Exec("INSERT INTO ItemTable VALUES (?, ?)", key, string(value)); err != nil {
			t.Fatal(err)
		}
	}
}

// opencodeDB builds opencode.db from the row export: its own schema, then
// its rows and the edit parts.
func opencodeDB(t *testing.T, fx, home string) {
	t.Helper()
	var export map[string]json.RawMessage
	data, _ := os.ReadFile(filepath.Join(fx, "opencode", "opencode.db.rows.json"))
	if err := json.Unmarshal(data, &export); err != nil {
		t.Fatal(err)
	}
	var schema map[string]string
	_ = json.Unmarshal(export["schema"], &schema)
	db := sqliteDB(t, filepath.Join(home, ".local", "share", "opencode", "opencode.db"))
	for _, table := range []string{"project", "session", "message", "part"} {
		if _, err := db.Exec(schema[table]); err != nil {
			t.Fatal(err)
		}
	}
	insert := func(table string, raw json.RawMessage) {
		var rows []map[string]any
		_ = json.Unmarshal(raw, &rows)
		for _, row := range rows {
			var cols, marks []string
			var vals []any
			for k, v := range row {
				cols, marks, vals = append(cols, "`"+k+"`"), append(marks, "?"), append(vals, sqlValue(v))
			}
			q := fmt.Sprintf("INSERT OR REPLACE INTO `%s` (%s) VALUES (%s)", table, strings.Join(cols, ","), strings.Join(marks, ","))
			if _, err := db.Exec(q, vals...); err != nil {
				t.Fatal(err)
			}
		}
	}
	for _, table := range []string{"project", "session", "message", "part"} {
		insert(table, export[table])
	}
	var edits map[string]json.RawMessage
	data, _ = os.ReadFile(filepath.Join(fx, "opencode", "opencode.db.edit-parts.json"))
	_ = json.Unmarshal(data, &edits)
	for _, table := range []string{"session", "message", "part"} {
		insert(table, edits[table])
	}
}

func sqlValue(v any) any {
	switch x := v.(type) {
	case map[string]any, []any:
		b, _ := json.Marshal(x)
		return string(b)
	case float64:
		if x == float64(int64(x)) {
			return int64(x)
		}
	}
	return v
}

// placeFixtures puts every agent's real files at that agent's default path
// in a scratch home; Aider, which has no default path, is a configured root.
func placeFixtures(t *testing.T, home string) string {
	fx := fixturesDir(t)
	sharedfx.Copy(t, filepath.Join(fx, "claude-code", "projects"), filepath.Join(home, ".claude", "projects"))
	sharedfx.Copy(t, filepath.Join(fx, "codex", "sessions"), filepath.Join(home, ".codex", "sessions"))
	legacy, _ := os.ReadFile(filepath.Join(fx, "codex", "legacy-pre-envelope", "example.jsonl"))
	_ = os.WriteFile(filepath.Join(home, ".codex", "sessions", "rollout-2025-06-01T10-00-00-legacy.jsonl"), legacy, 0o600)
	sharedfx.Copy(t, filepath.Join(fx, "gemini-cli", "tmp"), filepath.Join(home, ".gemini", "tmp"))
	pj, _ := os.ReadFile(filepath.Join(fx, "gemini-cli", "projects.json"))
	_ = os.WriteFile(filepath.Join(home, ".gemini", "projects.json"), pj, 0o600)
	ext := filepath.Join(home, ".config", "Code", "User", "globalStorage", "saoudrizwan.claude-dev", "tasks")
	sharedfx.Copy(t, filepath.Join(fx, "cline", "tasks"), ext)
	sample, _ := os.ReadFile(filepath.Join(fx, "cline", "task_sample", "ui_messages.json"))
	_ = os.MkdirAll(filepath.Join(ext, "1777000000000"), 0o700)
	_ = os.WriteFile(filepath.Join(ext, "1777000000000", "ui_messages.json"), sample, 0o600)
	sharedfx.Copy(t, filepath.Join(fx, "amp", "threads"), filepath.Join(home, ".local", "share", "amp", "threads"))
	sharedfx.Copy(t, filepath.Join(fx, "copilot-cli", "session-state"), filepath.Join(home, ".copilot", "session-state"))
	cursorDBs(t, fx, home)
	opencodeDB(t, fx, home)
	repo := filepath.Join(home, "src", "ui-kit")
	hist, _ := os.ReadFile(filepath.Join(fx, "aider", ".aider.chat.history.md"))
	_ = os.MkdirAll(repo, 0o700)
	_ = os.WriteFile(filepath.Join(repo, ".aider.chat.history.md"), hist, 0o600)
	return filepath.Join(home, "src")
}

// explained lists the problem codes the real fixtures are known to raise,
// with the reason; any other problem fails the test.
var explained = map[string]string{
	"missing_bubble": "the Cursor export keeps 14 of its composer's 99 bubble rows",
	"unknown_record": "real files carry record types newer than the parsers know; they are kept as other events",
	"invalid_record": "the Aider fixture opens with text before its first session header",
}

func TestEveryAgentFixture(t *testing.T) {
	home := filepath.Join(t.TempDir(), "home")
	roots := placeFixtures(t, home)
	env := core.Env{Home: home, Getenv: func(string) string { return "" }}
	srcs := []core.Source{{Kind: core.KindConfigured, Root: "repos", Dir: roots, Provider: aider.New()}}
	for _, p := range sources.Builtin() {
		srcs = append(srcs, core.Source{Kind: core.KindAutomatic, Provider: p})
	}
	store := filepath.Join(t.TempDir(), "store")
	rep, err := ingest.Run(context.Background(), ingest.Options{Home: store, Env: env, Sources: srcs, Version: "test"})
	if err != nil {
		t.Fatal(err)
	}
	st, err := query.ReadStatus(store)
	if err != nil {
		t.Fatal(err)
	}
	sessions := map[string]int{}
	for _, s := range st.Sources {
		sessions[s.Provider] += s.Sessions
	}
	for _, p := range []string{"claude-code", "codex", "gemini-cli", "opencode", "cursor", "aider", "cline", "amp", "copilot-cli"} {
		if sessions[p] == 0 {
			t.Errorf("provider %s imported no session (%v)", p, sessions)
		}
	}
	t.Logf("sessions per provider: %v; problems: %d", sessions, len(rep.Problems))
	for _, p := range rep.Problems {
		if explained[p.Code] == "" {
			t.Errorf("unexplained problem %s", p)
		}
	}
	r, err := query.Open(store)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	phrases := map[string]string{
		"claude-code": "orchestrate this experiment",
		"codex":       "usereq",
		"gemini-cli":  "CustomerTier",
		"opencode":    "Procfile",
		"cursor":      "mvnw compile",
		"aider":       "CONVENTIONS.md",
		"cline":       "create-incident-report",
		"amp":         "logout",
		"copilot-cli": "seeder migrations",
	}
	for provider, q := range phrases {
		res, err := r.Search(context.Background(), query.SearchRequest{Query: q, Limit: 3})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Results) == 0 || res.Results[0].Provider != provider {
			got := "nothing"
			if len(res.Results) > 0 {
				got = res.Results[0].Provider
			}
			t.Errorf("search %q: first hit from %s, want %s", q, got, provider)
		}
	}
}
