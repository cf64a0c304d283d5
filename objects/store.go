package objects

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"

	"github.com/klauspost/compress/zstd"
)

// ErrNotFound is returned when an object is not in the store.
var ErrNotFound = errors.New("objects: not found")

// CorruptError reports an object whose stored bytes do not decode or do not
// hash to its name.
type CorruptError struct {
	ID     ID
	Path   string
	Reason string
}

func (e *CorruptError) Error() string {
	return fmt.Sprintf("object %s is corrupt (%s): %s", e.ID, e.Reason, e.Path)
}

// ErrCorrupt matches every *CorruptError with errors.Is.
var ErrCorrupt = errors.New("objects: corrupt object")

// Is makes errors.Is(err, ErrCorrupt) true for a *CorruptError.
func (e *CorruptError) Is(target error) bool { return target == ErrCorrupt }

// ErrNoSpace is matched (errors.Is) by every write error caused by a full
// device (ENOSPC or EDQUOT). Nothing becomes visible under its name when a
// write fails, so the objects already committed stay intact.
var ErrNoSpace = errors.New("no space left on the device holding the object store")

// writeError wraps a failed write of object id, naming a full device.
func writeError(op string, id ID, err error) error {
	return opError(fmt.Sprintf("%s %s", op, id), err)
}

// batchError wraps a failed sync of a batch's n new objects.
func batchError(op string, n int, err error) error {
	return opError(fmt.Sprintf("%s %d new objects", op, n), err)
}

func opError(what string, err error) error {
	if errors.Is(err, syscall.ENOSPC) || errors.Is(err, syscall.EDQUOT) {
		return fmt.Errorf("objects: %s: %w: %w", what, ErrNoSpace, err)
	}
	return fmt.Errorf("objects: %s: %w", what, err)
}

// writeTemp writes an object's bytes to its temporary file; tests replace
// it to simulate a full device.
var writeTemp = func(f *os.File, b []byte) error {
	_, err := f.Write(b)
	return err
}

// Getter reads objects.
type Getter interface {
	Get(id ID) ([]byte, error)
}

// Putter writes objects.
type Putter interface {
	Put(data []byte) (ID, error)
}

// The zstd encoder and decoder are made on first use: a process that only
// reads never makes an encoder, and one that reads nothing makes neither.
// The encoder's window is 1 MiB, not the level's 8 MiB: each of its
// concurrent encoders keeps up to two windows of history after a large
// object (16 MiB each, for the life of the process, the daemon's
// included), and an object is mostly one chunk of events, far smaller.
// Objects are named by their bytes, not their frames, so frames written
// with either window are the same objects.
var (
	encoder = sync.OnceValue(func() *zstd.Encoder {
		e, _ := zstd.NewWriter(nil, zstd.WithEncoderLevel(zstd.SpeedDefault), zstd.WithWindowSize(encoderWindow))
		return e
	})
	decoder = sync.OnceValue(func() *zstd.Decoder {
		d, _ := zstd.NewReader(nil, zstd.WithDecoderConcurrency(0))
		return d
	})
)

const encoderWindow = 1 << 20

// maxPooledFile bounds the buffers fileBufs keeps: the file of one huge
// object is not held for the life of the process.
const maxPooledFile = 1 << 20

// Store is a directory of immutable, compressed, content-addressed objects.
//
// An object file is a zstd frame of the object's bytes followed by the
// 32-byte Hash of that frame, so that a flipped bit anywhere in the file is
// caught even where zstd would decode it to the same bytes.
type Store struct {
	dir string
}

// Open opens (creating if needed) the object store in dir.
func Open(dir string) (*Store, error) {
	if err := os.MkdirAll(filepath.Join(dir, "tmp"), 0o700); err != nil {
		return nil, fmt.Errorf("objects: open %s: %w", dir, err)
	}
	return &Store{dir: dir}, nil
}

