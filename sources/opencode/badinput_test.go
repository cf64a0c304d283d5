package opencode

import (
	"database/sql"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"ctx/core"
)

// newDB creates a database with OpenCode's tables (schema from the real
// database) and returns a read-write connection to it.
func newDB(t *testing.T, path string, journal string) *sql.DB {
	t.Helper()
	db := openDB(t, path)
	exec(t, db, "PRAGMA journal_mode = "+journal)
	createTables(t, db, readExport(t, filepath.Join(fixtureDir(t), "opencode.db.rows.json")).Schema)
	return db
}

func addSession(t *testing.T, db *sql.DB, id, parent string, created int64) {
	t.Helper()
	var p any
	if parent != "" {
		p = parent
	}
	exec(t, db, `INSERT INTO session (id, project_id, parent_id, slug, directory, title, version, time_created, time_updated)
		VALUES (?, 'global', ?, 's', '/w', 'title '||?, '1.17.3', ?, ?)`, id, p, id, created, created)
}

func addMessage(t *testing.T, db *sql.DB, id, session, data string) {
	t.Helper()
	exec(t, db, `INSERT INTO message (id, session_id, time_created, time_updated, data) VALUES (?, ?, 0, 0, ?)`,
		id, session, data)
}

func addPart(t *testing.T, db *sql.DB, id, msg, session, data string) {
	t.Helper()
	exec(t, db, `INSERT INTO part (id, message_id, session_id, time_created, time_updated, data) VALUES (?, ?, ?, 0, 0, ?)`,
		id, msg, session, data)
}

const (
	userMsg = `{"role":"user","time":{"created":1781746643382}}`
	asstMsg = `{"role":"assistant","time":{"created":1781746643420},"modelID":"m1","path":{"cwd":"/w"}}`
)

func textPart(s string) string { return `{"type":"text","text":"` + s + `"}` }

func TestBadDatabaseRecords(t *testing.T) {
	path := filepath.Join(t.TempDir(), "opencode.db")
	db := newDB(t, path, "DELETE")
	addSession(t, db, "ses_a", "", 1)
	addMessage(t, db, "msg_1", "ses_a", userMsg)
	addMessage(t, db, "msg_2", "ses_a", asstMsg)
	addMessage(t, db, "msg_3", "ses_gone", userMsg)                                             // orphan message
	addMessage(t, db, "msg_4", "ses_a", `{"role":"user","time":`)                               // invalid JSON
	addMessage(t, db, "msg_5", "ses_a", `{"role":"narrator","time":{"created":1781746643999}}`) // unknown role
	addPart(t, db, "prt_1", "msg_1", "ses_a", textPart("first"))
	addPart(t, db, "prt_2", "msg_missing", "ses_a", textPart("lost")) // orphan part
	addPart(t, db, "prt_3", "msg_2", "ses_a", `{"type":"text","text":`)
	addPart(t, db, "prt_4", "msg_2", "ses_a", `[1,2]`)
	addPart(t, db, "prt_5", "msg_2", "ses_a", `{"type":"hologram"}`)
	addPart(t, db, "prt_6", "msg_2", "ses_a", textPart("kept answer"))
	addPart(t, db, "prt_7", "msg_3", "ses_gone", textPart("under an orphan message"))
	addPart(t, db, "prt_8", "msg_4", "ses_a", textPart("under a broken message"))
	addPart(t, db, "prt_9", "msg_5", "ses_a", textPart("narration"))
	res := parseFile(t, New(), path)
	want := map[string]int{ProblemOrphanMessage: 1, ProblemOrphanPart: 1, core.ProblemInvalidJSON: 2,
		core.ProblemInvalidRecord: 1, core.ProblemUnknownRecord: 2}
	if got := codes(res); !reflect.DeepEqual(got, want) {
		t.Errorf("problems %v, want %v", got, want)
	}
	for _, p := range res.Problems {
		if p.Path != path || p.Provider != ProviderID {
			t.Errorf("problem %+v", p)
		}
	}
	s := sessionByID(t, res, "ses_a")
	var texts []string
	for _, e := range s.Events {
		texts = append(texts, string(e.Type)+":"+e.Text)
	}
	wantTexts := []string{"message:first", "other:hologram", "message:kept answer", "message:narration"}
	if !reflect.DeepEqual(texts, wantTexts) {
		t.Errorf("events %q, want %q", texts, wantTexts)
	}
}

