package main

import (
	"bytes"
	"encoding/json"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"
)

func runJSON(t *testing.T, args ...string) statsJSON {
	t.Helper()
	var out, errb bytes.Buffer
	if code := run(args, &out, &errb); code != 0 {
		t.Fatalf("run %v = %d: %s", args, code, errb.String())
	}
	var st statsJSON
	if err := json.Unmarshal(out.Bytes(), &st); err != nil || strings.Count(out.String(), "\n") != 1 {
		t.Fatalf("output %q is not one JSON line: %v", out.String(), err)
	}
	return st
}

func TestGenerateAndAppend(t *testing.T) {
	home := t.TempDir()
	st := runJSON(t, "-home", home, "-events", "400", "-seed", "3", "-providers", "codex")
	if st.Events < 380 || st.Events > 420 || st.Sessions == 0 || st.Bytes == 0 {
		t.Fatalf("stats %+v", st)
	}
	var file string
	filepath.WalkDir(home, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && file == "" {
			file = p
		}
		return err
	})
	ap := runJSON(t, "-append", file, "-events", "60", "-seed", "4")
	if ap.Events < 50 || ap.Bytes <= 0 {
		t.Fatalf("append stats %+v", ap)
	}
}

func TestUsage(t *testing.T) {
	for _, args := range [][]string{{}, {"-home", "x", "-append", "y"}, {"-home", t.TempDir(), "-providers", "nope"}, {"-bogus"}} {
		var out, errb bytes.Buffer
		if code := run(args, &out, &errb); code != 2 || errb.Len() == 0 {
			t.Errorf("run %v = %d, stderr %q; want 2 and a message", args, code, errb.String())
		}
	}
}