// OpenExisting opens the store in dir for reading: unlike Open it creates
// nothing, and a missing dir is an error wrapping fs.ErrNotExist.
func OpenExisting(dir string) (*Store, error) {
	fi, err := os.Stat(dir)
	if err == nil && !fi.IsDir() {
		err = fmt.Errorf("not a directory")
	}
	if err != nil {
		return nil, fmt.Errorf("objects: open %s: %w", dir, err)
	}
	return &Store{dir: dir}, nil
}

// Dir returns the directory of the store.
func (s *Store) Dir() string { return s.dir }

func (s *Store) path(id ID) string {
	h := id.String()
	return filepath.Join(s.dir, h[:2], h[2:])
}

// Has reports whether the object is present (without verifying it).
func (s *Store) Has(id ID) bool {
	_, err := os.Lstat(s.path(id))
	return err == nil
}

// Get returns the object's bytes after checking that they hash to id.
func (s *Store) Get(id ID) ([]byte, error) {
	_, data, err := s.read(id)
	return data, err
}

// GetEach gets the objects ids on every core, calling fn with each one's
// index in ids and what Get returned, from several goroutines at once.
func (s *Store) GetEach(ids []ID, fn func(i int, data []byte, err error)) {
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(len(ids), runtime.GOMAXPROCS(0)) {
		wg.Go(func() {
			for i := int(next.Add(1) - 1); i < len(ids); i = int(next.Add(1) - 1) {
				data, err := s.Get(ids[i])
				fn(i, data, err)
			}
		})
	}
	wg.Wait()
}

// read returns an object's file and its bytes, checked to hash to id.
func (s *Store) read(id ID) (raw, data []byte, err error) {
	p := s.path(id)
	raw, err = os.ReadFile(p)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil, fmt.Errorf("%w: %s", ErrNotFound, id)
	}
	if err != nil {
		return nil, nil, fmt.Errorf("objects: read %s: %w", id, err)
	}
	data, err = s.decode(id, p, raw)
	if err != nil {
		return nil, nil, err
	}
	return raw, data, nil
}

// decode checks an object file's trailing hash, decompresses it and checks
// that the bytes hash to id.
func (s *Store) decode(id ID, p string, raw []byte) ([]byte, error) {
	if len(raw) < IDSize || Hash(raw[:len(raw)-IDSize]) != ID(raw[len(raw)-IDSize:]) {
		return nil, &CorruptError{ID: id, Path: p, Reason: "damaged on disk"}
	}
	data, err := decoder().DecodeAll(raw[:len(raw)-IDSize], nil)
	if err != nil {
		return nil, &CorruptError{ID: id, Path: p, Reason: "undecodable"}
	}
	if Hash(data) != id {
		return nil, &CorruptError{ID: id, Path: p, Reason: "hash mismatch"}
	}
	return data, nil
}

// Put stores data durably and returns its ID. Writing an object that is
// already present writes nothing.
func (s *Store) Put(data []byte) (ID, error) {
	b := s.NewBatch()
	id, err := b.Put(data)
	if err != nil {
		return id, err
	}
	return id, b.Commit()
}

// Batch groups object writes so that their fsyncs are paid together. An
// object becomes visible under its name only in Commit, after its bytes are
// durable, so a crash never leaves a named object with partial contents.
// A batch may be committed more than once: a long writer commits what is
// pending as it goes (see Pending), so that the names it holds stay
// bounded; what it publishes must then only name objects of a commit that
// ended before the publish.
type Batch struct {
	s         *Store
	mu        sync.Mutex
	pending   map[ID]string // id -> temp path
	committed int           // objects made visible by earlier commits
	written   int64
	whole     *os.File // the store's directory, to sync its filesystem; nil when nothing is pending
	perFile   bool     // a pending file was written before whole was opened: fsync each file
}

// NewBatch starts a batch of writes.
func (s *Store) NewBatch() *Batch {
	return &Batch{s: s, pending: make(map[ID]string)}
}

