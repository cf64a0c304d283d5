package index

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strconv"

	"ctx/core"
)

// shardWriter builds one shard in a temporary directory under the root and
// publishes it under its final name once sealed and verified.
type shardWriter struct {
	name, root, tmp string
	opts            BuildOptions
	be              *builder
	seen            core.KeySet // the event ids indexed
	sc              termScratch // what building a group's document reuses
	lock            *os.File    // the build lock on tmp, held until sealed or aborted
}

func newShardWriter(root string, opts BuildOptions) (*shardWriter, error) {
	name, err := newShardName()
	if err != nil {
		return nil, err
	}
	w := &shardWriter{name: name, root: root, tmp: filepath.Join(root, buildPrefix+name), opts: opts}
	if w.lock, err = lockBuildDir(w.tmp); err != nil {
		return nil, shardErr(name, "build", errBuildFailed, err)
	}
	if w.be, err = newBuilder(w.tmp, opts); err != nil {
		w.unlock()
		_ = os.RemoveAll(w.tmp)
		return nil, shardErr(name, "build", errBuildFailed, err)
	}
	return w, nil
}

// unlock releases the build lock (see leftovers.go).
func (w *shardWriter) unlock() {
	if w.lock != nil {
		_ = w.lock.Close()
		w.lock = nil
	}
}

func newShardName() (string, error) {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", fmt.Errorf("index: shard name: %w", err)
	}
	return hex.EncodeToString(b[:]), nil
}

func (w *shardWriter) events() int { return w.seen.Len() }

// add indexes a group as one document named by its first event (and the
// pieces of its long texts as documents named after it, see
// newShardDocs). An event
// id the shard already holds keeps its first version.
func (w *shardWriter) add(ctx context.Context, g *chunkGroup) error {
	kept := &chunkGroup{session: g.session, chunk: g.chunk}
	for i, e := range g.events {
		if !w.seen.Add(e.ID) {
			continue
		}
		kept.events, kept.pos = append(kept.events, e), append(kept.pos, g.pos[i])
	}
	if len(kept.events) == 0 {
		return nil
	}
	id := kept.events[0].ID.String()
	err := newShardDocs(kept, &w.sc, func(piece int, d *shardDoc) error {
		if piece == 0 {
			return w.be.index(ctx, id, d)
		}
		return w.be.index(ctx, id+"~"+strconv.Itoa(piece), d)
	})
	if err != nil {
		return shardErr(w.name, "build", errBuildFailed, err)
	}
	return nil
}

// finish closes the index durably, makes the directory private and durable,
// moves it to its final name and verifies it by reopening. On error the
// shard is removed. Its merge (the builder's close) waits for the build's
// merges gate; last says that the build's input has ended (see mergeGate).
func (w *shardWriter) finish(ctx context.Context, merges *mergeGate, last bool) (ShardMeta, error) {
	defer w.unlock()
	docs := w.seen.Len()
	if err := w.seen.Err(); err != nil { // an event may have been left out as indexed already
		w.seen.Close()
		w.abort()
		return ShardMeta{}, shardErr(w.name, "build", errBuildFailed, err)
	}
	w.seen.Close() // before the merge, which is the build's peak
	// The segments written so far: the last batch's is one more, small.
	var bytes int64
	if last {
		bytes = dirSize(w.tmp)
	}
	done, err := merges.acquire(ctx, last, bytes)
	if err != nil {
		w.abort()
		return ShardMeta{}, err
	}
	err = w.be.close(ctx)
	done()
	if err != nil {
		w.abort()
		return ShardMeta{}, shardErr(w.name, "build", errBuildFailed, err)
	}
	sums, err := writeSums(w.tmp)
	var size int64
	if err == nil {
		size, err = seal(w.tmp)
	}
	if err == nil {
		err = publishDir(w.tmp, filepath.Join(w.root, w.name))
	}
	if err != nil {
		_ = os.RemoveAll(w.tmp)
		return ShardMeta{}, shardErr(w.name, "build", errBuildFailed, err)
	}
	m := ShardMeta{Name: w.name, Docs: docs, Bytes: size, Sums: &sums}
	if err := VerifyShard(w.root, m); err != nil {
		_ = os.RemoveAll(filepath.Join(w.root, w.name))
		return ShardMeta{}, err
	}
	return m, nil
}

// abort stops the shard and removes its temporary directory.
func (w *shardWriter) abort() {
	w.seen.Close()
	w.be.abort()
	_ = os.RemoveAll(w.tmp)
	w.unlock()
}
