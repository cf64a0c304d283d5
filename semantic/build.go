package semantic

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"time"

	"ctx/core"
	"ctx/objects"
	"ctx/refs"
)

// Build defaults.
const (
	// DefaultMaxSetRows bounds the rows of one set, and so the memory a
	// build holds (about 420 bytes a row at 384 dimensions).
	DefaultMaxSetRows = 1 << 18
	// DefaultMaxSets is the number of sets past which the small ones are
	// merged into one.
	DefaultMaxSets = 8
	// maxBaseDepth bounds how many parent generations Build looks through
	// for vectors to reuse.
	maxBaseDepth = 64
)

// BuildOptions configure Build.
type BuildOptions struct {
	Dir        string         // the vectors directory (store.Layout.Vectors)
	Objects    objects.Getter // the object store
	Generation objects.ID     // the generation to cover
	Embedder   Embedder
	// Early holds rows of chunks embedded before the build (an import's,
	// made with Embedder): those chunks are not read back.
	Early      *Early
	Workers    int // embedding goroutines; GOMAXPROCS when zero
	MaxSetRows int // DefaultMaxSetRows when zero
	MaxSets    int // DefaultMaxSets when zero
}

// BuildReport says what Build did.
type BuildReport struct {
	Built    bool   // a manifest was written for the generation
	Embedder string // the embedder id
	Dim      int
	Reused   int // sets carried over from an earlier generation's vectors
	Chunks   int // chunks read from the store
	Early    int // chunks whose rows were made early (BuildOptions.Early)
	Embedded int // events embedded
	Vectors  int // live vectors of the generation
	Sets     int // sets of the generation
	Merged   int // small sets merged into a new one
	Took     time.Duration
}

// Build makes sure that generation o.Generation has vectors of o.Embedder:
// every message and summary event with text (the transcript projection) of
// its tree, embedded, in vector sets listed by the generation's manifest.
// Vectors of the nearest ancestor generation with the same embedder are
// reused: only the chunks that generation did not cover are read and
// embedded, and the rows of chunks no longer in the tree are marked dead.
// Nothing is done when the generation already has compatible vectors.
// Callers hold the store's writer lock: two builds must not run at once.
func Build(ctx context.Context, o BuildOptions) (*BuildReport, error) {
	start := time.Now()
	if o.Workers <= 0 {
		o.Workers = runtime.GOMAXPROCS(0)
	}
	if o.MaxSetRows <= 0 {
		o.MaxSetRows = DefaultMaxSetRows
	}
	if o.MaxSets <= 0 {
		o.MaxSets = DefaultMaxSets
	}
	if o.Early != nil && (o.Early.Embedder().ID() != o.Embedder.ID() || o.Early.Embedder().Dim() != o.Embedder.Dim()) {
		o.Early = nil // rows of another space: every chunk is read
	}
	rep := &BuildReport{Embedder: o.Embedder.ID()}
	if m, err := LoadManifest(o.Dir, o.Generation); err == nil && m.Compatible(o.Embedder) {
		rep.Dim, rep.Vectors, rep.Sets = m.Dim, m.Vectors, len(m.Sets)
		return rep, nil
	}
	if err := os.MkdirAll(o.Dir, 0o700); err != nil {
		return nil, err
	}
	removeBuilds(o.Dir)
	b, err := newBuild(ctx, o, rep)
	if err != nil {
		return nil, err
	}
	defer b.close()
	if err := b.run(ctx); err != nil {
		b.removeNew()
		return nil, err
	}
	rep.Took = time.Since(start)
	return rep, nil
}

// build is the state of one Build.
type build struct {
	o       BuildOptions
	rep     *BuildReport
	gen     *refs.Generation
	dim     int
	baseGen *refs.Generation // nil: everything is embedded
	sets    []*Set           // open sets: carried, then new
	refs    []SetRef         // parallel to sets
	fresh   map[string]bool  // sets written by this build
	covered map[objects.ID]loc
}

// loc is a live chunk of a carried set.
type loc struct {
	set int
	idx uint32
}

