package semantic

import (
	"encoding/binary"
	"math"
	"os"
	"sync"
	"unicode/utf8"

	"ctx/core"
	"ctx/objects"
)

// DefaultEarlyBytes bounds the file of an Early: some 500,000 rows, the
// transcript of an import of three or four million events. Chunks past it
// are read back by the vector pass, as without an Early.
const DefaultEarlyBytes = 256 << 20

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
// The rows wait in a file beside the sets, removed as soon as it is open
// (so that a crash leaves nothing), and the Early holds only where each
// chunk's rows are: an import's memory does not grow with its transcript.
//
// Only an embedder that computes locally is used early (the built-in one):
// one that calls a server would make every import wait on the network.
// Add may be called from several goroutines.
type Early struct {
	emb      *Hash
	dir      string
	maxBytes int64
	pool     sync.Pool // *earlyScratch

	mu     sync.Mutex
	file   *os.File // nil until the first row, and after Close
	end    int64
	full   bool // past maxBytes, or the file failed: nothing more is added
	chunks map[objects.ID]earlySpan
}

// earlySpan is where the rows of a chunk are in the file.
type earlySpan struct {
	at   int64
	size int32
	rows int32
}

// earlyScratch is the buffers of one Add.
type earlyScratch struct {
	f   *featurizer
	v   []float32
	row []int8
	buf []byte // the chunk's rows, encoded
}

// NewEarly returns an Early for emb that keeps its rows in dir (the
// vectors directory), at most maxBytes of them (DefaultEarlyBytes when
// maxBytes <= 0), or nil when emb is not one to use early. A nil *Early
// adds and holds nothing. Close releases it.
func NewEarly(emb Embedder, dir string, maxBytes int64) *Early {
	h, local := emb.(*Hash)
	if !local || h.Dim() <= 0 {
		return nil
	}
	if maxBytes <= 0 {
		maxBytes = DefaultEarlyBytes
	}
	return &Early{emb: h, dir: dir, maxBytes: maxBytes, chunks: map[objects.ID]earlySpan{}}
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
		sc = &earlyScratch{f: newFeaturizer(dim), v: make([]float32, dim), row: make([]int8, dim)}
	}
	defer e.pool.Put(sc)
	sc.buf = sc.buf[:0]
	rows := 0
	for i := range events {
		ev := &events[i]
		if !InProjection(ev) {
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
		sc.buf = appendEarlyRow(sc.buf, sc.row, scale, &m, ev.SessionID)
		rows++
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if _, had := e.chunks[id]; had || e.full {
		return
	}
	at, ok := e.write(sc.buf)
	if !ok {
		e.full = true
		return
	}
	e.chunks[id] = earlySpan{at: at, size: int32(len(sc.buf)), rows: int32(rows)}
}

// write appends b to the file and returns where; false when it cannot.
func (e *Early) write(b []byte) (int64, bool) {
	if e.end+int64(len(b)) > e.maxBytes {
		return 0, false
	}
	if len(b) == 0 {
		return e.end, true
	}
	if e.file == nil {
		if e.end > 0 { // closed
			return 0, false
		}
		f, err := os.CreateTemp(e.dir, ".early-*")
		if err != nil {
			return 0, false
		}
		e.file = f
		_ = os.Remove(f.Name()) // open, it stays readable; closed, it is gone
	}
	if _, err := e.file.WriteAt(b, e.end); err != nil {
		return 0, false
	}
	at := e.end
	e.end += int64(len(b))
	return at, true
}

// earlyRows is the rows of a chunk read back: codes row after row, and
// the fields of each (chunk and session unset, the event's own session id
// beside them).
type earlyRows struct {
	codes  []int8
	scales []float32
	rows   []rowMeta
	own    []core.SessionID
}

// take hands over the rows of a chunk, once; ok is false when the Early
// does not hold the chunk or cannot read it back.
func (e *Early) take(id objects.ID) (earlyRows, bool) {
	if e == nil {
		return earlyRows{}, false
	}
	e.mu.Lock()
	sp, ok := e.chunks[id]
	delete(e.chunks, id)
	f := e.file
	e.mu.Unlock()
	if !ok || sp.rows == 0 {
		return earlyRows{}, ok
	}
	if f == nil {
		return earlyRows{}, false
	}
	b := make([]byte, sp.size)
	if _, err := f.ReadAt(b, sp.at); err != nil {
		return earlyRows{}, false
	}
	return decodeEarlyRows(b, int(sp.rows), e.emb.Dim())
}

// Close releases the Early's file; what it held is gone.
func (e *Early) Close() {
	if e == nil {
		return
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.file != nil {
		_ = e.file.Close()
		_ = os.Remove(e.file.Name())
		e.file = nil
	}
	e.chunks, e.full = map[objects.ID]earlySpan{}, true
}

// appendEarlyRow encodes a row: its codes, scale, time, type, role, event
// id, the event's own session id, then its file terms, counted.
func appendEarlyRow(b []byte, codes []int8, scale float32, m *rowMeta, own core.SessionID) []byte {
	for _, c := range codes {
		b = append(b, byte(c))
	}
	le := binary.LittleEndian
	b = le.AppendUint32(b, math.Float32bits(scale))
	b = le.AppendUint64(b, uint64(m.time))
	b = append(b, m.typ, m.role)
	b = append(b, m.id[:]...)
	b = append(b, own[:]...)
	b = binary.AppendUvarint(b, uint64(len(m.files)))
	for _, f := range m.files {
		b = appendString(b, f)
	}
	return b
}

// decodeEarlyRows reads n rows of dim codes written by appendEarlyRow.
func decodeEarlyRows(b []byte, n, dim int) (earlyRows, bool) {
	out := earlyRows{codes: make([]int8, 0, n*dim), scales: make([]float32, 0, n), rows: make([]rowMeta, 0, n),
		own: make([]core.SessionID, 0, n)}
	le := binary.LittleEndian
	const fixed = 4 + 8 + 2 + 16 + 16
	for range n {
		if len(b) < dim+fixed {
			return earlyRows{}, false
		}
		for _, c := range b[:dim] {
			out.codes = append(out.codes, int8(c))
		}
		b = b[dim:]
		var m rowMeta
		var own core.SessionID
		out.scales = append(out.scales, math.Float32frombits(le.Uint32(b)))
		m.time = int64(le.Uint64(b[4:]))
		m.typ, m.role = b[12], b[13]
		copy(m.id[:], b[14:30])
		copy(own[:], b[30:46])
		b = b[fixed:]
		k, w := binary.Uvarint(b)
		if w <= 0 || k > uint64(len(b)) {
			return earlyRows{}, false
		}
		b = b[w:]
		for range k {
			f, rest, ok := readString(b)
			if !ok {
				return earlyRows{}, false
			}
			m.files, b = append(m.files, f), rest
		}
		out.rows, out.own = append(out.rows, m), append(out.own, own)
	}
	return out, len(b) == 0
}

func validStrings(ss []string) bool {
	for _, s := range ss {
		if !utf8.ValidString(s) {
			return false
		}
	}
	return true
}
