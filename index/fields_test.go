package index

import (
	"bytes"
	"context"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/document"
	index "github.com/blevesearch/bleve_index_api"

	"ctx/core"
)

// finishedGroups are groups to index: a generated history parsed by the
// real parsers, the hostile texts, a text long enough to be indexed in
// pieces, and a group with neither time, role, files nor source.
func finishedGroups(t *testing.T) []*chunkGroup {
	t.Helper()
	docs := parsedCorpus(t, 3000)
	events := chunkEvents(t)
	s := newSession("finished", fromSource("", ""))
	for i := range events {
		e := &events[i]
		docs = append(docs, Doc{Event: e, Session: s, Chunk: newDoc(s, "hostile", core.TypeMessage, "").Chunk, Pos: i})
	}
	long := newDoc(s, "long", core.TypeMessage, "openingword "+filler(3*maxIndexPiece)+" closingword")
	bare := newDoc(s, "bare", core.TypeOther, "no time no role", at(time.Time{}))
	bare.Event.Role = ""
	return append(groupsOf(docs), groupsOf([]Doc{long})[0], groupsOf([]Doc{bare})[0])
}

// fieldSum is what bleve's segment builder takes of a document's fields of
// one name: their options, summed lengths, merged term frequencies and
// stored values.
type fieldSum struct {
	opts   index.FieldIndexingOptions
	length int
	freqs  map[string]uint64
	stored [][]byte
}

func sumFields(t *testing.T, m interface {
	MapDocument(*document.Document, interface{}) error
}, id string, d *shardDoc) map[string]*fieldSum {
	t.Helper()
	doc := document.NewDocument(id)
	if err := m.MapDocument(doc, d); err != nil {
		t.Fatal(err)
	}
	doc.AddIDField()
	out := map[string]*fieldSum{}
	doc.VisitFields(func(f index.Field) {
		s := out[f.Name()]
		if s == nil {
			s = &fieldSum{freqs: map[string]uint64{}}
			out[f.Name()] = s
		}
		s.opts |= f.Options()
		if f.Options().IsStored() {
			s.stored = append(s.stored, f.Value())
		}
		if !f.Options().IsIndexed() {
			return
		}
		f.Analyze()
		s.length += f.AnalyzedLength()
		for term, tf := range f.AnalyzedTokenFrequencies() {
			if !bytes.Equal(tf.Term, []byte(term)) {
				t.Fatalf("%s: term %q keyed %q", f.Name(), tf.Term, term)
			}
			s.freqs[term] += uint64(tf.Frequency())
		}
	})
	return out
}

