package semantic

import (
	"os"
	"sync"
	"unicode/utf8"

	"ctx/core"
	"ctx/objects"
)

// DefaultEarlyBytes bounds the memory an Early holds: the rows' fields
// but their codes, about 100 bytes a row, so some 300,000 rows, the
// transcript of an import of two million events. Chunks past it are read
// back by the vector pass, as without an Early.
const DefaultEarlyBytes = 32 << 20

// earlyRowBytes is what a row costs an Early in memory.
const earlyRowBytes = 100

// Early embeds the chunks an import writes while their events are in
// memory, so that the vector pass after the import publishes (Build with
// BuildOptions.Early) takes their rows instead of reading the chunks back
// from the store and decoding them again: at 200,000 events that read was
// three fifths of the pass, and the pass ran alone at the end of the
// import. The rows are the ones Build would make from the stored chunk:
// the same events (those written, redacted), the same texts and the same
// quantization. A chunk whose text would not come back byte for byte from
// the store's JSON (not valid UTF-8) is left to the pass.
//
// The rows' codes, 384 bytes of the about 480 of a row, wait in a file
// beside the sets, removed as soon as it is open, so that they weigh on
// neither the heap nor a crash.
//
// Only an embedder that computes locally is used early (the built-in one):
// one that calls a server would make every import wait on the network.
// Add may be called from several goroutines.
type Early struct {
	emb      *Hash
	dir      string
	maxBytes int
	pool     sync.Pool // *earlyScratch

	mu     sync.Mutex
	codes  *os.File // nil until the first row, and after a failure or Close
	end    int64
	bytes  int
	full   bool
	chunks map[objects.ID]*earlyChunk
}

// earlyChunk is the rows of one chunk, in the order of its events.
type earlyChunk struct {
	at     int64 // where its codes are: len(rows) × dim bytes
	scales []float32
	rows   []rowMeta // chunk and session left unset
	own    []core.SessionID
}

type earlyScratch struct {
	f     *featurizer
	v     []float32
	row   []int8
	codes []byte // the chunk's rows' codes, as written
}

// NewEarly returns an Early for emb that keeps its codes in dir (the
// vectors directory) and holds at most maxBytes of rows in memory
// (DefaultEarlyBytes when maxBytes <= 0), or nil when emb is not one to
// use early. A nil *Early adds and holds nothing. Close releases it.
func NewEarly(emb Embedder, dir string, maxBytes int) *Early {
	h, local := emb.(*Hash)
	if !local || h.Dim() <= 0 {
		return nil
	}
	if maxBytes <= 0 {
		maxBytes = DefaultEarlyBytes
	}
	return &Early{emb: h, dir: dir, maxBytes: maxBytes, chunks: map[objects.ID]*earlyChunk{}}
}

// Embedder returns the embedder the rows are made with.
func (e *Early) Embedder() Embedder { return e.emb }

// Add embeds the projection of a chunk's events, as stored under id.
func (e *Early) Add(id objects.ID, events []core.Event) {
	if e == nil {
		return
	}
	e.mu.Lock()
	_, had := e.chunks[id]
	full := e.full
	e.mu.Unlock()
	if had || full {
		return
	}
	dim := e.emb.Dim()
	sc, _ := e.pool.Get().(*earlyScratch)
	if sc == nil {
		sc = &earlyScratch{f: newFeaturizer(dim), v: make([]float32, dim)}
	}
	defer e.pool.Put(sc)
	c := &earlyChunk{}
	sc.codes = sc.codes[:0]
	if len(sc.row) != dim {
		sc.row = make([]int8, dim)
	}
	for i := range events {
		ev := &events[i]
		if !projected(ev.Type) || !InProjection(ev) {
			continue
		}
		m := eventRow(ev)
		if !utf8.ValidString(ev.Text) || !validStrings(m.files) {
			return // the store's JSON would change it: the pass reads it back
		}
		sc.f.embed(ev.Text, sc.v)
		scale := quantize(sc.v, sc.row)
		if scale == 0 { // a zero vector has no row
			continue
		}
		for _, x := range sc.row {
			sc.codes = append(sc.codes, byte(x))
		}
		c.scales, c.rows, c.own = append(c.scales, scale), append(c.rows, m), append(c.own, ev.SessionID)
	}
	size := len(c.rows) * earlyRowBytes
	e.mu.Lock()
	defer e.mu.Unlock()
	if _, had := e.chunks[id]; had || e.full {
		return
	}
	if e.bytes+size > e.maxBytes || !e.write(c, sc.codes) {
		e.full = true
		return
	}
	e.chunks[id] = c
	e.bytes += size
}

// write appends a chunk's codes to the file; false when it cannot.
func (e *Early) write(c *earlyChunk, codes []byte) bool {
	if len(codes) == 0 {
		return true
	}
	if e.codes == nil && e.end == 0 {
		f, err := os.CreateTemp(e.dir, ".early-*")
		if err != nil {
			return false
		}
		e.codes = f
		_ = os.Remove(f.Name()) // open, it stays readable; closed, it is gone
	}
	if e.codes == nil {
		return false
	}
	if _, err := e.codes.WriteAt(codes, e.end); err != nil {
		return false
	}
	c.at = e.end
	e.end += int64(len(codes))
	return true
}

// take hands over the rows of a chunk, once, and their codes; ok is false
// when the Early does not hold the chunk.
func (e *Early) take(id objects.ID) (c *earlyChunk, codes []int8, ok bool) {
	if e == nil {
		return nil, nil, false
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if c, ok = e.chunks[id]; !ok {
		return nil, nil, false
	}
	delete(e.chunks, id)
	e.bytes -= len(c.rows) * earlyRowBytes
	if len(c.rows) == 0 {
		return c, nil, true
	}
	if e.codes == nil {
		return nil, nil, false
	}
	raw := make([]byte, len(c.rows)*e.emb.Dim())
	if _, err := e.codes.ReadAt(raw, c.at); err != nil {
		return nil, nil, false
	}
	codes = make([]int8, len(raw))
	for i, x := range raw {
		codes[i] = int8(x)
	}
	return c, codes, true
}

// Close releases the Early's file; what it held is gone.
func (e *Early) Close() {
	if e == nil {
		return
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.codes != nil {
		_ = e.codes.Close()
		_ = os.Remove(e.codes.Name())
		e.codes = nil
	}
	e.chunks, e.full = map[objects.ID]*earlyChunk{}, true
}

func validStrings(ss []string) bool {
	for _, s := range ss {
		if !utf8.ValidString(s) {
			return false
		}
	}
	return true
}
