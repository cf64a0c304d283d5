// Package wire declares the messages of the daemon's wake protocol: one
// JSON request line on the store's socket, one JSON reply line (two for a
// hook). It needs the standard library alone, so that it links without the
// store, the index or the importer. The ctx front, which must start fast,
// writes and reads the run op's lines with package runop instead, held to
// these types' JSON by its tests.
package wire

import (
	"encoding/json"
	"time"

	"ctx/wake/wire/runop"
)

// MaxRequest bounds one request line (a search's filters included).
const MaxRequest = runop.MaxRequest

// Request is one wake-protocol request.
type Request struct {
	Op string `json:"op"` // sync, status, repair, stop, search, run or hook
	// Version is the client's ctx version; a search or a hook is answered
	// only by a daemon of the same version (another may read the store
	// differently).
	Version string `json:"version,omitempty"`
	// Search is the search request of a search op (the app layer's JSON).
	Search json.RawMessage `json:"search,omitempty"`
	// Args is the run op's command line, without the program's name, and
	// StdoutTTY and StderrTTY whether the client's outputs are terminals.
	Args      []string `json:"args,omitempty"`
	StdoutTTY bool     `json:"stdout_tty,omitempty"`
	StderrTTY bool     `json:"stderr_tty,omitempty"`
	// The hook op's (see RunHook): the hook, the directory git ran it in
	// and its git environment; the run op's working directory and whole
	// environment.
	Hook string   `json:"hook,omitempty"`
	Dir  string   `json:"dir,omitempty"`
	Env  []string `json:"env,omitempty"`
	// Sent is when the hook asked and AckWait how long it waits for the
	// acceptance: a request read after that (by a daemon that was stopped)
	// is refused, the hook having done the work itself.
	Sent    time.Time     `json:"sent,omitzero"`
	AckWait time.Duration `json:"ack_wait,omitempty"`
}

// Repair is what the daemon's last rebuild of damaged index shards did:
// the shards it found damaged, when, and the generation it published in
// which they are rebuilt from the store (or why it failed).
type Repair struct {
	At         time.Time `json:"at"`
	Shards     []string  `json:"shards"`
	Generation uint64    `json:"generation,omitempty"`
	Error      string    `json:"error,omitempty"`
}

// Collected is what the daemon's last gc did (maint.GCReport's figures).
type Collected struct {
	At                 time.Time `json:"at"`
	KeptGenerations    int       `json:"kept_generations"`
	ExpiredGenerations int       `json:"expired_generations"`
	ObjectsRemoved     int       `json:"objects_removed"`
	BytesRemoved       int64     `json:"bytes_removed"`
	ShardsRemoved      int       `json:"shards_removed"`
	// ShardsReindexed counts the shards re-indexed without the events of
	// forgotten sessions before the gc (ingest.Purge).
	ShardsReindexed int    `json:"shards_reindexed,omitempty"`
	Error           string `json:"error,omitempty"`
}

// Reply is the answer to a request; fields not used by the op are empty.
type Reply struct {
	OK             bool      `json:"ok"`
	Error          string    `json:"error,omitempty"`
	Accepted       bool      `json:"accepted,omitempty"` // the hook op's first reply: the work has begun
	Generation     uint64    `json:"generation,omitempty"`
	Published      bool      `json:"published,omitempty"`
	FilesRead      int       `json:"files_read,omitempty"`
	EventsIndexed  int       `json:"events_indexed,omitempty"`
	PID            int       `json:"pid,omitempty"`
	Started        time.Time `json:"started,omitzero"`
	LastGeneration uint64    `json:"last_generation,omitempty"`
	LastImport     time.Time `json:"last_import,omitzero"`
	LagSeconds     float64   `json:"lag_seconds"`
	Watching       int       `json:"watching,omitempty"`
	Searches       uint64    `json:"searches,omitempty"` // searches the daemon answered since it started
	// Result is a search op's answer (the app layer's JSON).
	Result json.RawMessage `json:"result,omitempty"`
	// Run is a run op's answer: what the command wrote and its exit code.
	Run *RunOutput `json:"run,omitempty"`
	// Repair is the daemon's last repair of damaged shards; nil when it
	// found none since it started.
	Repair *Repair `json:"repair,omitempty"`
	// GC is the daemon's last gc; nil until one ran.
	GC *Collected `json:"gc,omitempty"`
}

// RunOutput is what a command the daemon ran for a client wrote, and how
// it ended.
type RunOutput struct {
	Stdout string `json:"stdout,omitempty"`
	Stderr string `json:"stderr,omitempty"`
	Exit   int    `json:"exit"`
}
