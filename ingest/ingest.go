package ingest

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"ctx/config"
	"ctx/core"
	"ctx/index"
	"ctx/objects"
	"ctx/refs"
	"ctx/semantic"
	"ctx/store"
)

// Options configure one import.
type Options struct {
	Home     string // $CTX_HOME
	Env      core.Env
	Sources  []core.Source    // where to read; sources.Plan builds them from the config
	Version  string           // importer version recorded in the generation
	Now      func() time.Time // clock; time.Now when nil
	Workers  int              // parse workers; 2 when zero
	Progress func(Progress)   // called from one goroutine as files finish
	// Planned, when set, is called once files are planned, with the time of
	// the oldest change this run will import (the oldest modification time
	// of the files to read, or now when a file vanished); not called when
	// nothing changed.
	Planned func(oldest time.Time)
	Busy    func() // called when another import holds the store
	// Redactor, when set, replaces secrets in every event and session title
	// before anything is stored or indexed.
	Redactor Redactor
	// Semantic configures the vectors built after publishing (see
	// buildVectors); nil reads the [semantic] table of config.toml.
	Semantic *config.Semantic
	// Gate, when set, is held (besides the writer lock) for as long as the
	// writer lock is: the daemon shares one between its passes and its
	// merges so that they take turns (a sync.Mutex hands itself to the
	// longest waiter), where the writer lock alone would let back-to-back
	// passes starve a merge.
	Gate sync.Locker
	// MaxShardEvents bounds the events of a shard this run builds
	// (MaxShardEvents when zero).
	MaxShardEvents int
	// Deferred leaves shard merging and the semantic vectors out of Run
	// (see Maintain, Merge, BuildVectors: the daemon merges beside its
	// passes and builds vectors in idle time) so that freshness does not
	// wait for them; Run still merges past HardMaxSmallShards.
	Deferred bool
	// CheckpointEvents and CheckpointEvery bound the work an interrupted
	// import loses: once this many events were read, or this much time
	// passed, since the last publish, the files read so far are published
	// as a generation of their own and the import goes on, unless the
	// files left are under an eighth of those read since (see
	// checkpoint.go). Zero takes DefaultCheckpointEvents and
	// DefaultCheckpointEvery; a negative value disables that bound.
	CheckpointEvents int
	CheckpointEvery  time.Duration
	// Named, when set, is a file watcher's word on the sources since the
	// previous Run of this process began (the daemon's passes): whether
	// an event named the file at path. A file that has a cursor, that no
	// event named (nor any of its companions), and that the previous run
	// found without a problem, is taken as that run left it, without a
	// stat: at a million events the stats of every file were a fifth of a
	// pass. Only a watcher that watches every directory holding source
	// files, lost no event and saw the previous run succeed may say so.
	Named func(path string) bool
	// Exclude, when set, keeps the sessions it reports true for out of the
	// import (config.toml [exclude]); what is already stored stays (ctx
	// forget takes it out). It may look at a session's provider and
	// workspace: a streamed session whose workspace is not known when it
	// begins is parsed whole, so that nothing of an excluded one is
	// written.
	Exclude func(*core.Session) bool
}

// Redactor replaces secrets in place and counts them.
type Redactor interface {
	Event(*core.Event) int
	String(string) (string, int)
}

// Progress is reported while files are read.
type Progress struct {
	FilesDone, FilesTotal int
	Events                int
}

// Report says what an import did.
type Report struct {
	Published    bool
	Generation   *refs.Generation
	GenerationID objects.ID
	FilesSeen    int
	FilesRead    int
	// FilesContinued is the files read from where the last pass stopped,
	// by a parse held open (live.go).
	FilesContinued int
	SessionsWrote  int
	EventsRead     int
	EventsIndexed  int
	Objects        int   // new objects written
	ObjectBytes    int64 // their compressed size
	Problems       []core.Problem
	// Vectors is what the semantic pass did, VectorsErr why it failed (the
	// import itself succeeded).
	Vectors    *semantic.BuildReport
	VectorsErr error
	// ShardsMerged is how many small shards were merged into one.
	ShardsMerged int
	// Checkpoints is how many generations were published before the last
	// one, while files were still being read.
	Checkpoints int
	// SessionsForgotten and SessionsRestored are what a pull's tombstones
	// did (Adopt): sessions other machines forgot, and forgets they undid.
	SessionsForgotten, SessionsRestored int
}