func newBuild(ctx context.Context, o BuildOptions, rep *BuildReport) (*build, error) {
	gen, err := refs.Load(o.Objects, o.Generation)
	if err != nil {
		return nil, err
	}
	if o.Embedder.Dim() == 0 { // learn the dimension from the server
		if _, err := o.Embedder.Embed(ctx, []string{"dimension probe"}); err != nil {
			return nil, err
		}
	}
	b := &build{o: o, rep: rep, gen: gen, dim: o.Embedder.Dim(), fresh: map[string]bool{},
		covered: map[objects.ID]loc{}}
	rep.Dim = b.dim
	b.loadBase()
	return b, nil
}

func (b *build) run(ctx context.Context) error {
	todo, err := b.diff()
	if err != nil {
		return err
	}
	if err := b.embed(ctx, todo); err != nil {
		return err
	}
	if err := b.compact(); err != nil {
		return err
	}
	m := &Manifest{Format: setFormat, Generation: b.o.Generation, Number: b.gen.Number, Embedder: b.rep.Embedder,
		Dim: b.dim, Created: time.Now().UTC(), Sets: []SetRef{}}
	for i, s := range b.sets {
		live := s.Len() - countTrue(deadRows(s, b.refs[i].Dead))
		if live == 0 && b.refs[i].Chunks-len(b.refs[i].Dead) == 0 {
			continue // nothing of it is in this generation
		}
		m.Sets = append(m.Sets, b.refs[i])
		m.Vectors += live
	}
	if err := writeManifest(b.o.Dir, m); err != nil {
		return err
	}
	b.rep.Built, b.rep.Vectors, b.rep.Sets = true, m.Vectors, len(m.Sets)
	return nil
}

// loadBase finds the nearest ancestor with vectors of the same embedder and
// dimension and opens its sets; on any trouble the build starts afresh.
func (b *build) loadBase() {
	parent := b.gen.Parent
	for depth := 0; parent != nil && depth < maxBaseDepth; depth++ {
		g, err := refs.Load(b.o.Objects, *parent)
		if err != nil {
			return
		}
		m, err := LoadManifest(b.o.Dir, *parent)
		if err == nil && m.Embedder == b.rep.Embedder && m.Dim == b.dim {
			if b.openBase(m) {
				b.baseGen = g
			}
			return
		}
		parent = g.Parent
	}
}

func (b *build) openBase(m *Manifest) bool {
	for _, ref := range m.Sets {
		s, err := openSet(b.o.Dir, ref.Name)
		if err != nil || s.Info.Dim != b.dim || s.Len() != ref.Count {
			if s != nil {
				_ = s.Close()
			}
			b.close()
			b.sets, b.refs, b.covered = nil, nil, map[objects.ID]loc{}
			return false
		}
		ref.Dead = append([]uint32(nil), ref.Dead...)
		dead := map[uint32]bool{}
		for _, c := range ref.Dead {
			dead[c] = true
		}
		for c := range uint32(ref.Chunks) {
			if !dead[c] {
				b.covered[s.chunkID(c)] = loc{set: len(b.sets), idx: c}
			}
		}
		b.sets, b.refs = append(b.sets, s), append(b.refs, ref)
	}
	b.rep.Reused = len(b.sets)
	return true
}

func (b *build) close() {
	for _, s := range b.sets {
		_ = s.Close()
	}
}

// removeNew deletes the sets this build wrote (no manifest names them).
func (b *build) removeNew() {
	for name := range b.fresh {
		_ = os.RemoveAll(filepath.Join(b.o.Dir, name))
	}
}

// removeBuilds deletes set directories left half-written by a crash, and
// an Early's file where a system could not remove it while open.
func removeBuilds(dir string) {
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), ".build-") || strings.HasPrefix(e.Name(), ".early-") {
			_ = os.RemoveAll(filepath.Join(dir, e.Name()))
		}
	}
}

// chunkJob is a chunk to read and embed, with its session.
type chunkJob struct {
	ref     core.ChunkRef
	session *core.Session
}

// chunkResult is a read and embedded chunk.
type chunkResult struct {
	job    chunkJob
	early  *earlyRows // the rows, made early; events and vecs are nil
	events []*core.Event
	vecs   [][]float32
	err    error
}

