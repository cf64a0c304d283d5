package daemon

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"os"
	"strconv"
	"sync"
	"syscall"
	"time"

	"ctx/core"
	"ctx/ingest"
	"ctx/maint"
	"ctx/store"
	"ctx/wake"
)

// Defaults of Options.
const (
	DefaultRescan   = 30 * time.Second
	DefaultDebounce = 150 * time.Millisecond
	// DefaultCollect is how often, at most, an idle daemon runs gc.
	DefaultCollect = 10 * time.Minute
)

// ErrRunning is returned by Run when another daemon holds the store.
var ErrRunning = errors.New("a ctx daemon is already running for this store")

// Options configure a daemon.
type Options struct {
	Home string // $CTX_HOME
	Env  core.Env
	// Sources returns the sources to watch and import; it is called at start
	// and on every rescan, so configuration changes are picked up.
	Sources func() ([]core.Source, error)
	// Log, when set, receives a copy of every log line (the log file in
	// $CTX_HOME/logs is always written).
	Log      io.Writer
	Redactor ingest.Redactor
	// Exclude is config.toml's [exclude] as the daemon started (nil: none).
	Exclude  func(*core.Session) bool
	Rescan   time.Duration // slow rescan period; DefaultRescan when zero
	Debounce time.Duration // file event batching; DefaultDebounce when zero
	Version  string        // importer version recorded in generations
	// Collect is how often, at most, the daemon collects what no kept
	// generation reaches (maint.GC, between passes, as the vectors are):
	// DefaultCollect when zero, never when negative.
	Collect time.Duration
	// Keep is that gc's horizon (maint.DefaultKeep when zero).
	Keep time.Duration
	// Search, when set, answers the socket's search op: the app layer's
	// JSON request in, its JSON result out (see wake.Search), and whether
	// the search left a damaged shard out (the daemon then repairs it).
	Search func(ctx context.Context, req []byte) (result []byte, damaged bool, err error)
	// Command, when set, answers the socket's run op: a ctx command line
	// run in the daemon for the ctx front, with the client's directory and
	// environment, over the same open shards; it refuses the commands it
	// does not serve.
	Command func(ctx context.Context, req Request) (RunOutput, error)
}

// Run is the daemon: it takes the daemon lock, listens on the socket,
// watches the sources and imports until ctx ends or a stop request comes.
// It returns ErrRunning (wrapped, naming the pid) when another daemon runs.
func Run(ctx context.Context, opts Options) error {
	if opts.Rescan <= 0 {
		opts.Rescan = DefaultRescan
	}
	if opts.Debounce <= 0 {
		opts.Debounce = DefaultDebounce
	}
	if opts.Collect == 0 {
		opts.Collect = DefaultCollect
	}
	if opts.Keep <= 0 {
		opts.Keep = maint.DefaultKeep
	}
	lock, err := lockDaemon(opts.Home)
	if err != nil {
		return err
	}
	defer unlockDaemon(lock)
	lf, err := openLog(opts.Home)
	if err != nil {
		return err
	}
	defer lf.Close()
	var w io.Writer = lf
	if opts.Log != nil {
		w = io.MultiWriter(lf, opts.Log)
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	d := newDaemon(opts, log.New(w, "", log.LstdFlags|log.Lmicroseconds), cancel)
	d.lock, _ = lock.Stat()
	return d.serve(ctx)
}

// lockDaemon takes the daemon lock and writes our pid into it.
func lockDaemon(home string) (*os.File, error) {
	if err := os.MkdirAll(home, 0o700); err != nil {
		return nil, fmt.Errorf("daemon lock: %w", err)
	}
	f, err := os.OpenFile(store.At(home).DaemonLock(), os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("daemon lock: %w", err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			if pid := LockedPID(home); pid > 0 {
				return nil, fmt.Errorf("%w (pid %d)", ErrRunning, pid)
			}
			return nil, ErrRunning
		}
		return nil, fmt.Errorf("daemon lock: %w", err)
	}
	if err := f.Truncate(0); err == nil {
		_, _ = f.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0)
	}
	return f, nil
}

// LockedPID returns the pid written in the daemon lock when that process
// is alive, else 0 (see wake.LockedPID).
func LockedPID(home string) int { return wake.LockedPID(home) }

// unlockDaemon clears the pid and releases the daemon lock.
func unlockDaemon(f *os.File) {
	_ = f.Truncate(0)
	_ = f.Close()
}