type state struct {
	prevID   objects.ID
	prev     *refs.Generation
	tree     map[core.SessionID]core.TreeEntry
	cursors  map[string]core.FileCursor // by provider + "\x00" + path
	tombs    map[core.EventID]uint64    // every tombstone (see tombstones.go)
	tombBase *objects.ID                // the whole set tombs was last written as
	baseLen  int                        // its entries
	tombNew  map[core.EventID]uint64    // entries set since
	// tombDropped says an entry was dropped since (see dropTomb).
	tombDropped bool
	number      uint64
	discover    []core.Problem
	// forgotten is the sessions the user forgot (and undid): an import
	// skips them; every publish names the set (see forget.go).
	forgotten core.ForgottenSet
	// troubled holds the files (by cursor key) whose last look, by the
	// run that kept this state, met a problem it counts (a stat or a read
	// that failed), which Options.Named never lets a run pass over, so
	// that the count stays; nil when unknown (a state read from the
	// store), and then every file is looked at.
	troubled map[string]bool
}

func cursorKey(provider, path string) string { return provider + "\x00" + path }

// Run imports once and publishes a generation when anything changed.
func Run(ctx context.Context, opts Options) (*Report, error) {
	r, rs, unlock, err := begin(ctx, opts)
	if err != nil {
		return nil, err
	}
	defer unlock()
	todo := r.plan()
	r.planned(todo)
	if len(todo) == 0 && !r.changedMissing && !r.problemsChanged() {
		if !opts.Deferred {
			r.buildVectors(ctx)
		}
		return r.rep, nil
	}
	if !opts.Deferred {
		r.early = r.earlyVectors()
		defer r.closeEarly()
	}
	if err := r.importAll(ctx, rs, todo); err != nil {
		r.batch.Abort()
		return nil, err
	}
	rep, err := r.publish(ctx, rs)
	if err != nil {
		return nil, err
	}
	if rep.Published {
		r.keepPublished(rep)
	}
	if !opts.Deferred {
		r.buildVectors(ctx)
	}
	return rep, nil
}

// keepPublished keeps the run's state as the state of the generation it
// published (an import's or a merge's): what loading that generation would
// give (a checkpoint goes on from it the same way), so that the next
// import, the daemon's next pass, does not decode the session tree it just
// wrote.
//
// The kept state takes the run's maps without copying them (a copy of a
// million events' state was 4 ms of each daemon pass): nothing changes
// them once the run has published, and the next run takes a copy
// (loadedState).
func (r *run) keepPublished(rep *Report) {
	st := *r.st
	st.prevID, st.prev, st.number = rep.GenerationID, rep.Generation, rep.Generation.Number
	st.discover = nil // a loaded state holds no problems: each run finds its own
	if r.looked {
		st.troubled = r.troubled
	}
	lastLoaded.Lock()
	lastLoaded.st = &st
	lastLoaded.Unlock()
}

// Maintain is the work Options.Deferred leaves out of Run: Merge until
// nothing is left to merge, then BuildVectors for the generation left
// active. When ctx ends it stops; what it had not published is dropped and
// the next call starts over.
func Maintain(ctx context.Context, opts Options) (*Report, error) {
	rep := &Report{}
	for {
		m, err := Merge(ctx, opts)
		if err != nil {
			return rep, err
		}
		if !m.Published {
			break
		}
		merged := rep.ShardsMerged + m.ShardsMerged
		rep, rep.ShardsMerged = m, merged
	}
	v, err := BuildVectors(ctx, opts)
	if v != nil {
		rep.Vectors, rep.VectorsErr = v.Vectors, v.VectorsErr
		if !rep.Published {
			rep.GenerationID = v.GenerationID
		}
	}
	return rep, err
}

