package main

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/rogpeppe/go-internal/testscript"
)

// cutshard FILE cuts FILE (a path inside a shard, e.g. store/root.bolt) to
// half its size in the first shard of the store and sets SHARD to that
// shard's name.
func cmdCutShard(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 1 {
		ts.Fatalf("usage: cutshard FILE")
	}
	root := filepath.Join(ts.Getenv("CTX_HOME"), "index")
	entries, err := os.ReadDir(root)
	ts.Check(err)
	for _, e := range entries {
		if !e.IsDir() || strings.HasPrefix(e.Name(), ".") {
			continue
		}
		p := filepath.Join(root, e.Name(), args[0])
		fi, err := os.Stat(p)
		ts.Check(err)
		ts.Check(os.Truncate(p, fi.Size()/2))
		ts.Setenv("SHARD", e.Name())
		return
	}
	ts.Fatalf("no shard in %s", root)
}

// rmobjects deletes every object file of the store.
func cmdRemoveObjects(ts *testscript.TestScript, neg bool, args []string) {
	for _, p := range objectFiles(ts) {
		ts.Check(os.Remove(p))
	}
}

// exits N PROG ARGS... runs PROG like exec and asserts its exit code is N.
func cmdExits(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) < 2 {
		ts.Fatalf("usage: exits N prog [args...]")
	}
	want, err := strconv.Atoi(args[0])
	ts.Check(err)
	got := 0
	if err := ts.Exec(args[1], args[2:]...); err != nil {
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			ts.Fatalf("%s: %v", args[1], err)
		}
		got = ee.ExitCode()
	}
	if got != want {
		ts.Fatalf("%s exited %d, want %d", strings.Join(args[1:], " "), got, want)
	}
}
