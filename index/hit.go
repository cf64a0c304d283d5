package index

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/blevesearch/bleve/v2/index/scorch"
	"github.com/blevesearch/bleve/v2/search"
	bleveindex "github.com/blevesearch/bleve_index_api"

	"ctx/core"
	"ctx/objects"
)

// The stored hit field of a group: a version, then the values below
// separated by hitSep, the workspace last so that it may contain anything.
const (
	hitVersion = "3"
	hitSep     = "\x1f"
	hitParts   = 9
)

// encodeHit packs what the Hits of a group need besides each event's own
// fields: the session's, the chunk id, the positions of the group's events
// in the chunk (runs such as 0-63) and their lengths in analyzed tokens
// (what BM25 normalises an event's score by; comma-separated).
func encodeHit(d *shardDoc, g *chunkGroup, lens []int) string {
	sub := "0"
	if d.Subagent {
		sub = "1"
	}
	clean := func(s string) string { return strings.ReplaceAll(s, hitSep, " ") }
	return strings.Join([]string{hitVersion, d.Session, d.Root, sub, clean(d.Provider), g.chunk.String(),
		encodeRuns(g.pos), encodeLens(lens), d.Workspace}, hitSep)
}

func encodeLens(lens []int) string {
	b := make([]byte, 0, 4*len(lens))
	for i, n := range lens {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendInt(b, int64(n), 10)
	}
	return string(b)
}

func decodeLens(s string, n int) ([]int, error) {
	out := make([]int, 0, n)
	for len(s) > 0 || len(out) < n {
		v, rest, _ := strings.Cut(s, ",")
		k, err := strconv.Atoi(v)
		if err != nil || k < 0 {
			return nil, errBadHit
		}
		out, s = append(out, k), rest
	}
	if len(out) != n {
		return nil, errBadHit
	}
	return out, nil
}

// groupHit is a group's stored hit decoded: a Hit template (session, root,
// subagent flag, provider, workspace, chunk, shard) and the positions of
// its events in the chunk, with their lengths (lens[i] is pos[i]'s).
type groupHit struct {
	core.Hit
	pos, lens []int
}

var errBadHit = errors.New("malformed stored hit")

// decodeHit decodes a group's stored hit field.
func decodeHit(stored string) (groupHit, error) {
	var g groupHit
	p := strings.SplitN(stored, hitSep, hitParts)
	if len(p) != hitParts || p[0] != hitVersion {
		return g, errBadHit
	}
	var err error
	if g.SessionID, err = core.ParseSessionID(p[1]); err != nil {
		return g, err
	}
	if g.RootSessionID, err = core.ParseSessionID(p[2]); err != nil {
		return g, err
	}
	if g.Chunk, err = objects.ParseID(p[5]); err != nil {
		return g, err
	}
	if g.pos, err = decodeRuns(p[6]); err != nil {
		return g, err
	}
	if g.lens, err = decodeLens(p[7], len(g.pos)); err != nil {
		return g, err
	}
	g.IsSubagent = p[3] == "1"
	g.Provider, g.Workspace = p[4], p[8]
	return g, nil
}

// encodeRuns writes ascending positions as comma-separated runs (0-63,70).
func encodeRuns(pos []int) string {
	var b strings.Builder
	for i := 0; i < len(pos); {
		j := i
		for j+1 < len(pos) && pos[j+1] == pos[j]+1 {
			j++
		}
		if b.Len() > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.Itoa(pos[i]))
		if j > i {
			b.WriteByte('-')
			b.WriteString(strconv.Itoa(pos[j]))
		}
		i = j + 1
	}
	return b.String()
}

func decodeRuns(s string) ([]int, error) {
	var out []int
	for _, run := range strings.Split(s, ",") {
		lo, hi, isRun := strings.Cut(run, "-")
		a, err := strconv.Atoi(lo)
		if err != nil || a < 0 {
			return nil, errBadHit
		}
		b := a
		if isRun {
			if b, err = strconv.Atoi(hi); err != nil || b < a || b-a > 1<<16 {
				return nil, errBadHit
			}
		}
		for k := a; k <= b; k++ {
			out = append(out, k)
		}
	}
	return out, nil
}

// hitLoader reads stored hit fields through one reader per shard, opened on
// first use. Reading by document id directly costs about half of what
// bleve's own field loading does.
type hitLoader struct {
	r       *Reader
	readers map[string]bleveindex.IndexReader
}

func (r *Reader) newHitLoader() *hitLoader {
	return &hitLoader{r: r, readers: make(map[string]bleveindex.IndexReader)}
}

