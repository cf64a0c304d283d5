package semantic

import (
	"encoding/binary"
	"errors"
	"fmt"
	"time"

	"ctx/core"
)

// The vectors.bin file of a set, little-endian:
//
//	header   magic "CTXVEC01", dim u32, count u32, chunks u32, sessions u32,
//	         session bytes u64, file bytes u64 (40 bytes)
//	codes    dim × count int8, column-major: all rows' value of dimension 0,
//	         then dimension 1, …
//	scales   count f32: a row's vector is its codes × its scale
//	times    count i64: Unix ns of the event, noTime when it has none
//	chunk    count u32: index into the chunk table
//	session  count u32: index into the session table
//	type     count u8: 1 + index in core.EventTypes (0: unknown)
//	role     count u8: 1 + index in roles (0: none)
//	ids      count × 16: event ids
//	chunk table     chunks × 32: object ids of the chunks the set covers
//	session table   per session: id 16, root 16, subagent 1, then provider,
//	                source root, source group and workspace, each a uvarint
//	                length and its bytes
//	file table      per row with files: uvarint row, uvarint n, n strings
//	                (paths and base names), each a uvarint length and bytes
//
// Column-major codes let a search add one dimension at a time over every
// row: a query of the built-in embedder touches only its few non-zero
// dimensions.
const (
	setMagic   = "CTXVEC01"
	headerSize = 40
	setFormat  = Format
)

// Format is the version of the vector set and manifest format this
// package reads and writes.
const Format = 1

// noTime marks a row whose event has no usable timestamp.
const noTime = int64(-1 << 63)

var roles = []core.Role{core.RoleUser, core.RoleAssistant, core.RoleSystem, core.RoleTool}

// ErrDamaged is wrapped by every error about a set file that does not read
// back as written.
var ErrDamaged = errors.New("semantic: vector set damaged")

// header is the fixed start of vectors.bin.
type header struct {
	dim, count, chunks, sessions uint32
	sessionBytes, fileBytes      uint64
}

func (h header) encode() []byte {
	b := make([]byte, headerSize)
	copy(b, setMagic)
	binary.LittleEndian.PutUint32(b[8:], h.dim)
	binary.LittleEndian.PutUint32(b[12:], h.count)
	binary.LittleEndian.PutUint32(b[16:], h.chunks)
	binary.LittleEndian.PutUint32(b[20:], h.sessions)
	binary.LittleEndian.PutUint64(b[24:], h.sessionBytes)
	binary.LittleEndian.PutUint64(b[32:], h.fileBytes)
	return b
}

func decodeHeader(b []byte) (header, error) {
	if len(b) < headerSize || string(b[:8]) != setMagic {
		return header{}, fmt.Errorf("%w: not a vector set", ErrDamaged)
	}
	return header{
		dim: binary.LittleEndian.Uint32(b[8:]), count: binary.LittleEndian.Uint32(b[12:]),
		chunks: binary.LittleEndian.Uint32(b[16:]), sessions: binary.LittleEndian.Uint32(b[20:]),
		sessionBytes: binary.LittleEndian.Uint64(b[24:]), fileBytes: binary.LittleEndian.Uint64(b[32:]),
	}, nil
}

// sections are the byte ranges of a set file's parts.
type sections struct {
	codes, scales, times, chunk, session, typ, role, ids, chunkIDs, sessions, files [2]uint64
	size                                                                            uint64
}

func (h header) layout() sections {
	var s sections
	off := uint64(headerSize)
	next := func(n uint64) [2]uint64 {
		r := [2]uint64{off, off + n}
		off += n
		return r
	}
	n, dim := uint64(h.count), uint64(h.dim)
	s.codes = next(dim * n)
	s.scales = next(4 * n)
	s.times = next(8 * n)
	s.chunk = next(4 * n)
	s.session = next(4 * n)
	s.typ = next(n)
	s.role = next(n)
	s.ids = next(16 * n)
	s.chunkIDs = next(32 * uint64(h.chunks))
	s.sessions = next(h.sessionBytes)
	s.files = next(h.fileBytes)
	s.size = off
	return s
}

// sessionMeta is what a set keeps of a session: what filters and hits need.
type sessionMeta struct {
	ID, Root                                     core.SessionID
	Subagent                                     bool
	Provider, SourceRoot, SourceGroup, Workspace string
}

