package maint_test

import (
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"ctx/maint"
)

// notState are the files under $CTX_HOME that hold no history and that
// verify does not judge: lock files (empty; only their flock matters) and
// the daemon's and hooks' diagnostic logs.
func notState(rel string) bool {
	base := filepath.Base(rel)
	return base == "lock" || strings.HasSuffix(base, ".lock") || strings.HasPrefix(rel, "logs/") && rel != "logs/refs/active"
}

// flipPositions are the offsets a file of n bytes is damaged at: its first
// and last byte and up to eight between them.
func flipPositions(n int) []int {
	pos := []int{0, n - 1}
	for i := 1; i <= 8; i++ {
		pos = append(pos, n*i/9)
	}
	slices.Sort(pos)
	return slices.Compact(pos)
}

// TestVerifySeesEveryFlipAndCut flips one bit at up to ten offsets of every
// file of a small store (two generations) and cuts every file by half and
// by its last byte; verify must find each one. Objects are content
// addressed (any flip is a hash mismatch), so a sample of them stands for
// all.
func TestVerifySeesEveryFlipAndCut(t *testing.T) {
	if testing.Short() {
		t.Skip("imports twice and runs verify a few hundred times")
	}
	store := damagedStore(t)
	var files []string
	objects := 0
	err := filepath.WalkDir(store, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(store, p)
		rel = filepath.ToSlash(rel)
		if notState(rel) {
			return nil
		}
		if strings.HasPrefix(rel, "objects/") {
			if objects++; objects%5 != 1 {
				return nil
			}
		}
		files = append(files, rel)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	tried, missed := 0, []string{}
	for _, rel := range files {
		p := filepath.Join(store, rel)
		orig, err := os.ReadFile(p)
		if err != nil || len(orig) == 0 {
			continue
		}
		damages := map[string][]byte{"cut to half": orig[:len(orig)/2], "last byte cut": orig[:len(orig)-1]}
		for _, at := range flipPositions(len(orig)) {
			b := slices.Clone(orig)
			b[at] ^= 0x01
			damages["flip at "+strconv.Itoa(at)] = b
		}
		for what, b := range damages {
			if err := os.WriteFile(p, b, 0o600); err != nil {
				t.Fatal(err)
			}
			v, err := maint.Verify(store)
			tried++
			if err == nil && v.OK {
				missed = append(missed, rel+": "+what)
			}
		}
		if err := os.WriteFile(p, orig, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if v, err := maint.Verify(store); err != nil || !v.OK {
		t.Fatalf("verify after restoring every file: %+v %v", v, err)
	}
	t.Logf("%d damages in %d files (%s), %d missed", tried, len(files), strings.Join(files, " "), len(missed))
	if len(missed) > 0 {
		t.Fatalf("verify said ok after %d of %d damages:\n%s", len(missed), tried, strings.Join(missed, "\n"))
	}
}
