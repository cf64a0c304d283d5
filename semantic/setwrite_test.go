package semantic

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// A set built through the spill file, in blocks of any size, is the same
// file as one built in memory, and the spill file is gone once it is
// written.
func TestSpilledSetEqualsInMemory(t *testing.T) {
	rows := randomRows(21, 1000, 48)
	write := func(per int) []byte {
		old := spillRows
		spillRows = per
		defer func() { spillRows = old }()
		home := t.TempDir()
		sb := newSetBuilder(home, 48)
		for i := range rows {
			must(t, sb.add(&rows[i].event, &rows[i].session, rows[i].chunk, rows[i].vec))
		}
		if per < len(rows) && len(sb.spilled) == 0 {
			t.Fatalf("spillRows %d: nothing spilled", per)
		}
		info, err := sb.write("test", 1)
		must(t, err)
		entries, err := os.ReadDir(home)
		must(t, err)
		if len(entries) != 1 || entries[0].Name() != info.Name {
			t.Fatalf("spillRows %d: %v left beside the set", per, entries)
		}
		files, err := os.ReadDir(filepath.Join(home, info.Name))
		must(t, err)
		if len(files) != 2 {
			t.Fatalf("spillRows %d: set directory holds %d files, want vectors.bin and set.json", per, len(files))
		}
		data, err := os.ReadFile(filepath.Join(home, info.Name, setFile))
		must(t, err)
		if int64(len(data)) != info.Bytes {
			t.Fatalf("spillRows %d: %d bytes, set.json says %d", per, len(data), info.Bytes)
		}
		s, err := openSet(home, info.Name)
		must(t, err)
		defer s.Close()
		if s.Len() != len(rows) {
			t.Fatalf("spillRows %d: %d rows", per, s.Len())
		}
		return data
	}
	want := write(1 << 20)
	for _, per := range []int{1, 7, 100, 999, 1000} {
		if got := write(per); !bytes.Equal(got, want) {
			t.Errorf("spillRows %d: the set file differs from the one built in memory", per)
		}
	}
}

// A builder given up leaves nothing on disk.
func TestSetBuilderDiscard(t *testing.T) {
	old := spillRows
	spillRows = 10
	defer func() { spillRows = old }()
	home := t.TempDir()
	sb := newSetBuilder(home, 16)
	for _, r := range randomRows(5, 50, 16) {
		must(t, sb.add(&r.event, &r.session, r.chunk, r.vec))
	}
	if sb.spill == nil {
		t.Fatal("nothing spilled")
	}
	sb.discard()
	if entries, _ := os.ReadDir(home); len(entries) != 0 {
		t.Fatalf("left %v", entries)
	}
}
