package opencode

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strconv"
	"strings"
	"time"

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"

	"ctx/core"
	"ctx/sources/regular"
)

var (
	// errEmpty: the database has none of OpenCode's tables.
	errEmpty = errors.New("opencode: database has no tables")
	// errSchema: the database lacks a table or column OpenCode's history needs.
	errSchema = errors.New("opencode: database lacks the session, message or part table")
)

// parseDB reads every session of an OpenCode database in one read
// transaction, so the sessions, messages and parts are one consistent
// snapshot even while OpenCode writes. A locked, corrupt or foreign
// database is a problem and yields no sessions: a partial read would drop
// events that an earlier import stored.
func parseDB(f core.SourceFile, timeout time.Duration) (core.ParseResult, error) {
	b := newBuilder(f)
	err := readDB(f.Path, timeout, b)
	if err == nil {
		return b.finish(), nil
	}
	if code := problemCode(err); code != "" {
		return core.ParseResult{Problems: []core.Problem{{Code: code, Provider: ProviderID, Path: f.Path}}}, nil
	}
	if _, serr := os.Stat(f.Path); errors.Is(serr, fs.ErrNotExist) {
		return core.ParseResult{}, fmt.Errorf("opencode: database: %w", serr)
	}
	return core.ParseResult{}, fmt.Errorf("opencode: read database: %w", err)
}

// problemCode maps a read error to a problem code, or "" when the file
// could not be read at all.
func problemCode(err error) string {
	if errors.Is(err, errEmpty) {
		return core.ProblemEmptyFile
	}
	if errors.Is(err, errSchema) {
		return ProblemInvalidDatabase
	}
	var se *sqlite.Error
	if !errors.As(err, &se) {
		return ""
	}
	switch se.Code() & 0xff {
	case sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED:
		return ProblemDatabaseLocked
	case sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB:
		return ProblemInvalidDatabase
	}
	return ""
}

// dbURI opens path read-only, never creating it, with a bounded wait for
// locks. It is not immutable: the -wal is read, so un-checkpointed writes
// are seen.
func dbURI(path string, timeout time.Duration) string {
	return fileURI(path) + "?mode=ro&_pragma=busy_timeout(" + strconv.FormatInt(timeout.Milliseconds(), 10) + ")"
}

// fileURI is the SQLite URI of a file path, with the characters that URIs
// treat specially escaped.
func fileURI(path string) string {
	return "file:" + strings.NewReplacer("%", "%25", "?", "%3f", "#", "%23").Replace(path)
}

func readDB(path string, timeout time.Duration, b *builder) error {
	if err := regular.Check(path); err != nil {
		return err
	}
	db, err := sql.Open("sqlite", dbURI(path, timeout))
	if err != nil {
		return err
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	ctx := context.Background()
	tx, err := db.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return err
	}
	defer func() { _ = tx.Rollback() }()
	cols, err := columns(ctx, tx)
	if err != nil {
		return err
	}
	if err := readSessions(ctx, tx, cols, b); err != nil {
		return err
	}
	if err := readMessages(ctx, tx, cols, b); err != nil {
		return err
	}
	return readParts(ctx, tx, b)
}

// sessionIDs returns the ids of the sessions of an OpenCode database.
func sessionIDs(path string, timeout time.Duration) (map[string]bool, error) {
	if err := regular.Check(path); err != nil {
		return nil, err
	}
	db, err := sql.Open("sqlite", dbURI(path, timeout))
	if err != nil {
		return nil, err
	}
	defer db.Close()
	ids := map[string]bool{}
	err = eachRow(context.Background(), db, "SELECT id FROM session", func(rows *sql.Rows) error {
		var id string
		if err := rows.Scan(&id); err != nil {
			return err
		}
		ids[id] = true
		return nil
	})
	return ids, err
}

// eachRow runs the query q and hands every row it returns to scan.
func eachRow(ctx context.Context, db interface {
	QueryContext(context.Context, string, ...any) (*sql.Rows, error)
}, q string, scan func(*sql.Rows) error) error {
	rows, err := db.QueryContext(ctx, q)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		if err := scan(rows); err != nil {
			return err
		}
	}
	return rows.Err()
}

// schema is the set of columns of the session, message and part tables.
type schema map[string]bool

// required are the columns without which nothing can be read.
var required = []string{"session.id", "message.id", "message.session_id", "message.data",
	"part.id", "part.message_id", "part.data"}

func columns(ctx context.Context, tx *sql.Tx) (schema, error) {
	var tables int
	if err := tx.QueryRowContext(ctx, "SELECT count(*) FROM sqlite_master WHERE type = 'table'").Scan(&tables); err != nil {
		return nil, err
	}
	if tables == 0 {
		return nil, errEmpty
	}
	cols := schema{}
	err := eachRow(ctx, tx, `SELECT m.name, p.name FROM sqlite_master AS m
		JOIN pragma_table_info(m.name) AS p
		WHERE m.type = 'table' AND m.name IN ('session', 'message', 'part')`, func(rows *sql.Rows) error {
		var table, col string
		if err := rows.Scan(&table, &col); err != nil {
			return err
		}
		cols[table+"."+col] = true
		return nil
	})
	if err != nil {
		return nil, err
	}
	for _, c := range required {
		if !cols[c] {
			return nil, errSchema
		}
	}
	return cols, nil
}

// text and integer select a column that may be missing in older schemas.
func (s schema) text(table, col string) string {
	if !s[table+"."+col] {
		return "''"
	}
	return "COALESCE(CAST(" + col + " AS TEXT), '')"
}

func (s schema) integer(table, col string) string {
	if !s[table+"."+col] {
		return "0"
	}
	return "COALESCE(CAST(" + col + " AS INTEGER), 0)"
}

func readSessions(ctx context.Context, tx *sql.Tx, s schema, b *builder) error {
	q := "SELECT " + strings.Join([]string{s.text("session", "id"), s.text("session", "parent_id"),
		s.text("session", "directory"), s.text("session", "title"), s.text("session", "agent"),
		s.text("session", "model"), s.integer("session", "time_created")}, ", ") + " FROM session"
	return eachRow(ctx, tx, q, func(rows *sql.Rows) error {
		var r SessionRow
		if err := rows.Scan(&r.ID, &r.ParentID, &r.Directory, &r.Title, &r.Agent, &r.Model, &r.Created); err != nil {
			return err
		}
		b.addSession(r)
		return nil
	})
}

func readMessages(ctx context.Context, tx *sql.Tx, s schema, b *builder) error {
	q := "SELECT " + s.text("message", "id") + ", " + s.text("message", "session_id") + ", " +
		s.integer("message", "time_created") + ", data FROM message"
	return eachRow(ctx, tx, q, func(rows *sql.Rows) error {
		var r MessageRow
		var data sql.RawBytes
		if err := rows.Scan(&r.ID, &r.SessionID, &r.Created, &data); err != nil {
			return err
		}
		r.Data = data
		b.addMessage(r)
		return nil
	})
}

func readParts(ctx context.Context, tx *sql.Tx, b *builder) error {
	return eachRow(ctx, tx, `SELECT COALESCE(CAST(id AS TEXT), ''),
		COALESCE(CAST(message_id AS TEXT), ''), data FROM part`, func(rows *sql.Rows) error {
		var r PartRow
		var data sql.RawBytes
		if err := rows.Scan(&r.ID, &r.MessageID, &data); err != nil {
			return err
		}
		r.Data = data
		b.addPart(r)
		return nil
	})
}
