package cursor

import (
	"bufio"
	"database/sql"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"ctx/core"
	sharedfx "ctx/internal/fixtures"
)

// findFixtures returns shared/fixtures/agents/cursor, found by walking up
// from the working directory.
func findFixtures() (string, error) {
	return sharedfx.Agent("cursor")
}

// fixtureDir is findFixtures for tests: the real exports are required.
func fixtureDir(t testing.TB) string {
	t.Helper()
	dir := sharedfx.AgentDir(t, "cursor")
	return dir
}

// row is one key/value row of a table.
type row struct {
	table, key string
	value      []byte // nil is SQL NULL
}

const schema = `CREATE TABLE ItemTable (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB);
CREATE TABLE cursorDiskKV (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB);`

// createDB writes a state.vscdb with Cursor's two tables holding rows. In
// WAL mode the returned connection stays open, so the rows stay in the
// -wal file until the test ends; otherwise it is closed.
func createDB(t testing.TB, path string, wal bool, rows []row) *sql.DB {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	db, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	db.SetMaxOpenConns(1)
	mode := "DELETE"
	if wal {
		mode = "WAL"
	}
	for _, q := range []string{"PRAGMA journal_mode=" + mode, "PRAGMA wal_autocheckpoint=0", schema} {
		if _, err := db.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	insertRows(t, db, rows)
	if !wal {
		db.Close()
		return nil
	}
	t.Cleanup(func() { db.Close() })
	return db
}

func insertRows(t testing.TB, db *sql.DB, rows []row) {
	t.Helper()
	for _, r := range rows {
		var v any
		if r.value != nil {
			v = string(r.value) // TEXT, as Cursor writes it
		}
		if _, err := db.Exec("INSERT INTO "+r.table+" (key, value) VALUES (?, ?)", r.key, v); err != nil {
			t.Fatal(err)
		}
	}
}

// globalRows reads the cursorDiskKV row export of the global fixture.
func globalRows(t testing.TB) []row {
	t.Helper()
	f, err := os.Open(filepath.Join(fixtureDir(t), "globalStorage-2026", "cursorDiskKV.rows.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []row
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var r struct{ Key, Value string }
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatal(err)
		}
		out = append(out, row{table: tableKV, key: r.Key, value: []byte(r.Value)})
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// workspaceRows reads the ItemTable value exports of the workspace fixture.
func workspaceRows(t testing.TB) []row {
	t.Helper()
	var out []row
	for _, k := range []string{keyPrompts, keyComposers, keyChatData} {
		data, err := os.ReadFile(filepath.Join(fixtureDir(t), "workspaceStorage-2024", "ItemTable."+k+".json"))
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, row{table: tableItems, key: k, value: data})
	}
	return out
}

// fixtureDBs builds the two fixture databases in a scratch user directory
// (the global one in WAL mode, held open by a writer) and returns their
// source files as discovery lists them.
func fixtureDBs(t testing.TB) (global, workspace core.SourceFile) {
	t.Helper()
	user := filepath.Join(t.TempDir(), "Cursor", "User")
	gpath := filepath.Join(user, "globalStorage", dbName)
	wpath := filepath.Join(user, "workspaceStorage", "0f6bbb4bbd2d1d5e1c1c1b1e3a8b2f7a", dbName)
	createDB(t, gpath, true, globalRows(t))
	createDB(t, wpath, false, workspaceRows(t))
	global = core.SourceFile{Provider: ProviderID, Path: gpath, Companions: []string{gpath + "-wal", gpath + "-shm"}}
	workspace = core.SourceFile{Provider: ProviderID, Path: wpath}
	return global, workspace
}

func parseFile(t testing.TB, f core.SourceFile) core.ParseResult {
	t.Helper()
	res, err := New().Parse(f)
	if err != nil {
		t.Fatalf("parse %s: %v", f.Path, err)
	}
	return res
}

func problemCodes(res core.ParseResult) map[string]int {
	out := map[string]int{}
	for _, p := range res.Problems {
		out[p.Code]++
	}
	return out
}

func sessionByNative(t testing.TB, res core.ParseResult, native string) core.ParsedSession {
	t.Helper()
	for _, s := range res.Sessions {
		if s.Session.NativeID == native {
			return s
		}
	}
	t.Fatalf("no session %q", native)
	return core.ParsedSession{}
}

func ofType(s core.ParsedSession, typ core.EventType) []core.Event {
	var out []core.Event
	for _, e := range s.Events {
		if e.Type == typ {
			out = append(out, e)
		}
	}
	return out
}

// openWriter opens a second, writing connection to a database.
func openWriter(t testing.TB, path string) *sql.DB {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

func jsonQuote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
