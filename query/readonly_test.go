package query

import (
	"os"
	"path/filepath"
	"testing"
)

func TestOpenCreatesNothing(t *testing.T) {
	home := filepath.Join(t.TempDir(), "store")
	if _, err := Open(home); CodeOf(err) != CodeNoHistory {
		t.Fatalf("Open on a missing store: %v", err)
	}
	if _, err := os.Stat(home); !os.IsNotExist(err) {
		t.Fatalf("Open created %s", home)
	}
	st, err := ReadStatus(home)
	if err != nil || st.Generation != nil {
		t.Fatalf("ReadStatus: %+v %v", st, err)
	}
	if _, err := os.Stat(home); !os.IsNotExist(err) {
		t.Fatalf("ReadStatus created %s", home)
	}
}
