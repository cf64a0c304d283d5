package query

import (
	"os"
	"path/filepath"
	"testing"

	"ctx/store"
)

// Pages, cursors and freshness only read: a reader recreates neither the
// reflog directory nor the cursor key.
func TestReaderCreatesNothing(t *testing.T) {
	home := t.TempDir()
	publishSynth(t, home, synthSession("ro", 10))
	for _, p := range []string{filepath.Join(home, "logs"), store.At(home).CursorKey()} {
		if err := os.RemoveAll(p); err != nil {
			t.Fatal(err)
		}
	}
	cursorKeys.Delete(home)
	r := openReader(t, home)
	id := firstSession(t, r)
	p, err := r.ShowSessionPage(ShowSessionPageRequest{ID: id, Mode: ModeLog, Limit: 3})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.ShowSessionPage(ShowSessionPageRequest{ID: id, Mode: ModeLog, Limit: 3,
		Cursor: p.Pagination.NextCursor}); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{filepath.Join(home, "logs"), store.At(home).CursorKey()} {
		if _, err := os.Stat(p); !os.IsNotExist(err) {
			t.Errorf("a reader created %s (%v)", p, err)
		}
	}
}
