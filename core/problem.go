package core

import "fmt"

// Problem codes: stable, content-free names for what went wrong while reading
// history. They are counted per source in the generation and shown by
// `ctx status`; a Problem never carries file contents.
const (
	ProblemTornLine        = "torn_line"        // the last line of a file is incomplete (a live write)
	ProblemInvalidJSON     = "invalid_json"     // a line or file is not valid JSON
	ProblemBinaryLine      = "binary_line"      // a line holds binary bytes (NUL or invalid UTF-8) and is not JSON even with them replaced
	ProblemReplacedBytes   = "replaced_bytes"   // a record held NUL or invalid UTF-8 bytes: they were replaced by U+FFFD and the record kept
	ProblemLineTooLong     = "line_too_long"    // a line exceeds the per-line limit and was skipped
	ProblemUnknownRecord   = "unknown_record"   // a record type the parser does not know (kept as other)
	ProblemFileVanished    = "file_vanished"    // a file disappeared between discovery and reading
	ProblemUnreadable      = "unreadable"       // a file or directory could not be read (permissions, I/O)
	ProblemInvalidRecord   = "invalid_record"   // valid JSON that does not have the expected shape
	ProblemEmptyFile       = "empty_file"       // a history file with no records
	ProblemUnsupportedRoot = "unsupported_root" // a configured root of a provider that has no root layout
	ProblemPluginFailed    = "plugin_failed"    // a plugin command failed, timed out or printed a bad header
	ProblemNotRegular      = "not_regular"      // a FIFO, socket or device named like a history file (never opened for reading)
)

// Problem is one counted import issue.
type Problem struct {
	Code     string `json:"code"`
	Provider string `json:"provider,omitempty"`
	Path     string `json:"path,omitempty"`
	Line     int    `json:"line,omitempty"`
}

func (p Problem) String() string {
	if p.Line > 0 {
		return fmt.Sprintf("%s: %s line %d", p.Code, p.Path, p.Line)
	}
	return fmt.Sprintf("%s: %s", p.Code, p.Path)
}

// SourceFile is one history file found by discovery.
type SourceFile struct {
	Provider string `json:"provider"`
	Path     string `json:"path"`
	Root     string `json:"root,omitempty"`
	Group    string `json:"group,omitempty"`
	// Companions are files whose changes also change what Path holds (a
	// SQLite database's -wal, a session's metadata file). The import re-reads
	// Path when any of them changed size or mtime.
	Companions []string `json:"companions,omitempty"`
}

// ParseResult is what a parser returns for one file. Bad records never fail a
// parse: they are counted as Problems and every good record is kept.
type ParseResult struct {
	Sessions []ParsedSession
	Problems []Problem
}

// ReadError is an error of Provider.Parse that carries the problem code to
// count for it (plugin_failed, database_locked, …) instead of the default
// file_vanished / unreadable.
type ReadError struct {
	Code string
	Err  error
}

func (e *ReadError) Error() string { return e.Code + ": " + e.Err.Error() }
func (e *ReadError) Unwrap() error { return e.Err }
