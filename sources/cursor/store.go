package cursor

import (
	"bytes"
	"encoding/json"
	"io"
	"sort"
	"strings"

	"ctx/core"
	"ctx/sources/jsonl"
)

// store is what the parser reads of one database: cursorDiskKV rows by key
// prefix and single values of cursorDiskKV or ItemTable.
type store interface {
	scan(prefix string, fn func(key string, value []byte) error) error
	value(table, key string) ([]byte, bool, error)
}

// memStore is a store held in memory (a row export).
type memStore struct {
	tables map[string]map[string][]byte
	keys   []string // sorted cursorDiskKV keys
}

func (m *memStore) scan(prefix string, fn func(key string, value []byte) error) error {
	i := sort.SearchStrings(m.keys, prefix)
	for ; i < len(m.keys) && strings.HasPrefix(m.keys[i], prefix); i++ {
		if err := fn(m.keys[i], m.tables[tableKV][m.keys[i]]); err != nil {
			return err
		}
	}
	return nil
}

func (m *memStore) value(table, key string) ([]byte, bool, error) {
	v, ok := m.tables[table][key]
	return v, ok, nil
}

// exportRow is one line of a row export.
type exportRow struct {
	Table string          `json:"table"`
	Key   *string         `json:"key"`
	Value json.RawMessage `json:"value"`
}

// readExport loads a row export into a memStore. Lines that are not rows
// are problems (with their line numbers); a later row replaces an earlier
// one with the same key, as in the table.
func readExport(r io.Reader) (*memStore, []core.Problem, error) {
	m := &memStore{tables: map[string]map[string][]byte{tableKV: {}, tableItems: {}}}
	var bad []core.Problem
	problems, err := jsonl.Read(r, func(l jsonl.Line) error {
		var row exportRow
		if json.Unmarshal(l.Data, &row) != nil || row.Key == nil {
			bad = append(bad, core.Problem{Code: core.ProblemInvalidRecord, Line: l.No})
			return nil
		}
		if row.Table == "" {
			row.Table = tableKV
		}
		t, ok := m.tables[row.Table]
		if !ok {
			bad = append(bad, core.Problem{Code: core.ProblemUnknownRecord, Line: l.No})
			return nil
		}
		t[*row.Key] = exportValue(row.Value)
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	for k := range m.tables[tableKV] {
		m.keys = append(m.keys, k)
	}
	sort.Strings(m.keys)
	problems = append(problems, bad...)
	sort.SliceStable(problems, func(i, j int) bool { return problems[i].Line < problems[j].Line })
	return m, problems, nil
}

// exportValue is the row value of an export: a JSON string is the text
// itself, null is SQL NULL, anything else is taken verbatim.
func exportValue(raw json.RawMessage) []byte {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return nil
	}
	if raw[0] == '"' {
		var s string
		if json.Unmarshal(raw, &s) == nil {
			return []byte(s)
		}
	}
	return raw
}