// begin takes the writer lock, repairs what a crash may have left and loads
// the active generation's state.
func begin(ctx context.Context, opts Options) (*run, *refs.Refs, func(), error) {
	return beginWith(ctx, opts, false)
}

// beginReading is begin for a writer that only reads the state (a merge's
// planning, a vector build): it shares the state this process keeps
// instead of copying it, and must change none of it.
func beginReading(ctx context.Context, opts Options) (*run, *refs.Refs, func(), error) {
	return beginWith(ctx, opts, true)
}

func beginWith(ctx context.Context, opts Options, shared bool) (*run, *refs.Refs, func(), error) {
	if opts.Gate != nil {
		opts.Gate.Lock()
	}
	w, err := store.OpenWriter(ctx, opts.Home, opts.Busy)
	if err != nil {
		if opts.Gate != nil {
			opts.Gate.Unlock()
		}
		return nil, nil, nil, err
	}
	release := func() {
		w.Close()
		if opts.Gate != nil {
			opts.Gate.Unlock()
		}
	}
	fail := func(err error) (*run, *refs.Refs, func(), error) {
		release()
		return nil, nil, nil, err
	}
	objs, rs := w.Objects, w.Refs
	_ = rs.BreakLock(refs.Active) // we hold the writer lock: a ref lock left now is stale
	if err := rs.RepairLog(refs.Active); err != nil {
		return fail(err)
	}
	_ = objs.CleanTemp()
	// Build directories a killed import or merge left (no live builder
	// holds them): the next writer removes them, not only gc.
	_, _ = index.CleanBuilds(store.At(opts.Home).Index())
	st, err := loadState(objs, rs, shared)
	if err != nil {
		return fail(err)
	}
	r := &run{opts: opts, store: objs, st: st, batch: objs.NewBatch(), rep: &Report{}, troubled: map[string]bool{}}
	if r.opts.Now == nil {
		r.opts.Now = time.Now
	}
	if r.opts.Workers <= 0 {
		r.opts.Workers = 2
	}
	return r, rs, release, nil
}

// loadState returns the state of the active generation: the one this
// process keeps when it is that generation's (a copy, unless shared), else
// decoded from the store.
func loadState(store *objects.Store, rs *refs.Refs, shared bool) (*state, error) {
	st := &state{tree: map[core.SessionID]core.TreeEntry{}, cursors: map[string]core.FileCursor{},
		tombs: map[core.EventID]uint64{}, tombNew: map[core.EventID]uint64{}, forgotten: core.ForgottenSet{}}
	id, err := rs.Get(refs.Active)
	if errors.Is(err, refs.ErrNoRef) {
		return st, nil
	}
	if err != nil {
		return nil, err
	}
	if cached := loadedState(id, shared); cached != nil {
		return cached, nil
	}
	g, err := refs.Load(store, id)
	if err != nil {
		return nil, err
	}
	if cached := loadedSame(id, g, shared); cached != nil {
		return cached, nil
	}
	st.prevID, st.prev, st.number = id, g, g.Number
	tree, err := core.LoadSharedTree(store, g.Tree)
	if err != nil {
		return nil, err
	}
	for _, e := range tree.Sessions {
		st.tree[e.Session] = e
	}
	cur, err := core.LoadCursors(store, g.Cursors)
	if err != nil {
		return nil, err
	}
	for _, c := range cur.Files {
		st.cursors[cursorKey(c.Provider, c.Path)] = c
	}
	if err := st.loadTombstones(store, g); err != nil {
		return nil, err
	}
	if st.forgotten, err = core.LoadForgotten(store, g.Forgotten); err != nil {
		return nil, err
	}
	if shared {
		lastLoaded.Lock()
		lastLoaded.st = st
		lastLoaded.Unlock()
	} else {
		keepLoaded(st)
	}
	return st, nil
}