// facts is what the filter's session-level fields read.
func (m *sessionMeta) facts() core.SessionFacts {
	return core.SessionFacts{ID: m.ID, Root: m.Root, Provider: m.Provider, Workspace: m.Workspace,
		SourceRoot: m.SourceRoot, SourceGroup: m.SourceGroup, Subagent: m.Subagent}
}

func newSessionMeta(s *core.Session) sessionMeta {
	root := s.RootSessionID
	if root.IsZero() {
		root = s.ID
	}
	return sessionMeta{ID: s.ID, Root: root, Subagent: s.IsSubagent, Provider: s.Provider,
		SourceRoot: s.Source.Root, SourceGroup: s.Source.Group, Workspace: s.Workspace}
}

func (m *sessionMeta) append(b []byte) []byte {
	b = append(b, m.ID[:]...)
	b = append(b, m.Root[:]...)
	sub := byte(0)
	if m.Subagent {
		sub = 1
	}
	b = append(b, sub)
	for _, s := range []string{m.Provider, m.SourceRoot, m.SourceGroup, m.Workspace} {
		b = appendString(b, s)
	}
	return b
}

func decodeSessions(b []byte, n int) ([]sessionMeta, error) {
	out := make([]sessionMeta, n)
	for i := range out {
		if len(b) < 33 {
			return nil, fmt.Errorf("%w: session table cut short", ErrDamaged)
		}
		m := &out[i]
		copy(m.ID[:], b[:16])
		copy(m.Root[:], b[16:32])
		m.Subagent, b = b[32] == 1, b[33:]
		for _, p := range []*string{&m.Provider, &m.SourceRoot, &m.SourceGroup, &m.Workspace} {
			var ok bool
			if *p, b, ok = readString(b); !ok {
				return nil, fmt.Errorf("%w: session table cut short", ErrDamaged)
			}
		}
	}
	return out, nil
}

func appendString(b []byte, s string) []byte {
	b = binary.AppendUvarint(b, uint64(len(s)))
	return append(b, s...)
}

func readString(b []byte) (string, []byte, bool) {
	n, k := binary.Uvarint(b)
	if k <= 0 || uint64(len(b)-k) < n {
		return "", nil, false
	}
	return string(b[k : k+int(n)]), b[k+int(n):], true
}

// decodeFiles reads the file table into a map from row to file terms.
func decodeFiles(b []byte, count int) (map[uint32][]string, error) {
	out := map[uint32][]string{}
	bad := fmt.Errorf("%w: file table cut short", ErrDamaged)
	for len(b) > 0 {
		row, k := binary.Uvarint(b)
		if k <= 0 || row >= uint64(count) {
			return nil, bad
		}
		n, k2 := binary.Uvarint(b[k:])
		if k2 <= 0 || n > uint64(len(b)) {
			return nil, bad
		}
		b = b[k+k2:]
		terms := make([]string, 0, n)
		for range n {
			var s string
			var ok bool
			if s, b, ok = readString(b); !ok {
				return nil, bad
			}
			terms = append(terms, s)
		}
		out[uint32(row)] = terms
	}
	return out, nil
}

func typeCode(t core.EventType) uint8 {
	for i, k := range core.EventTypes {
		if k == t {
			return uint8(i + 1)
		}
	}
	return 0
}

func typeOf(c uint8) core.EventType {
	if c == 0 || int(c) > len(core.EventTypes) {
		return ""
	}
	return core.EventTypes[c-1]
}

func roleCode(r core.Role) uint8 {
	for i, k := range roles {
		if k == r {
			return uint8(i + 1)
		}
	}
	return 0
}

func roleOf(c uint8) core.Role {
	if c == 0 || int(c) > len(roles) {
		return ""
	}
	return roles[c-1]
}

// timeCode is the stored time of an event: Unix ns within the range Bleve
// indexes (years 1678–2261), else noTime, so both indexes agree on which
// events pass a time bound.
func timeCode(t time.Time) int64 {
	if t.IsZero() {
		return noTime
	}
	if y := t.UTC().Year(); y <= 1677 || y >= 2262 {
		return noTime
	}
	return t.UnixNano()
}
