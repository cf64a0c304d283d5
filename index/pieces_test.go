package index

import (
	"strings"
	"testing"

	"ctx/core"
)

// filler returns n bytes of words that hold none of the test's words.
func filler(n int) string {
	var b strings.Builder
	for i := 0; b.Len() < n; i++ {
		b.WriteString("lorem ipsum dolor ")
	}
	return b.String()[:n]
}

// A text longer than maxIndexPiece is indexed in pieces: a word of any
// piece, the last one's too, finds the event once, a word cut by no piece
// boundary stays whole, and the pieces add no event to BM25's document
// count.
func TestLongTextIndexedInPieces(t *testing.T) {
	s := newSession("pieces")
	text := "openingword " + filler(maxIndexPiece) + " middleword " + filler(2*maxIndexPiece) + " closingword"
	long := newDoc(s, "long", core.TypeMessage, text)
	short := newDoc(s, "short", core.TypeMessage, "a short neighbour with openingword too")
	long.Pos, short.Pos = 0, 1
	short.Chunk = long.Chunk
	r := openIndex(t, []Doc{long, short})
	for _, w := range []string{"middleword", "closingword"} {
		sameSet(t, find(t, r, Query{Text: w}), long)
	}
	sameSet(t, find(t, r, Query{Text: "openingword"}), long, short)
	if got := r.stats.docs; got != 2 {
		t.Fatalf("BM25 document count %v, want 2 (pieces are no events)", got)
	}
	if n, err := r.Count(); err != nil || n < 4 {
		t.Fatalf("documents %d (%v), want the group and at least three pieces", n, err)
	}
}

// pieceEnd never cuts a word when white space is near the bound, and
// always cuts on a rune boundary.
func TestPieceEnd(t *testing.T) {
	s := strings.Repeat("x", 100) + " " + strings.Repeat("y", 50)
	if got := pieceEnd(s, 120); got != 101 {
		t.Fatalf("cut at %d, want 101 (after the space)", got)
	}
	u := strings.Repeat("é", 100) // 2 bytes each, no space
	got := pieceEnd(u, 51)
	if got != 50 || !strings.HasPrefix(u, u[:got]) || !utf8Valid(u[:got]) {
		t.Fatalf("cut at %d, want 50 (a rune boundary)", got)
	}
	if pieceEnd("short", 10) != 5 {
		t.Fatal("a short text is one piece")
	}
}

func utf8Valid(s string) bool { return strings.ToValidUTF8(s, "\uFFFD") == s }