// TestFinishedDocumentsAsMapped checks that a finished document gives
// bleve what the mapping's walk of the same shardDoc gives, field by field,
// and that a shard built from finished documents is byte for byte the
// shard built through the mapping.
func TestFinishedDocumentsAsMapped(t *testing.T) {
	groups := finishedGroups(t)
	plain, finished := newMapping(), shardMapping{newMapping()}
	var docs []*shardDoc
	shared := &termScratch{}
	for _, g := range groups {
		var fresh []*shardDoc
		err := newShardDocs(g, &termScratch{}, func(piece int, d *shardDoc) error {
			fresh = append(fresh, d)
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		n := len(docs)
		err = newShardDocs(g, shared, func(piece int, d *shardDoc) error {
			docs = append(docs, d)
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(docs[n:], fresh) {
			t.Fatalf("group of %s: built with the scratch of the groups before, not as alone", g.events[0].ID)
		}
	}
	for i, d := range docs {
		want, got := sumFields(t, plain, "x", d), sumFields(t, finished, "x", d)
		if !maps.EqualFunc(want, got, func(a, b *fieldSum) bool {
			return a.opts == b.opts && a.length == b.length && maps.Equal(a.freqs, b.freqs) &&
				slices.EqualFunc(a.stored, b.stored, bytes.Equal)
		}) {
			for name := range want {
				if got[name] == nil || want[name].length != got[name].length || want[name].opts != got[name].opts {
					t.Errorf("doc %d field %s: got %+v, want %+v", i, name, got[name], want[name])
				}
			}
			t.Fatalf("doc %d: fields differ (%d, want %d)", i, len(got), len(want))
		}
	}

	// One document a batch keeps the builder's order of documents, which a
	// batch of several leaves to a map's.
	build := func(m interface{ Validate() error }, name string) string {
		dir := filepath.Join(t.TempDir(), name)
		var b bleve.Builder
		var err error
		switch m := m.(type) {
		case shardMapping:
			b, err = bleve.NewBuilder(dir, m, map[string]interface{}{"batchSize": 1, "buildPathPrefix": dir})
		default:
			b, err = bleve.NewBuilder(dir, plain, map[string]interface{}{"batchSize": 1, "buildPathPrefix": dir})
		}
		if err != nil {
			t.Fatal(err)
		}
		for i, d := range docs[:min(len(docs), 400)] {
			if err := b.Index(string(rune('a'+i%26))+d.Events[0]+string(rune('0'+i/26%10)), d); err != nil {
				t.Fatal(err)
			}
		}
		if err := b.Close(); err != nil {
			t.Fatal(err)
		}
		return dir
	}
	a, b := build(plain, "mapped"), build(finished, "finished")
	if got, want := dumpShard(t, b), dumpShard(t, a); got != want {
		t.Fatalf("the shards' contents differ:\n%s", firstDiff(got, want))
	}
	segs, _ := filepath.Glob(filepath.Join(a, "store", "*.zap"))
	if len(segs) == 0 {
		t.Fatal("no segment written")
	}
	for _, p := range segs {
		want, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		got, err := os.Stat(filepath.Join(b, "store", filepath.Base(p)))
		if err != nil || got.Size() != want.Size() {
			t.Fatalf("%s: %v (%v), want %d bytes", filepath.Base(p), got, err, want.Size())
		}
	}
}

// dumpShard writes out what a shard holds: every field's terms with their
// postings (document, frequency, norm), and every document's stored fields
// and ts doc value. The segment's bytes are not compared: bleve writes the
// sections of a field in a map's order, so two builds of the same
// documents differ in a few offsets.
func dumpShard(t *testing.T, dir string) string {
	t.Helper()
	idx, err := bleve.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer idx.Close()
	ai, err := idx.Advanced()
	if err != nil {
		t.Fatal(err)
	}
	r, err := ai.Reader()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	var out strings.Builder
	fields, err := r.Fields()
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(fields)
	for _, f := range fields {
		fd, err := r.FieldDict(f)
		if err != nil {
			t.Fatal(err)
		}
		for de, err := fd.Next(); de != nil || err != nil; de, err = fd.Next() {
			if err != nil {
				t.Fatal(err)
			}
			fmt.Fprintf(&out, "%s %q %d:", f, de.Term, de.Count)
			tfr, err := r.TermFieldReader(context.Background(), []byte(de.Term), f, true, true, false)
			if err != nil {
				t.Fatal(err)
			}
			for tfd, err := tfr.Next(nil); tfd != nil || err != nil; tfd, err = tfr.Next(nil) {
				if err != nil {
					t.Fatal(err)
				}
				fmt.Fprintf(&out, " %x/%d/%v", tfd.ID, tfd.Freq, tfd.Norm)
			}
			tfr.Close()
			out.WriteByte('\n')
		}
		fd.Close()
	}
	all, err := r.DocIDReaderAll()
	if err != nil {
		t.Fatal(err)
	}
	defer all.Close()
	dv, err := r.DocValueReader([]string{fieldTS})
	if err != nil {
		t.Fatal(err)
	}
	for id, err := all.Next(); id != nil || err != nil; id, err = all.Next() {
		if err != nil {
			t.Fatal(err)
		}
		ext, err := r.ExternalID(id)
		if err != nil {
			t.Fatal(err)
		}
		doc, err := r.Document(ext)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&out, "doc %x %s:", id, ext)
		doc.VisitFields(func(f index.Field) { fmt.Fprintf(&out, " %s=%q", f.Name(), f.Value()) })
		err = dv.VisitDocValues(id, func(field string, term []byte) { fmt.Fprintf(&out, " dv %s=%q", field, term) })
		if err != nil {
			t.Fatal(err)
		}
		out.WriteByte('\n')
	}
	return out.String()
}

// firstDiff is the first line where got and want differ.
func firstDiff(got, want string) string {
	g, w := strings.Split(got, "\n"), strings.Split(want, "\n")
	for i := range min(len(g), len(w)) {
		if g[i] != w[i] {
			return fmt.Sprintf("line %d:\n got %.300s\nwant %.300s", i, g[i], w[i])
		}
	}
	return fmt.Sprintf("%d lines, want %d", len(g), len(w))
}
