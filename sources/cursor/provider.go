package cursor

import (
	"fmt"
	"io"
	"os"
	"path/filepath"

	"ctx/core"
)

// ProviderID is the provider id of Cursor.
const ProviderID = "cursor"

// Problem codes of this provider, beside the core ones.
const (
	// ProblemDatabaseLocked: a writer held the database past the busy
	// timeout; the whole file is skipped (a core.ReadError) and read again
	// on the next import.
	ProblemDatabaseLocked = "database_locked"
	// ProblemDatabaseCorrupt: the file is not a SQLite database or is
	// damaged (a core.ReadError).
	ProblemDatabaseCorrupt = "database_corrupt"
	// ProblemUnknownVersion: a composer or bubble value whose _v is newer
	// than the versions this parser knows; it is parsed best-effort.
	ProblemUnknownVersion = "unknown_version"
	// ProblemMissingBubble: a conversation header names a bubble whose row
	// is absent (deleted, or not written yet).
	ProblemMissingBubble = "missing_bubble"
)

// Provider discovers and parses Cursor's state.vscdb databases.
type Provider struct{}

var (
	_ core.Provider       = (*Provider)(nil)
	_ core.RootDiscoverer = (*Provider)(nil)
)

// New returns the Cursor provider.
func New() *Provider { return &Provider{} }

// Name returns the provider id, "cursor".
func (*Provider) Name() string { return ProviderID }

// Parse reads one state.vscdb read-only. It fails only when the database
// cannot be read at all: a file that vanished wraps fs.ErrNotExist, a
// database locked past the busy timeout is a core.ReadError with code
// database_locked. Bad values inside a readable database are problems.
func (*Provider) Parse(f core.SourceFile) (core.ParseResult, error) {
	if _, err := os.Stat(f.Path); err != nil {
		return core.ParseResult{}, fmt.Errorf("cursor: open database: %w", err)
	}
	st, err := openDB(f.Path)
	if err != nil {
		return core.ParseResult{}, dbError(err)
	}
	defer st.close()
	opt := options{scope: filepath.Base(filepath.Dir(f.Path)), workspace: readWorkspaceJSON(f.Path)}
	res, err := parseStore(st, f, opt)
	if err != nil {
		return core.ParseResult{}, dbError(err)
	}
	return res, nil
}

// ParseExport parses a row export instead of a database: JSON Lines of
// {"table","key","value"} (table defaults to cursorDiskKV; value is the
// row's text as a JSON string, or any JSON value taken verbatim). It is
// pure, touching nothing but r, which makes it the fuzzing entry point and
// the way to read the shared fixtures' row exports.
func ParseExport(r io.Reader, f core.SourceFile) (core.ParseResult, error) {
	st, problems, err := readExport(r)
	if err != nil {
		return core.ParseResult{}, fmt.Errorf("cursor: read export: %w", err)
	}
	res, err := parseStore(st, f, options{scope: filepath.Base(filepath.Dir(f.Path))})
	if err != nil {
		return core.ParseResult{}, fmt.Errorf("cursor: parse export: %w", err)
	}
	for _, pr := range problems {
		res.Problems = append(res.Problems, core.Problem{Code: pr.Code, Provider: ProviderID,
			Path: f.Path, Line: pr.Line})
	}
	return res, nil
}