func TestParentChain(t *testing.T) {
	path := filepath.Join(t.TempDir(), "opencode.db")
	db := newDB(t, path, "DELETE")
	addSession(t, db, "ses_root", "", 1)
	addSession(t, db, "ses_child", "ses_root", 2)
	addSession(t, db, "ses_grandchild", "ses_child", 3)
	addSession(t, db, "ses_stray", "ses_elsewhere", 4)
	addSession(t, db, "ses_loop1", "ses_loop2", 5)
	addSession(t, db, "ses_loop2", "ses_loop1", 6)
	exec(t, db, `UPDATE session SET agent = 'explore' WHERE id = 'ses_grandchild'`)
	res := parseFile(t, New(), path)
	id := func(native string) core.SessionID { return core.NewSessionID(ProviderID, native) }
	tests := []struct{ native, parent, root string }{
		{"ses_root", "", "ses_root"},
		{"ses_child", "ses_root", "ses_root"},
		{"ses_grandchild", "ses_child", "ses_root"},
		{"ses_stray", "ses_elsewhere", "ses_elsewhere"},
	}
	for _, tt := range tests {
		s := sessionByID(t, res, tt.native).Session
		var parent core.SessionID
		if tt.parent != "" {
			parent = id(tt.parent)
		}
		if s.ParentSessionID != parent || s.RootSessionID != id(tt.root) || s.IsSubagent != (tt.parent != "") {
			t.Errorf("%s: parent %v root %v subagent %v", tt.native, s.ParentSessionID, s.RootSessionID, s.IsSubagent)
		}
	}
	if a := sessionByID(t, res, "ses_grandchild").Session.AgentType; a != "explore" {
		t.Errorf("subagent agent type %q", a)
	}
	if s := sessionByID(t, res, "ses_loop1").Session; s.RootSessionID.IsZero() {
		t.Errorf("cycle: no root")
	}
}

// TestWAL reads a database whose rows are only in its -wal, with the
// writer's connection still open, then one with a write transaction in
// progress: committed rows are read, uncommitted ones are not, and the
// read does not wait for the writer.
func TestWAL(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "opencode.db")
	db := newDB(t, path, "WAL")
	fx := fixtureDir(t)
	insertRows(t, db, readExport(t, filepath.Join(fx, "opencode.db.rows.json")))
	if st, err := os.Stat(path + "-wal"); err != nil || st.Size() == 0 {
		t.Fatalf("no -wal beside the database: %v", err)
	}
	res := parseFile(t, New(), path)
	if len(res.Sessions) != 2 || len(res.Problems) != 0 {
		t.Fatalf("sessions %d problems %v, want the 2 committed sessions", len(res.Sessions), res.Problems)
	}
	before := len(sessionByID(t, res, "ses_1279fce82ffeZOJhNwml1w1Fu4").Events)
	exec(t, db, "BEGIN IMMEDIATE")
	addMessage(t, db, "msg_zz", "ses_1279fce82ffeZOJhNwml1w1Fu4", `{"role":"user","time":{"created":1781746999999}}`)
	addPart(t, db, "prt_zz", "msg_zz", "ses_1279fce82ffeZOJhNwml1w1Fu4", textPart("uncommitted"))
	start := time.Now()
	res = parseFile(t, New(), path)
	if d := time.Since(start); d > time.Second {
		t.Errorf("read waited %v for the writer", d)
	}
	if n := len(sessionByID(t, res, "ses_1279fce82ffeZOJhNwml1w1Fu4").Events); n != before {
		t.Errorf("events %d mid-write, want %d", n, before)
	}
	exec(t, db, "COMMIT")
	res = parseFile(t, New(), path)
	s := sessionByID(t, res, "ses_1279fce82ffeZOJhNwml1w1Fu4")
	if n := len(s.Events); n != before+1 || s.Events[n-1].Text != "uncommitted" {
		t.Errorf("events %d after commit, want %d", n, before+1)
	}
	// Once the writer is gone (its close checkpoints the WAL), the database
	// still reads whole.
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	res = parseFile(t, New(), path)
	if n := len(sessionByID(t, res, "ses_1279fce82ffeZOJhNwml1w1Fu4").Events); n != before+1 || len(res.Problems) != 0 {
		t.Errorf("events %d after the writer closed, problems %v", n, res.Problems)
	}
}