// lastLoaded keeps the state the last import in this process read, by its
// generation's id: the daemon answers every wake with a pass, and when
// nothing changed the next pass reads the same generation again. A
// generation never changes, so a copy of what was decoded is what decoding
// would give (at 1,000,000 events: 40 ms of a 69 ms pass saved).
var lastLoaded struct {
	sync.Mutex
	st *state
}

// loadedState returns the state of generation id when it is the one last
// read (a copy, unless shared), else nil.
func loadedState(id objects.ID, shared bool) *state {
	lastLoaded.Lock()
	defer lastLoaded.Unlock()
	if lastLoaded.st == nil || lastLoaded.st.prevID != id {
		return nil
	}
	if shared {
		return lastLoaded.st
	}
	return lastLoaded.st.clone()
}

// loadedSame returns a copy of the state last read when generation g (of
// id) names the same tree, cursors, tombstones and forgotten set as its
// generation, else nil. Those are all a state is read from, so it is g's
// state with g as the parent: the generations that merge shards or add
// vectors, which the daemon publishes after each pass, change none of
// them.
func loadedSame(id objects.ID, g *refs.Generation, shared bool) *state {
	lastLoaded.Lock()
	defer lastLoaded.Unlock()
	last := lastLoaded.st
	if last == nil || last.prev == nil || !sameContent(last.prev, g) {
		return nil
	}
	var st *state
	if shared {
		cp := *last // the maps shared, the generation its own
		st = &cp
	} else {
		st = last.clone()
	}
	st.prevID, st.prev, st.number = id, g, g.Number
	return st
}

// sameContent reports whether two generations name the same objects of
// what an import reads back (loadState).
func sameContent(a, b *refs.Generation) bool {
	same := func(x, y *objects.ID) bool { return (x == nil) == (y == nil) && (x == nil || *x == *y) }
	return a.Tree == b.Tree && a.Cursors == b.Cursors && same(a.Tombstones, b.Tombstones) &&
		same(a.TombstonesBase, b.TombstonesBase) && same(a.Forgotten, b.Forgotten)
}

func keepLoaded(st *state) {
	lastLoaded.Lock()
	lastLoaded.st = st.clone()
	lastLoaded.Unlock()
}

// clone copies st's maps; the generation it read is shared (never changed).
func (st *state) clone() *state {
	cp := *st
	cp.tree, cp.cursors = maps.Clone(st.tree), maps.Clone(st.cursors)
	cp.tombs, cp.tombNew = maps.Clone(st.tombs), maps.Clone(st.tombNew)
	cp.discover = slices.Clone(st.discover)
	cp.forgotten = maps.Clone(st.forgotten)
	cp.troubled = maps.Clone(st.troubled)
	return &cp
}

type run struct {
	opts           Options
	store          *objects.Store
	st             *state
	batch          *objects.Batch
	rep            *Report
	changedMissing bool
	forgetChanged  bool            // a forget or its undo changed the forgotten set
	looked         bool            // plan ran: troubled holds what this run met
	troubled       map[string]bool // files whose stat or read failed (see state.troubled)
	newShards      []index.ShardMeta
	mergedAway     []string         // shards this run built and merged before publishing them
	early          *semantic.Early  // the vectors of the chunks written, for buildVectors; nil: none
	indexed        []indexedSession // the sessions whose new chunks went to newShards
	sessions       sync.Map         // core.SessionID → *sync.Mutex (see lockSession)
	merged         []refs.Merged    // the other machines' commits a merge generation names
	message        string           // the reflog message, when not an import's
	mu             sync.Mutex
	filesDone      int           // files finished, for Progress
	filesTotal     int           // files planned
	segStart       time.Time     // when the work since the last publish began
	segEvents      int           // EventsRead when it began
	heap           core.HeapHold // bounds the heap while a huge record is in flight, until the index build ends
}