// load decodes the stored hit of a matched group, remembering it by
// shard and document.
func (l *hitLoader) load(dm *search.DocumentMatch) (groupHit, error) {
	rdr, err := l.reader(dm.Index)
	if err != nil {
		return groupHit{}, err
	}
	stored := ""
	err = onMappedPages(dm.Index, "read", func() error {
		doc, err := rdr.Document(dm.ID)
		if err == nil && doc == nil {
			err = errors.New("document vanished")
		}
		if err != nil {
			return shardErr(dm.Index, "read", ErrShardDamaged, fmt.Errorf("doc %s: %w", dm.ID, err))
		}
		doc.VisitFields(func(f bleveindex.Field) {
			if tf, ok := f.(bleveindex.TextField); ok && f.Name() == fieldHit {
				stored = tf.Text()
			}
		})
		return nil
	})
	if err != nil {
		return groupHit{}, err
	}
	g, err := decodeHit(stored)
	if err != nil {
		return groupHit{}, shardErr(dm.Index, "read", ErrShardDamaged, fmt.Errorf("doc %s: %w", dm.ID, err))
	}
	g.Origin = dm.Index
	return g, nil
}

func (l *hitLoader) reader(shard string) (bleveindex.IndexReader, error) {
	if rdr, ok := l.readers[shard]; ok {
		return rdr, nil
	}
	i, ok := l.r.order[shard]
	if !ok {
		return nil, fmt.Errorf("index: hit from unknown shard %q", shard)
	}
	adv, err := l.r.idxs[i].Advanced()
	if err != nil {
		return nil, shardErr(shard, "read", ErrShardDamaged, err)
	}
	rdr, err := adv.Reader()
	if err != nil {
		return nil, shardErr(shard, "read", ErrShardDamaged, err)
	}
	l.readers[shard] = rdr
	return rdr, nil
}

// docFreq returns the number of events holding term in the text field,
// summed over every shard (0 when a shard cannot be read: the search then
// fails on it anyway): a term's frequency in a group is the number of the
// group's events holding it (see eventTerm).
// The Reader remembers the answers (its shards never change): a term a
// search asks for again, or a viewer's next keystroke, costs a map lookup.
func (l *hitLoader) docFreq(term string) uint64 {
	r := l.r
	r.dfMu.Lock()
	n, ok := r.dfs[term]
	r.dfMu.Unlock()
	if ok {
		return n
	}
	complete := true
	for i, shard := range r.shards {
		rdr, err := l.reader(shard)
		if err != nil {
			complete = false
			continue
		}
		var f uint64
		if err := onMappedPages(shard, "read", func() (err error) {
			f, err = r.shardFreq(i, rdr, term)
			return err
		}); err != nil {
			complete = false
		}
		n += f
	}
	if complete {
		r.dfMu.Lock()
		if r.dfs == nil || len(r.dfs) >= maxCachedDFs {
			r.dfs = make(map[string]uint64)
		}
		r.dfs[term] = n
		r.dfMu.Unlock()
	}
	return n
}

// maxCachedDFs bounds the document frequencies a Reader remembers; past it
// it starts over.
const maxCachedDFs = 1 << 14

// sumFreq sums the frequency of a text term over a shard's groups. A
// shard of one segment (what builds write) is read from the segment's
// postings, twice as fast as through bleve's term reader, which makes a
// document match of each posting: a query's words are summed over every
// shard the first time they are asked for.
func sumFreq(rdr bleveindex.IndexReader, term string) (uint64, error) {
	if snap, ok := rdr.(*scorch.IndexSnapshot); ok {
		if segs := snap.Segments(); len(segs) == 1 {
			return segmentFreq(segs[0], term)
		}
	}
	return readerFreq(rdr, term)
}

// segmentFreq is sumFreq over one segment's postings, its deleted
// documents left out as bleve's term reader leaves them out.
func segmentFreq(ss *scorch.SegmentSnapshot, term string) (uint64, error) {
	dict, err := ss.Segment().Dictionary(fieldText)
	if err != nil {
		return 0, err
	}
	pl, err := dict.PostingsList([]byte(term), ss.Deleted(), nil)
	if err != nil {
		return 0, err
	}
	it := pl.Iterator(true, false, false, nil)
	var n uint64
	for {
		p, err := it.Next()
		if err != nil || p == nil {
			return n, err
		}
		n += p.Frequency()
	}
}

// readerFreq is sumFreq through bleve's term reader.
func readerFreq(rdr bleveindex.IndexReader, term string) (uint64, error) {
	tfr, err := rdr.TermFieldReader(context.Background(), []byte(term), fieldText, true, false, false)
	if err != nil {
		return 0, err
	}
	defer tfr.Close()
	var n uint64
	tfd := &bleveindex.TermFieldDoc{}
	for {
		tm, err := tfr.Next(tfd.Reset())
		if err != nil {
			return n, err
		}
		if tm == nil {
			return n, nil
		}
		n += tm.Freq
	}
}

func (l *hitLoader) close() {
	for _, rdr := range l.readers {
		_ = rdr.Close()
	}
}
