package cursor

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"modernc.org/sqlite"

	"ctx/core"
	"ctx/sources/regular"
)

// BusyTimeout bounds how long a read waits for a writer's lock before the
// database is reported as locked.
var BusyTimeout = 1500 * time.Millisecond

// SQLite primary result codes that decide the problem code of a failure.
const (
	sqliteBusy    = 5
	sqliteLocked  = 6
	sqliteCorrupt = 11
	sqliteNotADB  = 26
)

// Table names of state.vscdb.
const (
	tableKV    = "cursorDiskKV"
	tableItems = "ItemTable"
)

// dbStore reads one state.vscdb inside a single read transaction, so every
// value comes from the same snapshot (the WAL included).
type dbStore struct {
	db     *sql.DB
	tx     *sql.Tx
	tables map[string]bool
}

// dsn returns the read-only URI of the database at path. The path is
// percent-encoded so that spaces, '?' and '#' survive; immutable is never
// set, so SQLite reads the -wal beside the file.
func dsn(path string) string {
	abs, err := filepath.Abs(path)
	if err != nil {
		abs = path
	}
	p := filepath.ToSlash(abs)
	if !strings.HasPrefix(p, "/") {
		p = "/" + p // a Windows volume: file:///C:/…
	}
	u := url.URL{Scheme: "file", Path: p}
	ms := strconv.FormatInt(BusyTimeout.Milliseconds(), 10)
	return u.String() + "?mode=ro&_busy_timeout=" + ms
}

// openDB opens the database read-only and begins the read transaction.
func openDB(path string) (*dbStore, error) {
	if err := regular.Check(path); err != nil {
		return nil, fmt.Errorf("cursor: open database: %w", err)
	}
	db, err := sql.Open("sqlite", dsn(path))
	if err != nil {
		return nil, fmt.Errorf("cursor: open database: %w", err)
	}
	db.SetMaxOpenConns(1)
	tx, err := db.BeginTx(context.Background(), &sql.TxOptions{ReadOnly: true})
	if err != nil {
		db.Close()
		return nil, fmt.Errorf("cursor: begin read: %w", err)
	}
	st := &dbStore{db: db, tx: tx, tables: map[string]bool{}}
	if err := st.readTables(); err != nil {
		st.close()
		return nil, err
	}
	return st, nil
}

func (s *dbStore) readTables() error {
	rows, err := s.tx.Query(`SELECT name FROM sqlite_master WHERE type = 'table' AND name IN (?, ?)`, tableKV, tableItems)
	if err != nil {
		return fmt.Errorf("cursor: read schema: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var name string
		if err := rows.Scan(&name); err != nil {
			return fmt.Errorf("cursor: read schema: %w", err)
		}
		s.tables[name] = true
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("cursor: read schema: %w", err)
	}
	return nil
}

func (s *dbStore) close() {
	_ = s.tx.Rollback()
	_ = s.db.Close()
}

// scan calls fn for every cursorDiskKV row whose key starts with prefix, in
// key order. The range form uses the key's unique index.
func (s *dbStore) scan(prefix string, fn func(key string, value []byte) error) error {
	if !s.tables[tableKV] {
		return nil
	}
	rows, err := s.tx.Query(`SELECT key, value FROM cursorDiskKV WHERE key >= ? AND key < ? ORDER BY key`,
		prefix, prefixEnd(prefix))
	if err != nil {
		return fmt.Errorf("cursor: query %s rows: %w", strings.TrimSuffix(prefix, ":"), err)
	}
	defer rows.Close()
	for rows.Next() {
		var key string
		var value []byte
		if err := rows.Scan(&key, &value); err != nil {
			return fmt.Errorf("cursor: read row: %w", err)
		}
		if err := fn(key, value); err != nil {
			return err
		}
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("cursor: read rows: %w", err)
	}
	return nil
}

// value returns the value of one key of cursorDiskKV or ItemTable.
func (s *dbStore) value(table, key string) ([]byte, bool, error) {
	if !s.tables[table] {
		return nil, false, nil
	}
	q := `SELECT value FROM cursorDiskKV WHERE key = ?`
	if table == tableItems {
		q = `SELECT value FROM ItemTable WHERE key = ?`
	}
	var v []byte
	err := s.tx.QueryRow(q, key).Scan(&v)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, fmt.Errorf("cursor: read value: %w", err)
	}
	return v, true, nil
}

// prefixEnd returns the smallest string greater than every string that
// starts with prefix (prefixes here end in ':', so the last byte is bumped).
func prefixEnd(prefix string) string {
	if prefix == "" {
		return "\xff"
	}
	b := []byte(prefix)
	b[len(b)-1]++
	return string(b)
}

// dbError classifies a database failure: locked and corrupt databases get
// their own problem codes through core.ReadError.
func dbError(err error) error {
	var se *sqlite.Error
	if !errors.As(err, &se) {
		return err
	}
	switch se.Code() & 0xff {
	case sqliteBusy, sqliteLocked:
		return &core.ReadError{Code: ProblemDatabaseLocked, Err: err}
	case sqliteCorrupt, sqliteNotADB:
		return &core.ReadError{Code: ProblemDatabaseCorrupt, Err: err}
	}
	return err
}