// Put compresses data into a temporary file unless the object already
// exists; the object is published by Commit.
func (b *Batch) Put(data []byte) (ID, error) {
	id := Hash(data)
	b.mu.Lock()
	_, dup := b.pending[id]
	b.mu.Unlock()
	if dup || b.s.Has(id) {
		return id, nil
	}
	b.mu.Lock()
	if b.whole == nil {
		b.whole = openWholeSync(b.s.dir)
	}
	whole := b.whole
	b.mu.Unlock()
	f, err := os.CreateTemp(filepath.Join(b.s.dir, "tmp"), id.Short()+"-*")
	if err != nil {
		return id, writeError("write", id, err)
	}
	buf := fileBufs.Get().(*[]byte)
	comp := appendFile((*buf)[:0], data)
	err = writeTemp(f, comp)
	if cap(comp) <= maxPooledFile {
		*buf = comp
		fileBufs.Put(buf)
	}
	if err != nil {
		f.Close()
		os.Remove(f.Name())
		return id, writeError("write", id, err)
	}
	if err := f.Close(); err != nil {
		os.Remove(f.Name())
		return id, writeError("write", id, err)
	}
	b.mu.Lock()
	if _, dup := b.pending[id]; dup {
		os.Remove(f.Name())
	} else {
		b.pending[id] = f.Name()
		b.written += int64(len(comp))
		b.perFile = b.perFile || whole == nil || whole != b.whole
	}
	b.mu.Unlock()
	return id, nil
}

// Has reports whether the object is in the batch or in the store.
func (b *Batch) Has(id ID) bool {
	b.mu.Lock()
	_, ok := b.pending[id]
	b.mu.Unlock()
	return ok || b.s.Has(id)
}

// Len returns the number of new objects in the batch: those committed
// and those pending.
func (b *Batch) Len() int { b.mu.Lock(); defer b.mu.Unlock(); return b.committed + len(b.pending) }

// Pending returns the number of new objects not yet committed: each holds
// a temporary file and its name in memory until Commit.
func (b *Batch) Pending() int { b.mu.Lock(); defer b.mu.Unlock(); return len(b.pending) }

// Bytes returns the compressed size of the new objects in the batch.
func (b *Batch) Bytes() int64 { b.mu.Lock(); defer b.mu.Unlock(); return b.written }

// Commit makes every object of the batch durable and visible: it makes
// the temporary files durable, renames them into place and makes the
// renames durable. A batch of wholeSyncMin objects or more does each of
// the two steps with one sync of the store's filesystem (Linux, 5.8 or
// later, where syncfs reports write-back errors); a smaller batch, or one
// elsewhere, fsyncs each file and then each directory. Either way no name
// is given to an object before its bytes are on the device
// (TestCommitSyncsBeforeNaming), and Commit returns only once the names
// are too.
func (b *Batch) Commit() error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if len(b.pending) == 0 {
		return nil
	}
	ids := make([]ID, 0, len(b.pending))
	for id := range b.pending {
		ids = append(ids, id)
	}
	sort.Slice(ids, func(i, j int) bool { return strings.Compare(ids[i].String(), ids[j].String()) < 0 })
	whole := b.whole
	if len(ids) < wholeSyncMin || b.perFile {
		whole = nil
	}
	if err := b.syncData(ids, whole); err != nil {
		return err
	}
	dirs := map[string]bool{}
	for _, id := range ids {
		dst := b.s.path(id)
		dir := filepath.Dir(dst)
		if !dirs[dir] {
			if err := os.MkdirAll(dir, 0o700); err != nil {
				return writeError("commit", id, err)
			}
			dirs[dir] = true
		}
		if err := os.Rename(b.pending[id], dst); err != nil {
			return writeError("commit", id, err)
		}
	}
	if whole != nil {
		if err := syncWhole(whole); err != nil {
			return batchError("commit", len(ids), err)
		}
	} else {
		dirs[b.s.dir] = true
		for dir := range dirs {
			if err := SyncDir(dir); err != nil {
				return err
			}
		}
	}
	b.committed += len(b.pending)
	b.pending = make(map[ID]string)
	b.closeWhole()
	return nil
}

