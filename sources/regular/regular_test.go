package regular

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"ctx/core"
)

func TestOpenRefusesAllButRegularFiles(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "a.jsonl")
	if err := os.WriteFile(file, []byte("{}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link.jsonl")
	if err := os.Symlink(file, link); err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(dir, "rollout-x.jsonl")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	fifoLink := filepath.Join(dir, "fifo-link.jsonl")
	if err := os.Symlink(fifo, fifoLink); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{file, link} {
		data, err := ReadFile(p)
		if err != nil || string(data) != "{}\n" {
			t.Fatalf("%s: %q %v", p, data, err)
		}
	}
	// Without the non-blocking open these would wait for a writer forever.
	for _, p := range []string{fifo, fifoLink, dir} {
		_, err := ReadFile(p)
		var re *core.ReadError
		if !errors.Is(err, ErrNotRegular) || !errors.As(err, &re) || re.Code != core.ProblemNotRegular {
			t.Fatalf("%s: %v, want not_regular", p, err)
		}
	}
	if err := Check(filepath.Join(dir, "missing")); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("missing: %v", err)
	}
}
