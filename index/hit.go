package index

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/blevesearch/bleve/v2/search"
	bleveindex "github.com/blevesearch/bleve_index_api"

	"ctx/core"
	"ctx/objects"
)

// The stored hit field: a version, then the values below separated by
// hitSep, the workspace last so that it may contain anything.
const (
	hitVersion = "1"
	hitSep     = "\x1f"
	hitParts   = 10
)

// encodeHit packs what a Hit needs into the stored hit field.
func encodeHit(d *shardDoc, ts time.Time, chunk objects.ID) string {
	sub, stamp := "0", ""
	if d.Subagent {
		sub = "1"
	}
	if !ts.IsZero() {
		stamp = ts.UTC().Format(time.RFC3339Nano)
	}
	clean := func(s string) string { return strings.ReplaceAll(s, hitSep, " ") }
	return strings.Join([]string{hitVersion, d.Session, d.Root, sub, clean(d.Type), clean(d.Role),
		clean(d.Provider), stamp, chunk.String(), d.Workspace}, hitSep)
}

var errBadHit = errors.New("malformed stored hit")

// decodeHit fills h (whose EventID, Score and Shard are set) from the
// stored hit field.
func decodeHit(h *core.Hit, stored string) error {
	p := strings.SplitN(stored, hitSep, hitParts)
	if len(p) != hitParts || p[0] != hitVersion {
		return errBadHit
	}
	var err error
	if h.SessionID, err = core.ParseSessionID(p[1]); err != nil {
		return err
	}
	if h.RootSessionID, err = core.ParseSessionID(p[2]); err != nil {
		return err
	}
	if p[7] != "" {
		if h.Timestamp, err = time.Parse(time.RFC3339Nano, p[7]); err != nil {
			return err
		}
	}
	if h.Chunk, err = objects.ParseID(p[8]); err != nil {
		return err
	}
	h.IsSubagent = p[3] == "1"
	h.EventType, h.Role, h.Provider, h.Workspace = core.EventType(p[4]), core.Role(p[5]), p[6], p[9]
	return nil
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

// load fills a Hit for a match whose event id is known.
func (l *hitLoader) load(dm *search.DocumentMatch, id core.EventID) (core.Hit, error) {
	h := core.Hit{EventID: id, Score: dm.Score, Origin: dm.Index}
	rdr, err := l.reader(dm.Index)
	if err != nil {
		return core.Hit{}, err
	}
	doc, err := rdr.Document(dm.ID)
	if err == nil && doc == nil {
		err = errors.New("document vanished")
	}
	if err != nil {
		return core.Hit{}, shardErr(dm.Index, "read", ErrShardDamaged, fmt.Errorf("doc %s: %w", dm.ID, err))
	}
	stored := ""
	doc.VisitFields(func(f bleveindex.Field) {
		if tf, ok := f.(bleveindex.TextField); ok && f.Name() == fieldHit {
			stored = tf.Text()
		}
	})
	if err := decodeHit(&h, stored); err != nil {
		return core.Hit{}, shardErr(dm.Index, "read", ErrShardDamaged, fmt.Errorf("doc %s: %w", dm.ID, err))
	}
	return h, nil
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

// docFreq returns the number of documents holding term in the text field,
// summed over every shard (0 when a shard cannot be read: the search then
// fails on it anyway).
func (l *hitLoader) docFreq(term string) uint64 {
	var n uint64
	for _, shard := range l.r.shards {
		rdr, err := l.reader(shard)
		if err != nil {
			continue
		}
		tfr, err := rdr.TermFieldReader(context.Background(), []byte(term), fieldText, false, false, false)
		if err != nil {
			continue
		}
		n += tfr.Count()
		_ = tfr.Close()
	}
	return n
}

func (l *hitLoader) close() {
	for _, rdr := range l.readers {
		_ = rdr.Close()
	}
}

// eventID parses a match's doc id.
func eventID(dm *search.DocumentMatch) (core.EventID, error) {
	id, err := core.ParseEventID(dm.ID)
	if err != nil {
		return id, shardErr(dm.Index, "read", ErrShardDamaged, fmt.Errorf("doc id %q: %w", dm.ID, err))
	}
	return id, nil
}
