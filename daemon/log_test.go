package daemon

import (
	"ctx/store"
	"fmt"
	"os"
	"strings"
	"testing"
)

func TestLogRotation(t *testing.T) {
	home := t.TempDir()
	l, err := openLog(home)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	l.max = 100
	for i := 0; i < 20; i++ {
		fmt.Fprintf(l, "line %02d %s\n", i, strings.Repeat("x", 20))
	}
	for _, suffix := range []string{"", ".1", ".2"} {
		fi, err := os.Stat(store.At(home).DaemonLog() + suffix)
		if err != nil || fi.Size() > 100 || fi.Mode().Perm() != 0o600 {
			t.Fatalf("log%s: %v, %v", suffix, fi, err)
		}
	}
	if _, err := os.Stat(store.At(home).DaemonLog() + ".3"); !os.IsNotExist(err) {
		t.Fatalf("more than %d rotated files kept", LogKeep)
	}
	data, _ := os.ReadFile(store.At(home).DaemonLog())
	if !strings.Contains(string(data), "line 19") {
		t.Fatalf("newest line not in the current log: %q", data)
	}
}
