package semantic

import (
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"hash/crc32"
	"math"
	"os"
	"path/filepath"
	"sync"

	"ctx/core"
	"ctx/objects"
)

// Set is one vector set opened read-only: its file is memory-mapped and its
// columns read in place.
type Set struct {
	Info     SetInfo
	h        header
	data     []byte
	release  func() error
	sec      sections
	sessions []sessionMeta

	filesOnce sync.Once
	files     map[uint32][]string
	filesErr  error
}

// validSetName accepts the 32 hex digits that write gives sets.
func validSetName(name string) bool {
	if len(name) != 32 {
		return false
	}
	_, err := hex.DecodeString(name)
	return err == nil
}

// openSet opens the set directory root/name and checks that its file has
// the shape its description says.
func openSet(root, name string) (*Set, error) {
	if !validSetName(name) {
		return nil, fmt.Errorf("%w: invalid set name", ErrDamaged)
	}
	dir := filepath.Join(root, name)
	raw, err := os.ReadFile(filepath.Join(dir, infoFile))
	if err != nil {
		return nil, fmt.Errorf("%w: set %s: %v", ErrDamaged, name, err)
	}
	s := &Set{}
	if err := json.Unmarshal(raw, &s.Info); err != nil || s.Info.Format != setFormat || s.Info.Name != name ||
		!sealed(raw, &s.Info, &s.Info.Sum) {
		return nil, fmt.Errorf("%w: set %s: unreadable description", ErrDamaged, name)
	}
	if s.data, s.release, err = mapFile(filepath.Join(dir, setFile)); err != nil {
		return nil, fmt.Errorf("%w: set %s: %v", ErrDamaged, name, err)
	}
	if err := s.decode(); err != nil {
		_ = s.Close()
		return nil, fmt.Errorf("set %s: %w", name, err)
	}
	dropPages(s.data) // decode read two columns of every row
	return s, nil
}

func (s *Set) decode() error {
	h, err := decodeHeader(s.data)
	if err != nil {
		return err
	}
	s.h, s.sec = h, h.layout()
	switch {
	case int(h.dim) != s.Info.Dim || int(h.count) != s.Info.Count || int(h.chunks) != s.Info.Chunks:
		return fmt.Errorf("%w: header and description differ", ErrDamaged)
	case s.sec.size != uint64(len(s.data)) || int64(len(s.data)) != s.Info.Bytes:
		return fmt.Errorf("%w: %d bytes, want %d", ErrDamaged, len(s.data), s.sec.size)
	}
	s.sessions, err = decodeSessions(s.part(s.sec.sessions), int(h.sessions))
	if err != nil {
		return err
	}
	for i := range int(h.count) {
		if int(s.sessionIndex(i)) >= len(s.sessions) || s.chunkOf(i) >= h.chunks {
			return fmt.Errorf("%w: row %d points outside its tables", ErrDamaged, i)
		}
	}
	return nil
}

// Close unmaps the set.
func (s *Set) Close() error {
	if s.release == nil {
		return nil
	}
	err := s.release()
	s.release, s.data = nil, nil
	return err
}

// Verify re-computes the checksum of the set file.
func (s *Set) Verify() error {
	if crc32.Checksum(s.data, castagnoli()) != s.Info.CRC32C {
		return fmt.Errorf("%w: set %s: checksum mismatch", ErrDamaged, s.Info.Name)
	}
	return nil
}

// Len is the number of rows.
func (s *Set) Len() int { return int(s.h.count) }

func (s *Set) part(r [2]uint64) []byte { return s.data[r[0]:r[1]] }

// column returns the codes of dimension d for every row.
func (s *Set) column(d int) []byte {
	n := uint64(s.h.count)
	off := s.sec.codes[0] + uint64(d)*n
	return s.data[off : off+n]
}

func (s *Set) scale(i int) float32 {
	return math.Float32frombits(binary.LittleEndian.Uint32(s.data[s.sec.scales[0]+4*uint64(i):]))
}

func (s *Set) time(i int) int64 {
	return int64(binary.LittleEndian.Uint64(s.data[s.sec.times[0]+8*uint64(i):]))
}

func (s *Set) chunkOf(i int) uint32 {
	return binary.LittleEndian.Uint32(s.data[s.sec.chunk[0]+4*uint64(i):])
}

func (s *Set) sessionIndex(i int) uint32 {
	return binary.LittleEndian.Uint32(s.data[s.sec.session[0]+4*uint64(i):])
}

func (s *Set) session(i int) *sessionMeta { return &s.sessions[s.sessionIndex(i)] }

func (s *Set) typeCode(i int) uint8 { return s.data[s.sec.typ[0]+uint64(i)] }

func (s *Set) roleCode(i int) uint8 { return s.data[s.sec.role[0]+uint64(i)] }

func (s *Set) eventID(i int) core.EventID {
	var id core.EventID
	copy(id[:], s.data[s.sec.ids[0]+16*uint64(i):])
	return id
}

func (s *Set) chunkID(c uint32) objects.ID {
	var id objects.ID
	copy(id[:], s.data[s.sec.chunkIDs[0]+32*uint64(c):])
	return id
}

// filesOf returns the file terms of row i; the table is decoded on first use.
func (s *Set) filesOf(i int) ([]string, error) {
	s.filesOnce.Do(func() { s.files, s.filesErr = decodeFiles(s.part(s.sec.files), s.Len()) })
	return s.files[uint32(i)], s.filesErr
}

// rowCodes gathers the codes of row i (for merging sets).
func (s *Set) rowCodes(i int, out []int8) {
	n := uint64(s.h.count)
	off := s.sec.codes[0] + uint64(i)
	for d := range out {
		out[d] = int8(s.data[off+uint64(d)*n])
	}
}

// rowMeta returns what addRow needs to copy row i.
func (s *Set) rowMeta(i int) (rowMeta, error) {
	files, err := s.filesOf(i)
	if err != nil {
		return rowMeta{}, err
	}
	return rowMeta{id: s.eventID(i), time: s.time(i), typ: s.typeCode(i), role: s.roleCode(i),
		chunk: s.chunkID(s.chunkOf(i)), session: s.session(i), files: files}, nil
}
