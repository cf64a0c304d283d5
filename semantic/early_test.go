package semantic

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"ctx/core"
	"ctx/objects"
)

// storedRows describes every live row of a generation's vectors by its
// event id: codes, scale and every field of the row, its session's too.
func storedRows(t *testing.T, dir string, gen objects.ID) map[core.EventID]string {
	t.Helper()
	ix := openIndex(t, dir, gen)
	out := map[core.EventID]string{}
	for si, s := range ix.sets {
		codes := make([]int8, s.h.dim)
		for row := range s.Len() {
			if ix.dead[si] != nil && ix.dead[si][row] {
				continue
			}
			m, err := s.rowMeta(row)
			must(t, err)
			s.rowCodes(row, codes)
			out[m.id] = fmt.Sprint(codes, s.scale(row), m.time, m.typ, m.role, m.chunk, *m.session, m.files)
		}
	}
	return out
}

// TestEarlyRowsAreTheStoredOnes: the rows an import embeds as it writes its
// chunks are, field for field, the rows the vector pass makes by reading
// those chunks back, and the pass reads back exactly the chunks it was not
// given: one with text the store's JSON changes, and those past the
// Early's budget.
func TestEarlyRowsAreTheStoredOnes(t *testing.T) {
	sessions := func() []*core.ParsedSession {
		a, b, c := chatSession("a", 300, topics), chatSession("b", 70, topics[1:]), chatSession("c", 40, topics[2:])
		for i := range a.Events {
			if i%5 == 1 {
				a.Events[i].Files = []core.FileTouch{{Path: fmt.Sprintf("/work/a/pkg%d/file.go", i%3)}}
			}
			if i%9 == 0 {
				a.Events[i].Text = "" // no row
			}
		}
		b.Events[65].Text = "not valid UTF-8 \xff here" // stored as U+FFFD: the pass reads its chunk
		c.Events[4].SessionID = core.NewSessionID("claude-code", "c-sub")
		return []*core.ParsedSession{a, b, c}
	}
	chunks := (300+63)/64 + (70+63)/64 + (40+63)/64
	h := NewHash(0)
	for _, tc := range []struct {
		name   string
		budget int64
		early  func(int) bool // whether the rep's Early count is right
	}{
		{"all", 0, func(n int) bool { return n == chunks-1 }},
		{"budget", 3 * 32 * (DefaultDim + 60), func(n int) bool { return n > 0 && n < chunks-1 }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			plain := newTestStore(t)
			genPlain := plain.publish(t, sessions()...)
			want := buildGen(t, plain, genPlain, h, 0)

			ts := newTestStore(t)
			must(t, os.MkdirAll(ts.vectors, 0o700))
			ts.early = NewEarly(h, ts.vectors, tc.budget)
			gen := ts.publish(t, sessions()...)
			rep, err := Build(context.Background(), BuildOptions{Dir: ts.vectors, Objects: ts.store, Generation: gen,
				Embedder: h, Early: ts.early})
			must(t, err)
			ts.early.Close()
			if !tc.early(rep.Early) || rep.Early+rep.Chunks != chunks || want.Chunks != chunks ||
				rep.Embedded != want.Embedded || rep.Vectors != want.Vectors {
				t.Fatalf("with early rows %+v, without %+v (%d chunks)", rep, want, chunks)
			}
			got, exp := storedRows(t, ts.vectors, gen), storedRows(t, plain.vectors, genPlain)
			if len(got) != len(exp) || len(exp) == 0 {
				t.Fatalf("%d rows, want %d", len(got), len(exp))
			}
			for id, row := range exp {
				if got[id] != row {
					t.Fatalf("row of %s:\n got %s\nwant %s", id, got[id], row)
				}
			}
			entries, err := os.ReadDir(ts.vectors)
			must(t, err)
			for _, e := range entries {
				if strings.HasPrefix(e.Name(), ".early-") {
					t.Fatalf("%s left in the vectors directory", filepath.Join(ts.vectors, e.Name()))
				}
			}
		})
	}
}

// TestEarlyOnlyForTheBuiltInEmbedder: an embedder that calls a server is
// not run while an import writes.
func TestEarlyOnlyForTheBuiltInEmbedder(t *testing.T) {
	if e := NewEarly(NewOpenAI("http://127.0.0.1:1/v1", "m", ""), t.TempDir(), 0); e != nil {
		t.Fatal("an Early for a server's embedder")
	}
	var e *Early // nil: holds nothing
	e.Add(objects.Hash([]byte("x")), nil)
	if _, ok := e.take(objects.Hash([]byte("x"))); ok {
		t.Fatal("a nil Early holds a chunk")
	}
	e.Close()
}

// TestEarlyOfAnotherEmbedderIsNotUsed: rows made early with another
// embedder than the build's are left, and every chunk is read.
func TestEarlyOfAnotherEmbedderIsNotUsed(t *testing.T) {
	ts := newTestStore(t)
	must(t, os.MkdirAll(ts.vectors, 0o700))
	ts.early = NewEarly(NewHash(128), ts.vectors, 0)
	defer ts.early.Close()
	gen := ts.publish(t, chatSession("a", 100, topics))
	rep, err := Build(context.Background(), BuildOptions{Dir: ts.vectors, Objects: ts.store, Generation: gen,
		Embedder: NewHash(0), Early: ts.early})
	must(t, err)
	if rep.Early != 0 || rep.Chunks != 2 || rep.Dim != DefaultDim {
		t.Fatalf("%+v", rep)
	}
}
