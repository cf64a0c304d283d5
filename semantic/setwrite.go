package semantic

import (
	"bufio"
	"crypto/rand"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"hash/crc32"
	"io"
	"math"
	"os"
	"path/filepath"
	"sync"
	"time"

	"ctx/core"
	"ctx/objects"
)

// rowMeta is everything a set stores about one row besides its codes.
type rowMeta struct {
	id      core.EventID
	time    int64
	typ     uint8
	role    uint8
	chunk   objects.ID
	session *sessionMeta
	files   []string
}

// spillRows is the number of rows a set builder holds in memory: each time
// it has that many it writes them, as a block laid out like the set file
// (codes column-major, then the per-row columns and the file table), to a
// spill file in the set's build directory, and the set file is assembled
// from the blocks when it is written. A build's memory is so bounded by a
// block (about 3.4 MB at 384 dimensions), not by the rows of a set; a set
// of at most spillRows rows never touches the spill file. A variable for
// the tests.
var spillRows = 8192

// colWidths are the bytes a row takes in each per-row column after the
// codes, in file order: scale, time, chunk, session, type, role, id.
var colWidths = [...]int{4, 8, 4, 4, 1, 1, 16}

// setBuilder collects the rows of one set and writes them as a set
// directory under root.
type setBuilder struct {
	root     string
	dim      int
	block    rowBlock // the rows not spilled yet
	spilled  []spilledBlock
	count    int // rows, spilled or not
	chunks   []objects.ID
	chunkIdx map[objects.ID]uint32
	sessions []sessionMeta
	sessIdx  map[core.SessionID]uint32
	scratch  []int8
	name     string   // chosen once a block is spilled, else by write
	spill    *os.File // nil until a block is spilled
	spillEnd int64
}

// rowBlock is rows in memory, codes row-major.
type rowBlock struct {
	codes   []int8
	scales  []float32
	times   []int64
	chunkOf []uint32
	sessOf  []uint32
	types   []uint8
	roles   []uint8
	ids     []core.EventID
	files   []byte // the file table's entries of these rows, encoded
}

// spilledBlock is where a block is in the spill file.
type spilledBlock struct {
	off   int64
	rows  int
	files int // bytes of its file table entries
}

func newSetBuilder(root string, dim int) *setBuilder {
	return &setBuilder{root: root, dim: dim, chunkIdx: map[objects.ID]uint32{}, sessIdx: map[core.SessionID]uint32{},
		scratch: make([]int8, dim)}
}

func (b *setBuilder) rows() int { return b.count }

// addChunk records that the set covers a chunk, whether or not any of its
// events has a row.
func (b *setBuilder) addChunk(id objects.ID) uint32 {
	if i, ok := b.chunkIdx[id]; ok {
		return i
	}
	i := uint32(len(b.chunks))
	b.chunks = append(b.chunks, id)
	b.chunkIdx[id] = i
	return i
}

// add quantizes the vector of an event and appends its row; a zero vector
// adds nothing.
func (b *setBuilder) add(e *core.Event, s *core.Session, chunk objects.ID, v []float32) error {
	scale := quantize(v, b.scratch)
	if scale == 0 {
		return nil
	}
	return b.addRow(b.scratch, scale, placed(eventRow(e), s, e.SessionID, chunk))
}

// eventRow is the row of an event, its chunk and session aside.
func eventRow(e *core.Event) rowMeta {
	return rowMeta{id: e.ID, time: timeCode(e.Timestamp), typ: typeCode(e.Type), role: roleCode(e.Role),
		files: core.FileTerms(e.Files)}
}

// placed sets the chunk and the session of a row: s's, under the event's
// own session id when it has one.
func placed(m rowMeta, s *core.Session, own core.SessionID, chunk objects.ID) rowMeta {
	meta := newSessionMeta(s)
	if !own.IsZero() {
		meta.ID = own
	}
	m.chunk, m.session = chunk, &meta
	return m
}

// addRow appends a row of already quantized codes.
func (b *setBuilder) addRow(codes []int8, scale float32, m rowMeta) error {
	row := uint32(b.count)
	k := &b.block
	if k.codes == nil {
		n := min(spillRows, 1024)
		k.codes = make([]int8, 0, n*b.dim)
	}
	k.codes = append(k.codes, codes[:b.dim]...)
	k.scales = append(k.scales, scale)
	k.times = append(k.times, m.time)
	k.chunkOf = append(k.chunkOf, b.addChunk(m.chunk))
	si, ok := b.sessIdx[m.session.ID]
	if !ok {
		si = uint32(len(b.sessions))
		b.sessions = append(b.sessions, *m.session)
		b.sessIdx[m.session.ID] = si
	}
	k.sessOf = append(k.sessOf, si)
	k.types = append(k.types, m.typ)
	k.roles = append(k.roles, m.role)
	k.ids = append(k.ids, m.id)
	if len(m.files) > 0 {
		k.files = binary.AppendUvarint(k.files, uint64(row))
		k.files = binary.AppendUvarint(k.files, uint64(len(m.files)))
		for _, t := range m.files {
			k.files = appendString(k.files, t)
		}
	}
	b.count++
	if len(k.scales) >= spillRows {
		return b.spillBlock()
	}
	return nil
}

