package cursor

import (
	"io"
	"os"
	"path/filepath"
	"testing"

	"ctx/core"
)

func copyFile(t testing.TB, from, to string, size int64) {
	t.Helper()
	in, err := os.Open(from)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	out, err := os.Create(to)
	if err != nil {
		t.Fatal(err)
	}
	defer out.Close()
	if _, err := io.CopyN(out, in, size); err != nil && err != io.EOF {
		t.Fatal(err)
	}
}

// TestWALMidWrite reads a database whose -wal ends in a torn commit (the
// writer was cut off mid-frame). The writer commits the composer (now
// naming bubble "a") before the bubble row, so the torn state is a header
// without its row: a counted missing_bubble, the committed events kept.
// The complete -wal gives the later bubble.
func TestWALMidWrite(t *testing.T) {
	live := filepath.Join(t.TempDir(), "live", dbName)
	w := createDB(t, live, true, []row{composerRow("c", "", "u"), bubbleRow("c", "u", userBubble)})
	before, err := os.Stat(live + "-wal")
	if err != nil {
		t.Fatal(err)
	}
	insertRows(t, w, []row{composerRow("c", "", "u", "a"), bubbleRow("c", "a", `{"_v":3,"type":2,"text":"answer"}`)})
	after, err := os.Stat(live + "-wal")
	if err != nil || after.Size() <= before.Size() {
		t.Fatalf("second commit not in the wal: %v", err)
	}
	tests := []struct {
		name    string
		walLen  int64
		events  int
		missing int
	}{
		{"torn last commit", after.Size() - 100, 1, 1},
		{"complete", after.Size(), 2, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), dbName)
			copyFile(t, live, path, 1<<30)
			copyFile(t, live+"-wal", path+"-wal", tt.walLen)
			res := parseFile(t, core.SourceFile{Provider: ProviderID, Path: path})
			codes := problemCodes(res)
			if len(res.Problems) != tt.missing || codes[ProblemMissingBubble] != tt.missing ||
				len(res.Sessions) != 1 || len(res.Sessions[0].Events) != tt.events {
				t.Fatalf("problems %v, sessions %+v", res.Problems, res.Sessions)
			}
		})
	}
}