type job struct {
	file       core.SourceFile
	prov       core.Provider
	size       int64
	mtime      time.Time
	companions string
}

// companionStamp fingerprints a file's companions by size and mtime; a
// missing companion stamps as "-".
func companionStamp(paths []string) string {
	if len(paths) == 0 {
		return ""
	}
	var b strings.Builder
	for _, p := range paths {
		if fi, err := os.Stat(p); err == nil {
			fmt.Fprintf(&b, "%d:%d;", fi.Size(), fi.ModTime().UnixNano())
		} else {
			b.WriteString("-;")
		}
	}
	return b.String()
}

// plan discovers files and returns those that must be read. A file found
// by two sources (a configured root over a default location) is read once,
// by the first source that lists it.
func (r *run) plan() []job {
	var todo []job
	seen := map[string]bool{}
	r.looked = true
	for _, src := range r.opts.Sources {
		p := src.Provider
		files, problems := src.Discover(r.opts.Env)
		r.st.discover = append(r.st.discover, problems...)
		volatile := false
		if v, ok := p.(core.Volatile); ok {
			volatile = v.Volatile()
		}
		for _, f := range files {
			key := cursorKey(f.Provider, f.Path)
			if seen[key] {
				continue
			}
			seen[key] = true
			r.rep.FilesSeen++
			if volatile {
				todo = append(todo, job{file: f, prov: p})
				continue
			}
			if r.quiet(key, f) {
				continue
			}
			fi, err := os.Stat(f.Path)
			if err != nil {
				r.st.discover = append(r.st.discover, core.Problem{Code: statCode(err), Provider: f.Provider, Path: f.Path})
				r.trouble(key)
				continue
			}
			stamp := companionStamp(f.Companions)
			if c, ok := r.st.cursors[key]; ok && c.Unchanged(fi.Size(), fi.ModTime(), stamp) {
				continue
			}
			todo = append(todo, job{file: f, prov: p, size: fi.Size(), mtime: fi.ModTime().UTC(), companions: stamp})
		}
	}
	active := map[string]bool{}
	for _, src := range r.opts.Sources {
		active[src.Provider.Name()] = true
	}
	for key, c := range r.st.cursors {
		if active[c.Provider] && !seen[key] && !c.Missing {
			c.Missing = true
			r.st.cursors[key] = c
			r.changedMissing = true
		}
	}
	sort.Slice(todo, func(i, j int) bool { return todo[i].size > todo[j].size })
	return todo
}

// quiet reports whether the file of key can be taken as the previous run
// left it, without a stat (see Options.Named).
func (r *run) quiet(key string, f core.SourceFile) bool {
	named := r.opts.Named
	if named == nil || r.st.troubled == nil || r.st.troubled[key] {
		return false
	}
	c, ok := r.st.cursors[key]
	return ok && !c.Missing && !named(f.Path) && !slices.ContainsFunc(f.Companions, named)
}

// trouble notes that the file of key met a problem this run counts.
func (r *run) trouble(key string) {
	r.mu.Lock()
	r.troubled[key] = true
	r.mu.Unlock()
}

// planned reports the oldest change of the plan to Options.Planned.
// Volatile files (re-read every run) carry no modification time and do not
// count.
func (r *run) planned(todo []job) {
	if r.opts.Planned == nil {
		return
	}
	var oldest time.Time
	if r.changedMissing {
		oldest = r.opts.Now()
	}
	for _, j := range todo {
		if !j.mtime.IsZero() && (oldest.IsZero() || j.mtime.Before(oldest)) {
			oldest = j.mtime
		}
	}
	if !oldest.IsZero() {
		r.opts.Planned(oldest)
	}
}

