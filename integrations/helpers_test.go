package integrations

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"testing"

	sharedfx "ctx/internal/fixtures"
)

const testCommand = "/opt/ctx/bin/ctx"

var testServer = DefaultServer(testCommand)

// testEnv is a scratch home with an empty environment on Linux.
func testEnv(t *testing.T) Env {
	t.Helper()
	return Env{Home: t.TempDir(), Getenv: func(string) string { return "" }, OS: "linux"}
}

func run(t *testing.T, op Op, opts Options) Report {
	t.Helper()
	reports, err := Run(op, opts)
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	if len(reports) != 1 {
		t.Fatalf("got %d reports, want 1", len(reports))
	}
	return reports[0]
}

func opts(env Env, client string, force bool) Options {
	return Options{Env: env, Server: testServer, Clients: []string{client}, Force: force}
}

func readFile(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func writeFile(t *testing.T, path string, data []byte, mode os.FileMode) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, mode); err != nil {
		t.Fatal(err)
	}
}

// onlyInserted reports whether edited is orig with one run of bytes
// inserted, optionally preceded by a separating comma inserted before a
// comment: every byte of orig is still there, in order, around them.
func onlyInserted(orig, edited []byte) bool {
	if len(edited) < len(orig) {
		return false
	}
	p := commonPrefix(orig, edited)
	if bytes.Equal(orig[p:], edited[len(edited)-(len(orig)-p):]) {
		return true
	}
	return edited[p] == ',' && onlyInserted(orig[p:], edited[p+1:]) && !bytes.Contains(edited[p+1:], []byte(",,"))
}

// oneRegionChanged reports whether a and b differ in one contiguous region,
// and returns the unchanged prefix and suffix lengths.
func oneRegionChanged(a, b []byte) (prefix, suffix int) {
	prefix = commonPrefix(a, b)
	for suffix < len(a)-prefix && suffix < len(b)-prefix && a[len(a)-1-suffix] == b[len(b)-1-suffix] {
		suffix++
	}
	return prefix, suffix
}

func commonPrefix(a, b []byte) int {
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	return n
}

func sharedFixture(t *testing.T, rel string) []byte {
	t.Helper()
	return readFile(t, filepath.Join(sharedfx.Dir(t), rel))
}

func wantErr[T error](t *testing.T, err error) {
	t.Helper()
	var target T
	if !errors.As(err, &target) {
		t.Fatalf("error %v (%T), want %T", err, err, target)
	}
}