// daemon is the running state shared by the watcher, the passes and the
// socket handlers.
type daemon struct {
	opts    Options
	log     *log.Logger
	stop    context.CancelFunc
	started time.Time
	kick    chan struct{} // buffered 1: a pass is wanted
	// mergeKick (buffered 1) asks mergeLoop to look for shards to merge.
	mergeKick chan struct{}
	// repairKick (buffered 1) asks repairLoop to check the shards.
	repairKick chan struct{}
	// collectKick (buffered 1) asks for a gc when one is due (collect).
	collectKick chan struct{}
	gate        sync.Mutex // passes, merges and vectors take turns at the writer lock

	mu        sync.Mutex
	interrupt context.CancelFunc // stops the running maintenance; nil when none runs
	requested uint64             // requests made
	served    uint64             // requests served by a finished pass
	done      chan struct{}      // closed and replaced when a pass finishes
	last      passResult
	lastAt    time.Time
	merged    uint64          // the generation the last merge or repair published
	collected time.Time       // when the last gc ended (collect's alone)
	repair    *wake.Repair    // the last repair of damaged shards
	gc        *wake.Collected // the last gc
	pending   time.Time       // oldest source change not yet published; zero when none
	passing   bool            // a pass is running
	next      time.Time       // oldest change noted since the running pass began
	watching  int
	searches  uint64                   // searches answered
	lost      bool                     // watch events were lost; cleared by the next pass that rediscovers
	marks     map[string]chan struct{} // settle markers waited for, by path
	lock      os.FileInfo              // the daemon lock this daemon holds
	markSeq   uint64
	fileDirs  map[string]bool // directories holding source files
	roots     []string        // source roots
	above     map[string]bool // watched only for the roots (see watchPlan)
	rewatch   bool            // rediscover and add watches before the next pass
	// named holds the files events named since the running pass began
	// (or the last one, between passes); the next pass stats only these
	// and the files outside the watched directories (ingest.Options.Named)
	// when watchedAll, no event was lost, nothing was created, removed or
	// renamed (rewatch), and the pass before succeeded (lastOK).
	named      map[string]bool
	watchedAll bool // every directory holding source files is watched
	lastOK     bool // the last pass succeeded
	// whole says a request came that did not wait for the event loop to
	// note the events before it (a sync, a hook, a search whose settle
	// timed out): the next pass stats every file, since an event in
	// flight is not in named yet.
	whole bool
	ln    *net.UnixListener
	wg    *sync.WaitGroup // the pass loop, accept loops and handlers
	conns chan struct{}   // semaphore bounding concurrent requests
}

// passResult is what a finished pass reports to the syncs it served.
type passResult struct {
	Generation    uint64
	Published     bool
	FilesRead     int
	EventsIndexed int
	Err           error
}

func newDaemon(opts Options, lg *log.Logger, stop context.CancelFunc) *daemon {
	return &daemon{opts: opts, log: lg, stop: stop, started: time.Now(), kick: make(chan struct{}, 1), marks: map[string]chan struct{}{}, mergeKick: make(chan struct{}, 1),
		repairKick: make(chan struct{}, 1), collectKick: make(chan struct{}, 1), done: make(chan struct{}), rewatch: true, conns: make(chan struct{}, MaxConns)}
}

// requestWhole is request for a caller that did not settle: the pass
// that serves it stats every file (see whole).
func (d *daemon) requestWhole() uint64 {
	d.mu.Lock()
	d.whole = true
	d.mu.Unlock()
	return d.request()
}

// request asks for a pass and returns the request's number; a pass that
// begins after this call serves it.
func (d *daemon) request() uint64 {
	d.mu.Lock()
	d.requested++
	n := d.requested
	if d.interrupt != nil {
		d.interrupt()
	}
	d.mu.Unlock()
	select {
	case d.kick <- struct{}{}:
	default:
	}
	return n
}

// await waits until request n is served or ctx ends.
func (d *daemon) await(ctx context.Context, n uint64) (passResult, error) {
	for {
		d.mu.Lock()
		if d.served >= n {
			r := d.last
			d.mu.Unlock()
			return r, nil
		}
		ch := d.done
		d.mu.Unlock()
		select {
		case <-ch:
		case <-ctx.Done():
			return passResult{}, ctx.Err()
		}
	}
}

// ownsStore reports whether the daemon lock file this daemon holds is
// still the store's: when the store was deleted (or its lock replaced),
// another daemon could start on it, and this one must stop.
func (d *daemon) ownsStore() bool {
	if d.lock == nil {
		return true
	}
	st, err := os.Stat(store.At(d.opts.Home).DaemonLock())
	return err == nil && os.SameFile(st, d.lock)
}
