package opencode

import (
	"bytes"
	"database/sql"
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"ctx/core"
	sharedfx "ctx/internal/fixtures"
)

// findFixtures finds shared/fixtures/agents/opencode by walking up from the
// working directory; the repository's sibling "shared" counts too.
func findFixtures() (string, error) {
	return sharedfx.Agent("opencode")
}

func fixtureDir(t testing.TB) string {
	t.Helper()
	dir := sharedfx.AgentDir(t, "opencode")
	return dir
}

// rowExport is the shape of the fixtures' row exports: the CREATE TABLE
// text of each table (rows.json only) and rows as column → value objects.
type rowExport struct {
	Schema  map[string]string            `json:"schema"`
	Project []map[string]json.RawMessage `json:"project"`
	Session []map[string]json.RawMessage `json:"session"`
	Message []map[string]json.RawMessage `json:"message"`
	Part    []map[string]json.RawMessage `json:"part"`
}

func readExport(t testing.TB, path string) rowExport {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var ex rowExport
	if err := json.Unmarshal(data, &ex); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return ex
}

// openDB opens a read-write connection to a test database.
func openDB(t testing.TB, path string) *sql.DB {
	t.Helper()
	db, err := sql.Open("sqlite", fileURI(path))
	if err != nil {
		t.Fatal(err)
	}
	db.SetMaxOpenConns(1)
	t.Cleanup(func() { _ = db.Close() })
	exec(t, db, "PRAGMA synchronous = OFF")
	return db
}

func exec(t testing.TB, db *sql.DB, q string, args ...any) {
	t.Helper()
	if _, err := db.Exec(q, args...); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
}

// createTables creates the project, session, message and part tables with
// the schema text exported from the real database.
func createTables(t testing.TB, db *sql.DB, schema map[string]string) {
	t.Helper()
	for _, table := range []string{"project", "session", "message", "part"} {
		exec(t, db, schema[table])
	}
}

// insertRows inserts the exported rows of every table.
func insertRows(t testing.TB, db *sql.DB, ex rowExport) {
	t.Helper()
	for table, rows := range map[string][]map[string]json.RawMessage{"project": ex.Project,
		"session": ex.Session, "message": ex.Message, "part": ex.Part} {
		for _, row := range rows {
			insertRow(t, db, table, row)
		}
	}
}

func insertRow(t testing.TB, db *sql.DB, table string, row map[string]json.RawMessage) {
	t.Helper()
	cols := make([]string, 0, len(row))
	for c := range row {
		cols = append(cols, c)
	}
	sort.Strings(cols)
	args := make([]any, len(cols))
	for i, c := range cols {
		args[i] = jsonValue(t, row[c])
	}
	q := "INSERT INTO " + table + " (" + strings.Join(cols, ", ") + ") VALUES (?" +
		strings.Repeat(", ?", len(cols)-1) + ")"
	exec(t, db, q, args...)
}

// jsonValue converts an exported column value to a driver value.
func jsonValue(t testing.TB, raw json.RawMessage) any {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		t.Fatal(err)
	}
	if n, ok := v.(json.Number); ok {
		if i, err := n.Int64(); err == nil {
			return i
		}
		f, _ := n.Float64()
		return f
	}
	return v
}

// fixtureDB builds dir/opencode.db from both row exports of the fixtures.
func fixtureDB(t testing.TB, dir string) string {
	t.Helper()
	fx := fixtureDir(t)
	rows := readExport(t, filepath.Join(fx, "opencode.db.rows.json"))
	edits := readExport(t, filepath.Join(fx, "opencode.db.edit-parts.json"))
	path := filepath.Join(dir, "opencode.db")
	db := openDB(t, path)
	createTables(t, db, rows.Schema)
	insertRows(t, db, rows)
	insertRows(t, db, edits)
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

// legacySessionPath is the session file of the legacy fixture.
func legacySessionPath(t testing.TB) string {
	return filepath.Join(fixtureDir(t), "storage-legacy-1.1.12", "session", "global",
		"ses_4567b0e1affeRu0da2D26ls6sf.json")
}

func parseFile(t testing.TB, p *Provider, path string) core.ParseResult {
	t.Helper()
	res, err := p.Parse(core.SourceFile{Provider: ProviderID, Path: path})
	if err != nil {
		t.Fatalf("parse %s: %v", path, err)
	}
	return res
}

func sessionByID(t testing.TB, res core.ParseResult, id string) core.ParsedSession {
	t.Helper()
	for _, s := range res.Sessions {
		if s.Session.NativeID == id {
			return s
		}
	}
	t.Fatalf("session %s not found", id)
	return core.ParsedSession{}
}

func eventsOf(s core.ParsedSession, typ core.EventType) []core.Event {
	var out []core.Event
	for _, e := range s.Events {
		if e.Type == typ {
			out = append(out, e)
		}
	}
	return out
}

func codes(res core.ParseResult) map[string]int {
	out := map[string]int{}
	for _, p := range res.Problems {
		out[p.Code]++
	}
	return out
}

func readFile(t testing.TB, path string) []byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return data
}
