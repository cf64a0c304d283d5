package index

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"os"
	"path/filepath"
)

// bolt's meta page, as bbolt v1 writes it: a 16-byte page header, then
// magic, version, page size and flags (4 bytes each), the root bucket
// (16), the freelist page, the high-water page id, the txid and an FNV-64a
// checksum of everything before it (8 bytes each).
const (
	boltPageHeader = 16
	boltMagic      = 0xED0CDAED
	boltVersion    = 2
	boltMetaSum    = 56 // bytes of the meta the checksum covers
	boltMetaSize   = boltMetaSum + 8
)

// checkBoltSize reads the two meta pages of a shard's root.bolt and checks
// that the file holds every page the newest valid one counts. bolt maps the
// file larger than it is and trusts those pages: reading one past the end
// of a cut file is a SIGBUS that no recover catches, so a shard without
// recorded sizes is measured here before bleve opens it.
func checkBoltSize(dir string) error {
	p := filepath.Join(dir, "store", "root.bolt")
	f, size, err := openSized(p)
	if errors.Is(err, os.ErrNotExist) {
		return nil // not a scorch shard bleve keeps in bolt: bleve judges it
	}
	if err != nil {
		return err
	}
	defer f.Close()
	best, err := newestBoltMeta(f)
	if err != nil {
		return fmt.Errorf("store/root.bolt: %w", err)
	}
	if need := int64(best.pgid) * int64(best.pageSize); size < need {
		return fmt.Errorf("store/root.bolt holds %d bytes, its meta counts %d", size, need)
	}
	return nil
}

// newestBoltMeta is the valid meta page of the higher txid, the one bolt
// opens with.
func newestBoltMeta(f *os.File) (boltMeta, error) {
	m0, err0 := readBoltMeta(f, 0)
	step := int64(os.Getpagesize())
	if err0 == nil {
		step = int64(m0.pageSize)
	}
	m1, err1 := readBoltMeta(f, step)
	switch {
	case err0 != nil && err1 != nil:
		return boltMeta{}, fmt.Errorf("no valid meta page: %v", err0)
	case err0 != nil || (err1 == nil && m1.txid > m0.txid):
		return m1, nil
	}
	return m0, nil
}

type boltMeta struct {
	pageSize uint32
	pgid     uint64
	txid     uint64
}

func readBoltMeta(f *os.File, off int64) (boltMeta, error) {
	var buf [boltPageHeader + boltMetaSize]byte
	if _, err := f.ReadAt(buf[:], off); err != nil {
		if errors.Is(err, io.EOF) {
			err = io.ErrUnexpectedEOF
		}
		return boltMeta{}, err
	}
	m := buf[boltPageHeader:]
	le := binary.LittleEndian
	if le.Uint32(m[0:]) != boltMagic || le.Uint32(m[4:]) != boltVersion {
		return boltMeta{}, errors.New("not a bolt meta page")
	}
	h := fnv.New64a()
	_, _ = h.Write(m[:boltMetaSum])
	if h.Sum64() != le.Uint64(m[boltMetaSum:]) {
		return boltMeta{}, errors.New("meta checksum mismatch")
	}
	meta := boltMeta{pageSize: le.Uint32(m[8:]), pgid: le.Uint64(m[40:]), txid: le.Uint64(m[48:])}
	if meta.pageSize < 512 || meta.pageSize&(meta.pageSize-1) != 0 {
		return boltMeta{}, fmt.Errorf("meta page size %d", meta.pageSize)
	}
	return meta, nil
}