func (k *rowBlock) len() int { return len(k.scales) }

// column encodes per-row column c (an index into colWidths) of the block.
func (k *rowBlock) column(c int, out []byte) []byte {
	le := binary.LittleEndian
	switch c {
	case 0:
		for _, s := range k.scales {
			out = le.AppendUint32(out, math.Float32bits(s))
		}
	case 1:
		for _, t := range k.times {
			out = le.AppendUint64(out, uint64(t))
		}
	case 2:
		for _, x := range k.chunkOf {
			out = le.AppendUint32(out, x)
		}
	case 3:
		for _, x := range k.sessOf {
			out = le.AppendUint32(out, x)
		}
	case 4:
		out = append(out, k.types...)
	case 5:
		out = append(out, k.roles...)
	case 6:
		for _, id := range k.ids {
			out = append(out, id[:]...)
		}
	}
	return out
}

// dimension writes the block's codes of dimension d into out.
func (k *rowBlock) dimension(dim, d int, out []byte) []byte {
	out = out[:k.len()]
	for i := range out {
		out[i] = byte(k.codes[i*dim+d])
	}
	return out
}

func (k *rowBlock) reset() {
	k.codes, k.files = k.codes[:0], k.files[:0]
	k.scales, k.times, k.chunkOf, k.sessOf = k.scales[:0], k.times[:0], k.chunkOf[:0], k.sessOf[:0]
	k.types, k.roles, k.ids = k.types[:0], k.roles[:0], k.ids[:0]
}

// buildDir is the directory the set is built in; it is made, and the set
// named, on first use.
func (b *setBuilder) buildDir() (string, error) {
	if b.name == "" {
		name, err := newSetName()
		if err != nil {
			return "", err
		}
		b.name = name
	}
	tmp := filepath.Join(b.root, ".build-"+b.name)
	return tmp, os.MkdirAll(tmp, 0o700)
}

const spillFile = "rows.spill"

// spillBlock appends the rows in memory to the spill file and empties the
// block.
func (b *setBuilder) spillBlock() error {
	k := &b.block
	if k.len() == 0 {
		return nil
	}
	if b.spill == nil {
		tmp, err := b.buildDir()
		if err != nil {
			return err
		}
		if b.spill, err = os.OpenFile(filepath.Join(tmp, spillFile), os.O_CREATE|os.O_EXCL|os.O_RDWR, 0o600); err != nil {
			return fmt.Errorf("semantic: spill rows: %w", err)
		}
	}
	w := bufio.NewWriterSize(io.NewOffsetWriter(b.spill, b.spillEnd), 256<<10)
	cw := &countWriter{w: w}
	col := make([]byte, k.len())
	for d := range b.dim {
		cw.write(k.dimension(b.dim, d, col))
	}
	var buf []byte
	for c := range colWidths {
		buf = k.column(c, buf[:0])
		cw.write(buf)
	}
	cw.write(k.files)
	if cw.err == nil {
		cw.err = w.Flush()
	}
	if cw.err != nil {
		return fmt.Errorf("semantic: spill rows: %w", cw.err)
	}
	b.spilled = append(b.spilled, spilledBlock{off: b.spillEnd, rows: k.len(), files: len(k.files)})
	b.spillEnd += cw.n
	k.reset()
	return nil
}

// discard removes what the builder left on disk, when its set is not to be
// written.
func (b *setBuilder) discard() {
	if b.spill != nil {
		_ = b.spill.Close()
		b.spill = nil
	}
	if b.name != "" {
		_ = os.RemoveAll(filepath.Join(b.root, ".build-"+b.name))
	}
}

// quantize writes v scaled to int8 (the largest magnitude maps to ±127)
// into out and returns the scale that maps the codes back; 0 for a zero
// or non-finite vector.
func quantize(v []float32, out []int8) float32 {
	var m float64
	for _, x := range v {
		m = max(m, math.Abs(float64(x)))
	}
	if m == 0 || math.IsNaN(m) || math.IsInf(m, 0) {
		return 0
	}
	inv := 127 / m
	for i, x := range v {
		out[i] = int8(math.Round(float64(x) * inv))
	}
	return float32(m / 127)
}

// SetInfo describes a written set.
type SetInfo struct {
	Format   int    `json:"format"`
	Name     string `json:"name"`
	Embedder string `json:"embedder"`
	Dim      int    `json:"dim"`
	Count    int    `json:"count"`
	Chunks   int    `json:"chunks"`
	Bytes    int64  `json:"bytes"`
	CRC32C   uint32 `json:"crc32c"`
	// Generation is the number of the generation whose build wrote the set.
	Generation uint64    `json:"generation"`
	Created    time.Time `json:"created"`
	Sum        string    `json:"sum,omitempty"` // see sealed.go
}

