package amp

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"

	"ctx/core"
	"ctx/sources/jsonx"
	"ctx/sources/regular"
	"ctx/sources/walk"
)

// ProviderAmp is the provider id.
const ProviderAmp = "amp"

// Provider discovers and parses Amp threads.
type Provider struct {
	readDir func(string) ([]fs.DirEntry, error) // the file system (tests inject faults)
}

var (
	_ core.Provider       = (*Provider)(nil)
	_ core.RootDiscoverer = (*Provider)(nil)
)

// New returns the Amp provider.
func New() *Provider { return &Provider{readDir: os.ReadDir} }

// Name returns the provider id, "amp".
func (*Provider) Name() string { return ProviderAmp }

// DataDir returns Amp's data directory: $XDG_DATA_HOME/amp, else
// <home>/.local/share/amp ("" when neither is known).
func DataDir(env core.Env) string { return walk.DataDir(env, "amp") }

// Root returns the directory Amp keeps its history in (sources.Rooted).
func (*Provider) Root(env core.Env) string { return DataDir(env) }

// Discover lists threads/T-*.json under the data directory, sorted by
// path. A missing directory is not a problem; an unreadable one is.
func (p *Provider) Discover(env core.Env) ([]core.SourceFile, []core.Problem) {
	dir := DataDir(env)
	if dir == "" {
		return nil, nil
	}
	return p.discover(filepath.Join(dir, "threads"))
}

// DiscoverIn lists the threads under a configured directory: a data
// directory (with threads/) or a threads directory itself.
func (p *Provider) DiscoverIn(dir string) ([]core.SourceFile, []core.Problem) {
	return p.discover(filepath.Join(dir, "threads"), dir)
}

func (p *Provider) discover(dirs ...string) ([]core.SourceFile, []core.Problem) {
	var files []core.SourceFile
	var problems []core.Problem
	for _, dir := range dirs {
		entries, err := p.readDir(dir)
		if err != nil && !errors.Is(err, fs.ErrNotExist) && !errors.Is(err, syscall.ENOTDIR) {
			problems = append(problems, core.Problem{Code: core.ProblemUnreadable, Provider: ProviderAmp, Path: dir})
		}
		for _, e := range entries {
			if isThread(e.Name()) && !e.IsDir() {
				files = append(files, core.SourceFile{Provider: ProviderAmp, Path: filepath.Join(dir, e.Name())})
			}
		}
	}
	slices.SortFunc(files, func(a, b core.SourceFile) int { return strings.Compare(a.Path, b.Path) })
	return files, problems
}

func isThread(name string) bool {
	return strings.HasPrefix(name, "T-") && strings.HasSuffix(name, ".json")
}

// Parse reads one thread file. It fails only when the file cannot be read;
// an error for a file that vanished wraps fs.ErrNotExist.
func (*Provider) Parse(f core.SourceFile) (core.ParseResult, error) {
	data, err := regular.ReadFile(f.Path)
	if err != nil {
		return core.ParseResult{}, fmt.Errorf("amp: read thread: %w", err)
	}
	return ParseBytes(data, f), nil
}

// ParseBytes parses a thread file's content; f names it. It is pure, the
// fuzzing entry point. A file that is empty or not valid JSON (caught
// mid-rewrite) yields a problem and no session, so the previous import of
// the thread stays.
func ParseBytes(data []byte, f core.SourceFile) core.ParseResult {
	b := &builder{f: f, calls: map[string]*call{}}
	var t thread
	switch err := json.Unmarshal(data, &t); {
	case len(bytes.TrimSpace(data)) == 0:
		b.problem(core.ProblemEmptyFile, 0)
		return b.result()
	case !json.Valid(data):
		b.problem(core.ProblemInvalidJSON, 0)
		return b.result()
	case jsonx.FirstByte(data) != '{':
		b.problem(core.ProblemInvalidRecord, 0)
		return b.result()
	case err != nil:
		b.problem(core.ProblemInvalidRecord, 0) // a field of an unexpected type: keep what decoded
	}
	b.thread(&t)
	return b.finish(&t)
}