// syncData makes the pending objects' temporary files durable: with one
// sync of the filesystem through whole, or an fsync of each when whole is
// nil.
func (b *Batch) syncData(ids []ID, whole *os.File) error {
	if whole != nil {
		if err := syncWhole(whole); err != nil {
			return batchError("sync", len(ids), err)
		}
		return nil
	}
	return parallel(ids, func(id ID) error {
		if err := syncFile(b.pending[id]); err != nil {
			return writeError("sync", id, err)
		}
		return nil
	})
}

// closeWhole closes the filesystem handle once nothing is pending; the
// next Put opens another.
func (b *Batch) closeWhole() {
	if b.whole != nil {
		b.whole.Close()
		b.whole = nil
	}
	b.perFile = false
}

// Abort removes the temporary files of objects not yet committed.
func (b *Batch) Abort() {
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, p := range b.pending {
		os.Remove(p)
	}
	b.pending = make(map[ID]string)
	b.closeWhole()
}

// ReplaceFile writes data to a private (0600) temporary file beside p,
// fsyncs it and renames it over p, so that p holds either its old bytes or
// data. The directory is not synced: callers that need the rename durable
// call SyncDir.
func ReplaceFile(p string, data []byte) error {
	f, err := os.CreateTemp(filepath.Dir(p), "."+filepath.Base(p)+"-*")
	if err != nil {
		return err
	}
	defer os.Remove(f.Name())
	_, werr := f.Write(data)
	serr := f.Sync()
	cerr := f.Close()
	if err := errors.Join(werr, serr, cerr); err != nil {
		return err
	}
	return os.Rename(f.Name(), p)
}

// SyncDir fsyncs a directory so that renames into it are durable.
func SyncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return fmt.Errorf("objects: sync dir: %w", err)
	}
	defer d.Close()
	if err := d.Sync(); err != nil {
		return fmt.Errorf("objects: sync dir: %w", err)
	}
	return nil
}

// Walk calls fn for every object in the store, in no particular order.
func (s *Store) Walk(fn func(ID) error) error {
	entries, err := os.ReadDir(s.dir)
	if err != nil {
		return fmt.Errorf("objects: walk: %w", err)
	}
	for _, e := range entries {
		if !e.IsDir() || len(e.Name()) != 2 {
			continue
		}
		sub, err := os.ReadDir(filepath.Join(s.dir, e.Name()))
		if err != nil {
			return fmt.Errorf("objects: walk: %w", err)
		}
		for _, f := range sub {
			id, err := ParseID(e.Name() + f.Name())
			if err != nil {
				continue
			}
			if err := fn(id); err != nil {
				return err
			}
		}
	}
	return nil
}

// Delete removes an object; only gc calls it.
func (s *Store) Delete(id ID) error {
	err := os.Remove(s.path(id))
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	return err
}

// CleanTemp removes temporary files left by an interrupted write.
func (s *Store) CleanTemp() error {
	tmp := filepath.Join(s.dir, "tmp")
	entries, err := os.ReadDir(tmp)
	if err != nil {
		return err
	}
	for _, e := range entries {
		os.Remove(filepath.Join(tmp, e.Name()))
	}
	return nil
}

// Size returns the compressed size on disk of an object.
func (s *Store) Size(id ID) (int64, error) {
	fi, err := os.Stat(s.path(id))
	if err != nil {
		return 0, err
	}
	return fi.Size(), nil
}

// Get reads an object of the batch, committed or not: a pending object is
// read back from its temporary file and checked like any other.
func (b *Batch) Get(id ID) ([]byte, error) {
	b.mu.Lock()
	tmp, pending := b.pending[id]
	b.mu.Unlock()
	if !pending {
		return b.s.Get(id)
	}
	raw, err := os.ReadFile(tmp)
	if err != nil {
		return nil, fmt.Errorf("objects: read pending %s: %w", id, err)
	}
	return b.s.decode(id, tmp, raw)
}