const (
	setFile  = "vectors.bin"
	infoFile = "set.json"
)

var castagnoli = sync.OnceValue(func() *crc32.Table { return crc32.MakeTable(crc32.Castagnoli) })

// write writes the set under b.root as a new directory named by random
// hex: built under .build-<name>, synced, made private and renamed into
// place.
func (b *setBuilder) write(embedder string, gen uint64) (SetInfo, error) {
	tmp, err := b.buildDir()
	if err != nil {
		return SetInfo{}, err
	}
	info := SetInfo{Format: setFormat, Name: b.name, Embedder: embedder, Dim: b.dim, Count: b.rows(),
		Chunks: len(b.chunks), Generation: gen, Created: time.Now().UTC()}
	err = b.writeFiles(tmp, &info)
	if b.spill != nil {
		if cerr := b.spill.Close(); err == nil {
			err = cerr
		}
		b.spill = nil
		if rerr := os.Remove(filepath.Join(tmp, spillFile)); err == nil {
			err = rerr
		}
	}
	if err != nil {
		_ = os.RemoveAll(tmp)
		return SetInfo{}, err
	}
	if err := os.Rename(tmp, filepath.Join(b.root, b.name)); err != nil {
		_ = os.RemoveAll(tmp)
		return SetInfo{}, err
	}
	return info, objects.SyncDir(b.root)
}

func (b *setBuilder) writeFiles(dir string, info *SetInfo) error {
	f, err := os.OpenFile(filepath.Join(dir, setFile), os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
	if err != nil {
		return err
	}
	crc := crc32.New(castagnoli())
	w := bufio.NewWriterSize(io.MultiWriter(f, crc), 1<<20)
	n, err := b.encode(w)
	if err == nil {
		err = w.Flush()
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("semantic: write set: %w", err)
	}
	info.Bytes, info.CRC32C = n, crc.Sum32()
	data, err := sealJSON(info, &info.Sum)
	if err != nil {
		return err
	}
	if err := writeFileSync(filepath.Join(dir, infoFile), data); err != nil {
		return err
	}
	return objects.SyncDir(dir)
}

// encode writes vectors.bin and returns its size: each section is the
// spilled blocks' part of it, in order, then the rows still in memory.
func (b *setBuilder) encode(w io.Writer) (int64, error) {
	var sess []byte
	for i := range b.sessions {
		sess = b.sessions[i].append(sess)
	}
	k := &b.block
	fileBytes := len(k.files)
	for _, s := range b.spilled {
		fileBytes += s.files
	}
	h := header{dim: uint32(b.dim), count: uint32(b.rows()), chunks: uint32(len(b.chunks)),
		sessions: uint32(len(b.sessions)), sessionBytes: uint64(len(sess)), fileBytes: uint64(fileBytes)}
	cw := &countWriter{w: w}
	cw.write(h.encode())
	buf := make([]byte, 0, max(spillRows, k.len())*colWidths[6])
	// spilled copies n bytes at offset off of each spilled block's start.
	spilled := func(off func(s spilledBlock) int64, n func(s spilledBlock) int) {
		for _, s := range b.spilled {
			if cw.err != nil {
				return
			}
			r := io.NewSectionReader(b.spill, s.off+off(s), int64(n(s)))
			for left := n(s); left > 0 && cw.err == nil; {
				p := buf[:min(left, cap(buf))]
				if _, err := io.ReadFull(r, p); err != nil {
					cw.err = fmt.Errorf("semantic: read spilled rows: %w", err)
					return
				}
				cw.write(p)
				left -= len(p)
			}
		}
	}
	for d := range b.dim {
		spilled(func(s spilledBlock) int64 { return int64(d * s.rows) }, func(s spilledBlock) int { return s.rows })
		cw.write(k.dimension(b.dim, d, buf[:cap(buf)]))
	}
	before := 0 // bytes a row takes in the columns before column c
	for c, width := range colWidths {
		spilled(func(s spilledBlock) int64 { return int64((b.dim + before) * s.rows) },
			func(s spilledBlock) int { return width * s.rows })
		cw.write(k.column(c, buf[:0]))
		before += width
	}
	for _, c := range b.chunks {
		cw.write(c[:])
	}
	cw.write(sess)
	spilled(func(s spilledBlock) int64 { return int64((b.dim + before) * s.rows) }, func(s spilledBlock) int { return s.files })
	cw.write(k.files)
	return cw.n, cw.err
}

type countWriter struct {
	w   io.Writer
	n   int64
	err error
}

func (c *countWriter) write(p []byte) {
	if c.err != nil {
		return
	}
	n, err := c.w.Write(p)
	c.n += int64(n)
	c.err = err
}

func newSetName() (string, error) {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", fmt.Errorf("semantic: set name: %w", err)
	}
	return hex.EncodeToString(b[:]), nil
}

// writeFileSync writes a new private file durably.
func writeFileSync(path string, data []byte) error {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_TRUNC|os.O_WRONLY, 0o600)
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}