// InProjection reports whether an event belongs to the semantic projection:
// a message or summary (spec 000: the transcript) with text.
func InProjection(e *core.Event) bool {
	return projected(e.Type) && strings.TrimSpace(e.Text) != ""
}

// projected reports whether events of type t can be in the projection:
// only theirs are decoded from a chunk.
func projected(t core.EventType) bool {
	c := t.Class()
	return c == core.ClassMessage || c == core.ClassSummary
}

// embed reads and embeds the chunks on o.Workers goroutines and writes
// their rows into new sets of at most o.MaxSetRows rows.
func (b *build) embed(ctx context.Context, todo []chunkJob) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	jobs, results := make(chan chunkJob), make(chan chunkResult, b.o.Workers)
	go func() {
		defer close(jobs)
		for _, j := range todo {
			select {
			case jobs <- j:
			case <-ctx.Done():
				return
			}
		}
	}()
	var wg sync.WaitGroup
	for range b.o.Workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range jobs {
				results <- b.embedChunk(ctx, j)
			}
		}()
	}
	go func() { wg.Wait(); close(results) }()
	err := b.collect(results)
	if err != nil {
		cancel()
		for range results { // let the workers finish
		}
	}
	return err
}

func (b *build) embedChunk(ctx context.Context, j chunkJob) chunkResult {
	r := chunkResult{job: j}
	if rows, ok := b.o.Early.take(j.ref.ID); ok {
		r.early = &rows
		return r
	}
	events, err := core.LoadChunkEvents(b.o.Objects, j.ref.ID, projected)
	if err != nil {
		r.err = err
		return r
	}
	var texts []string
	for i := range events {
		if e := &events[i]; InProjection(e) {
			r.events, texts = append(r.events, e), append(texts, e.Text)
		}
	}
	if len(texts) > 0 {
		r.vecs, r.err = b.o.Embedder.Embed(ctx, texts)
	}
	return r
}

// collect adds the embedded chunks to set builders, writing a set each time
// one is full and once at the end.
func (b *build) collect(results <-chan chunkResult) error {
	sb := newSetBuilder(b.o.Dir, b.dim)
	err := b.collectInto(&sb, results)
	if err != nil {
		sb.discard()
		return err
	}
	return b.flush(sb)
}

func (b *build) collectInto(sb **setBuilder, results <-chan chunkResult) error {
	for r := range results {
		if r.err != nil {
			return fmt.Errorf("semantic: embed chunk %s: %w", r.job.ref.ID.Short(), r.err)
		}
		(*sb).addChunk(r.job.ref.ID)
		if c := r.early; c != nil {
			b.rep.Early++
			for i, m := range c.rows {
				m = placed(m, r.job.session, c.own[i], r.job.ref.ID)
				if err := (*sb).addRow(c.codes[i*b.dim:(i+1)*b.dim], c.scales[i], m); err != nil {
					return err
				}
				b.rep.Embedded++
			}
		} else {
			b.rep.Chunks++
		}
		for i, e := range r.events {
			if len(r.vecs[i]) != b.dim {
				return fmt.Errorf("%w: a vector of %d dimensions, want %d", ErrEmbedder, len(r.vecs[i]), b.dim)
			}
			if err := (*sb).add(e, r.job.session, r.job.ref.ID, r.vecs[i]); err != nil {
				return err
			}
			b.rep.Embedded++
		}
		if (*sb).rows() >= b.o.MaxSetRows {
			if err := b.flush(*sb); err != nil {
				return err
			}
			*sb = newSetBuilder(b.o.Dir, b.dim)
		}
	}
	return nil
}

// flush writes a builder's set and opens it; an empty builder writes
// nothing.
func (b *build) flush(sb *setBuilder) error {
	if len(sb.chunks) == 0 {
		sb.discard()
		return nil
	}
	info, err := sb.write(b.rep.Embedder, b.gen.Number)
	if err != nil {
		return err
	}
	b.fresh[info.Name] = true
	s, err := openSet(b.o.Dir, info.Name)
	if err != nil {
		return err
	}
	b.sets = append(b.sets, s)
	b.refs = append(b.refs, SetRef{Name: info.Name, Count: info.Count, Chunks: info.Chunks, Generation: b.gen.Number})
	return nil
}