// TestLocked reads databases a writer holds locked: a counted problem
// within the busy timeout, no sessions, no error.
func TestLocked(t *testing.T) {
	tests := []struct {
		name, journal string
		lock          []string
	}{
		{"rollback journal, BEGIN EXCLUSIVE", "DELETE", []string{"BEGIN EXCLUSIVE"}},
		{"WAL, exclusive locking mode", "WAL", []string{"PRAGMA locking_mode = EXCLUSIVE", "BEGIN EXCLUSIVE"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "opencode.db")
			db := newDB(t, path, tt.journal)
			addSession(t, db, "ses_a", "", 1)
			for _, q := range tt.lock {
				exec(t, db, q)
			}
			p := &Provider{busyTimeout: 200 * time.Millisecond}
			start := time.Now()
			res, err := p.Parse(core.SourceFile{Provider: ProviderID, Path: path})
			if err != nil {
				t.Fatalf("err %v, want a problem", err)
			}
			if d := time.Since(start); d < 150*time.Millisecond || d > 5*time.Second {
				t.Errorf("waited %v, want about the busy timeout", d)
			}
			want := []core.Problem{{Code: ProblemDatabaseLocked, Provider: ProviderID, Path: path}}
			if !reflect.DeepEqual(res.Problems, want) || len(res.Sessions) != 0 {
				t.Errorf("problems %v sessions %d", res.Problems, len(res.Sessions))
			}
			exec(t, db, "ROLLBACK")
		})
	}
}

func TestNotADatabase(t *testing.T) {
	dir := t.TempDir()
	garbage := filepath.Join(dir, "garbage.db")
	if err := os.WriteFile(garbage, []byte("this is not a SQLite database, just text long enough to have a header...."), 0o644); err != nil {
		t.Fatal(err)
	}
	empty := filepath.Join(dir, "empty.db")
	if err := os.WriteFile(empty, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	other := filepath.Join(dir, "other.db")
	exec(t, openDB(t, other), "CREATE TABLE session (name text)")
	truncated := filepath.Join(dir, "truncated.db")
	src := fixtureDB(t, t.TempDir())
	data := readFile(t, src)
	if err := os.WriteFile(truncated, data[:len(data)/3], 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct{ path, code string }{
		{garbage, ProblemInvalidDatabase}, {empty, core.ProblemEmptyFile},
		{other, ProblemInvalidDatabase}, {truncated, ProblemInvalidDatabase},
	}
	for _, tt := range tests {
		res := parseFile(t, New(), tt.path)
		if got := codes(res); len(res.Sessions) != 0 || !reflect.DeepEqual(got, map[string]int{tt.code: 1}) {
			t.Errorf("%s: problems %v sessions %d, want %s", filepath.Base(tt.path), got, len(res.Sessions), tt.code)
		}
	}
}

func TestDatabaseIsNotWritten(t *testing.T) {
	path := fixtureDB(t, t.TempDir())
	before := readFile(t, path)
	st, _ := os.Stat(path)
	parseFile(t, New(), path)
	after, _ := os.Stat(path)
	if !reflect.DeepEqual(before, readFile(t, path)) || !st.ModTime().Equal(after.ModTime()) {
		t.Error("parsing changed the database")
	}
	for _, suffix := range []string{"-wal", "-shm", "-journal"} {
		if _, err := os.Stat(path + suffix); err == nil {
			t.Errorf("parsing created %s", suffix)
		}
	}
	// A WAL-mode database read while no writer has it open: SQLite creates
	// an empty -wal and a -shm beside it (a read-only connection cannot
	// remove them), but the database itself is untouched.
	db := openDB(t, path)
	exec(t, db, "PRAGMA journal_mode = WAL")
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	before = readFile(t, path)
	parseFile(t, New(), path)
	if !reflect.DeepEqual(before, readFile(t, path)) {
		t.Error("parsing changed a WAL-mode database")
	}
	if st, err := os.Stat(path + "-wal"); err == nil && st.Size() != 0 {
		t.Errorf("parsing wrote %d bytes of WAL", st.Size())
	}
}

// TestOddPath reads a database whose path has characters that are special
// in SQLite URIs.
func TestOddPath(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "a b?c#d%41e")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	path := fixtureDB(t, dir)
	res := parseFile(t, New(), path)
	if len(res.Sessions) != 3 || len(res.Problems) != 0 {
		t.Errorf("sessions %d problems %v", len(res.Sessions), res.Problems)
	}
	if _, err := os.Stat(filepath.Join(filepath.Dir(dir), "a b")); err == nil {
		t.Error("a database was created at the unescaped path")
	}
}