func statCode(err error) string {
	var re *core.ReadError
	if errors.As(err, &re) {
		return re.Code
	}
	if errors.Is(err, fs.ErrNotExist) {
		return core.ProblemFileVanished
	}
	return core.ProblemUnreadable
}

func (r *run) progress(done, total int) {
	if r.opts.Progress != nil {
		r.opts.Progress(Progress{FilesDone: done, FilesTotal: total, Events: r.rep.EventsRead})
	}
}

// MaxShardEvents bounds the events of a shard an import or a pull builds.
// bleve's builder merges a shard's segments at its end, holding the
// merged term dictionary of each field in memory and mapping every
// segment: without a bound that is a cost in the size of the import (a
// shard's dictionary of event ids alone is 12 MB at 1,000,000 events).
// Scores do not depend on how shards are cut (index.stats), and a shard
// of this size is far past SmallShardDocs, so merges leave it alone.
const MaxShardEvents = 1 << 18

func (r *run) maxShardEvents() int { return cmp.Or(r.opts.MaxShardEvents, MaxShardEvents) }

// shardBuild is the index build of the sessions a run writes, fed on docs
// beside the writes.
type shardBuild struct {
	docs   chan index.Doc
	done   chan struct{}
	heap   *core.HeapHold // the run's, released when the build ends
	shards []index.ShardMeta
	err    error
}

// startBuild starts building shards from what is sent on the build's
// docs. A failed build cancels the run's work and drains docs, so that
// writers never block.
func (r *run) startBuild(ctx context.Context, cancel context.CancelFunc) *shardBuild {
	b := &shardBuild{docs: make(chan index.Doc, 4096), done: make(chan struct{}), heap: &r.heap}
	go func() {
		defer close(b.done)
		b.shards, b.err = index.BuildShards(ctx, store.At(r.opts.Home).Index(), b.docs,
			index.BuildOptions{MaxShardDocs: r.maxShardEvents()})
		if b.err != nil {
			cancel()
			for range b.docs {
			}
		}
	}()
	return b
}

// wait ends the build's input and returns its shards.
func (b *shardBuild) wait() ([]index.ShardMeta, error) {
	close(b.docs)
	<-b.done
	b.heap.Release()
	if b.err != nil {
		return nil, fmt.Errorf("index: %w", b.err)
	}
	return b.shards, nil
}

// importFiles parses the files on worker goroutines, stores their sessions
// and streams new chunks to the index builder running beside them. It
// stops handing out files once a checkpoint is due (the files already
// handed out are finished) and returns how many of todo it imported.
func (r *run) importFiles(ctx context.Context, todo []job) (int, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	build := r.startBuild(ctx, cancel)
	docs := build.docs
	// Workers take the next file themselves, so that the checkpoint check
	// runs after the file before it is counted.
	fed := 0
	var done, left int64 // bytes of the files handed out, and of the others
	for _, j := range todo {
		left += j.size
	}
	next := func() (job, bool) {
		r.mu.Lock()
		defer r.mu.Unlock()
		if fed == len(todo) || ctx.Err() != nil || (fed > 0 && r.checkpointDue() && !endNear(done, left)) {
			return job{}, false
		}
		fed++
		done, left = done+todo[fed-1].size, left-todo[fed-1].size
		return todo[fed-1], true
	}
	var wg sync.WaitGroup
	var firstErr error
	var errOnce sync.Once
	for w := 0; w < r.opts.Workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j, ok := next(); ok; j, ok = next() {
				if err := r.importFile(ctx, j, docs); err != nil {
					errOnce.Do(func() { firstErr = err; cancel() })
				}
				r.mu.Lock()
				r.filesDone++
				r.progress(r.filesDone, r.filesTotal)
				r.mu.Unlock()
			}
		}()
	}
	wg.Wait()
	shards, buildErr := build.wait()
	if firstErr != nil {
		return 0, firstErr
	}
	if buildErr != nil {
		return 0, buildErr
	}
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	r.newShards = shards
	return fed, nil
}
