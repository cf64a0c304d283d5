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

// setBuilder collects the rows of one set in memory (codes row-major) and
// writes them as a set directory.
type setBuilder struct {
	dim      int
	codes    []int8
	scales   []float32
	times    []int64
	chunkOf  []uint32
	sessOf   []uint32
	types    []uint8
	roles    []uint8
	ids      []core.EventID
	chunks   []objects.ID
	chunkIdx map[objects.ID]uint32
	sessions []sessionMeta
	sessIdx  map[core.SessionID]uint32
	files    map[uint32][]string
	scratch  []int8
}

func newSetBuilder(dim int) *setBuilder {
	return &setBuilder{dim: dim, chunkIdx: map[objects.ID]uint32{}, sessIdx: map[core.SessionID]uint32{},
		files: map[uint32][]string{}, scratch: make([]int8, dim)}
}

func (b *setBuilder) rows() int { return len(b.scales) }

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
func (b *setBuilder) add(e *core.Event, s *core.Session, chunk objects.ID, v []float32) {
	scale := quantize(v, b.scratch)
	if scale == 0 {
		return
	}
	meta := newSessionMeta(s)
	if !e.SessionID.IsZero() {
		meta.ID = e.SessionID
	}
	b.addRow(b.scratch, scale, rowMeta{id: e.ID, time: timeCode(e.Timestamp), typ: typeCode(e.Type),
		role: roleCode(e.Role), chunk: chunk, session: &meta, files: core.FileTerms(e.Files)})
}

// addRow appends a row of already quantized codes.
func (b *setBuilder) addRow(codes []int8, scale float32, m rowMeta) {
	row := uint32(len(b.scales))
	b.codes = append(b.codes, codes[:b.dim]...)
	b.scales = append(b.scales, scale)
	b.times = append(b.times, m.time)
	b.chunkOf = append(b.chunkOf, b.addChunk(m.chunk))
	si, ok := b.sessIdx[m.session.ID]
	if !ok {
		si = uint32(len(b.sessions))
		b.sessions = append(b.sessions, *m.session)
		b.sessIdx[m.session.ID] = si
	}
	b.sessOf = append(b.sessOf, si)
	b.types = append(b.types, m.typ)
	b.roles = append(b.roles, m.role)
	b.ids = append(b.ids, m.id)
	if len(m.files) > 0 {
		b.files[row] = m.files
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

// write writes the set under root as a new directory named by random hex:
// built under .build-<name>, synced, made private and renamed into place.
func (b *setBuilder) write(root, embedder string, gen uint64) (SetInfo, error) {
	name, err := newSetName()
	if err != nil {
		return SetInfo{}, err
	}
	tmp := filepath.Join(root, ".build-"+name)
	if err := os.MkdirAll(tmp, 0o700); err != nil {
		return SetInfo{}, err
	}
	info := SetInfo{Format: setFormat, Name: name, Embedder: embedder, Dim: b.dim, Count: b.rows(),
		Chunks: len(b.chunks), Generation: gen, Created: time.Now().UTC()}
	if err := b.writeFiles(tmp, &info); err != nil {
		_ = os.RemoveAll(tmp)
		return SetInfo{}, err
	}
	if err := os.Rename(tmp, filepath.Join(root, name)); err != nil {
		_ = os.RemoveAll(tmp)
		return SetInfo{}, err
	}
	return info, objects.SyncDir(root)
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

// encode writes vectors.bin and returns its size.
func (b *setBuilder) encode(w io.Writer) (int64, error) {
	var sess, files []byte
	for i := range b.sessions {
		sess = b.sessions[i].append(sess)
	}
	for row := range uint32(b.rows()) {
		if terms, ok := b.files[row]; ok {
			files = binary.AppendUvarint(files, uint64(row))
			files = binary.AppendUvarint(files, uint64(len(terms)))
			for _, t := range terms {
				files = appendString(files, t)
			}
		}
	}
	h := header{dim: uint32(b.dim), count: uint32(b.rows()), chunks: uint32(len(b.chunks)),
		sessions: uint32(len(b.sessions)), sessionBytes: uint64(len(sess)), fileBytes: uint64(len(files))}
	cw := &countWriter{w: w}
	cw.write(h.encode())
	col := make([]byte, b.rows())
	for d := 0; d < b.dim; d++ {
		for i := range col {
			col[i] = byte(b.codes[i*b.dim+d])
		}
		cw.write(col)
	}
	cw.write(b.columns())
	for _, c := range b.chunks {
		cw.write(c[:])
	}
	cw.write(sess)
	cw.write(files)
	return cw.n, cw.err
}

// columns encodes the per-row columns after the codes.
func (b *setBuilder) columns() []byte {
	out := make([]byte, 0, b.rows()*34)
	for _, s := range b.scales {
		out = binary.LittleEndian.AppendUint32(out, math.Float32bits(s))
	}
	for _, t := range b.times {
		out = binary.LittleEndian.AppendUint64(out, uint64(t))
	}
	for _, c := range b.chunkOf {
		out = binary.LittleEndian.AppendUint32(out, c)
	}
	for _, s := range b.sessOf {
		out = binary.LittleEndian.AppendUint32(out, s)
	}
	out = append(out, b.types...)
	out = append(out, b.roles...)
	for _, id := range b.ids {
		out = append(out, id[:]...)
	}
	return out
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
