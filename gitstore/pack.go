package gitstore

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/format/packfile"
	"github.com/go-git/go-git/v5/plumbing/storer"
	"github.com/go-git/go-git/v5/storage/memory"
)

// packFlush is how many bytes of new objects a packer holds before it
// writes them out as one pack, bounding the memory of a first push.
const packFlush = 64 << 20

// packer gathers new git objects and writes them into the mirror as packs
// (one git process per push, never one file per object).
type packer struct {
	m      *Mirror
	mem    *memory.Storage
	hashes []plumbing.Hash
	bytes  int
	packs  []string // the pack files written, to fsync
	// Bytes is the size of every object added (before git's zlib).
	Bytes int64
}

func newPacker(m *Mirror) *packer { return &packer{m: m, mem: memory.NewStorage()} }

// add stores an encoded object and returns its git id.
func (p *packer) add(t plumbing.ObjectType, b []byte) (plumbing.Hash, error) {
	o := &plumbing.MemoryObject{}
	o.SetType(t)
	o.SetSize(int64(len(b)))
	if _, err := o.Write(b); err != nil {
		return plumbing.ZeroHash, err
	}
	return p.addObject(o)
}

func (p *packer) addObject(o plumbing.EncodedObject) (plumbing.Hash, error) {
	h := o.Hash()
	if _, err := p.mem.EncodedObject(plumbing.AnyObject, h); err == nil || p.m.Has(h) {
		return h, nil
	}
	if _, err := p.mem.SetEncodedObject(o); err != nil {
		return h, err
	}
	p.hashes = append(p.hashes, h)
	p.bytes += int(o.Size())
	p.Bytes += o.Size()
	if p.bytes >= packFlush {
		return h, p.flush()
	}
	return h, nil
}

// encoder gives tree and commit encoders somewhere to write.
func (p *packer) newObject() plumbing.EncodedObject { return &plumbing.MemoryObject{} }

// flush writes the gathered objects into the mirror as one pack without
// deltas (the blobs are zstd frames or age ciphertext: nothing to find).
func (p *packer) flush() error {
	if len(p.hashes) == 0 {
		return nil
	}
	pw, ok := p.m.st.(storer.PackfileWriter)
	if !ok {
		return fmt.Errorf("gitstore: mirror storage writes no packs")
	}
	w, err := pw.PackfileWriter()
	if err != nil {
		return fmt.Errorf("gitstore: pack: %w", err)
	}
	sum, err := packfile.NewEncoder(w, p.mem, false).Encode(p.hashes, 0)
	if err != nil {
		w.Close()
		return fmt.Errorf("gitstore: pack: %w", err)
	}
	if err := w.Close(); err != nil {
		return fmt.Errorf("gitstore: pack: %w", err)
	}
	p.packs = append(p.packs, "pack-"+sum.String())
	p.mem, p.hashes, p.bytes = memory.NewStorage(), nil, 0
	return nil
}

// sync makes the packs written durable before a ref names their objects.
func (p *packer) sync() error {
	dir := filepath.Join(p.m.Dir, "objects", "pack")
	for _, name := range p.packs {
		for _, ext := range []string{".pack", ".idx"} {
			if err := fsync(filepath.Join(dir, name+ext)); err != nil {
				return err
			}
		}
	}
	if len(p.packs) == 0 {
		return nil
	}
	return fsync(dir)
}

func fsync(p string) error {
	f, err := os.Open(p)
	if err != nil {
		if strings.HasSuffix(p, ".idx") && os.IsNotExist(err) {
			return nil
		}
		return fmt.Errorf("gitstore: sync %s: %w", filepath.Base(p), err)
	}
	defer f.Close()
	if err := f.Sync(); err != nil {
		return fmt.Errorf("gitstore: sync %s: %w", filepath.Base(p), err)
	}
	return nil
}
