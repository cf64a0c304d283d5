// Package daemon is the persistent importer (DESIGN.md §8): one process per
// store that watches the sources, imports increments as they are written,
// publishes generations and answers wakes on a unix socket.
//
// Vocabulary:
//   - Daemon lock: an exclusive flock on $CTX_HOME/daemon.lock held for the
//     daemon's lifetime; it holds the daemon's pid. A second daemon finds it
//     taken and exits with ErrRunning. The flock dies with its process, so
//     the lock of a killed daemon is free at once.
//   - Writer lock: each import pass runs ingest.Run, which takes the store's
//     writer lock ($CTX_HOME/lock); a ctx import run by hand waits for the
//     pass, and the pass waits for it.
//   - Pass: one ingest.Run. Requests for a pass (a watch batch, a rescan, a
//     sync) are numbered; a pass serves every request made before it began,
//     so a sync never returns a generation older than its request.
//     Passes run in this one process, so ingest keeps between them the state
//     the last one published and, for a transcript of 4 MiB or more, its
//     parse held open after the last complete line: the next pass reads
//     only what was appended (see ingest's live.go).
//   - Batch: file events are gathered for Debounce (150 ms) after the first
//     one, then one pass runs; a steady stream of writes cannot postpone it.
//   - Rescan: every Rescan (30 s) the daemon rediscovers the sources, adds
//     watches for new directories, recreates a removed socket and runs a
//     pass, catching what watches miss (network filesystems, SQLite WALs).
//   - Maintenance: passes import with ingest.Options.Deferred, publishing
//     without merging small shards or building semantic vectors. After each
//     publish a merge goroutine runs ingest.Merge beside the passes: it
//     re-indexes the smallest shards without the writer lock and takes it
//     only to publish, so a wake never waits for a merge. Between passes,
//     when no request waits, the daemon builds the vectors
//     (ingest.BuildVectors); a request cancels that and it runs again after
//     the pass. Then it returns unused heap to the system
//     (debug.FreeOSMemory), so an idle daemon does not keep the memory a
//     large import grew to, and, at most every Options.Collect (10 min),
//     a gc goroutine runs maint.GC beside the passes (its retention keeps
//     every generation of the last ten minutes, one an hour for a day,
//     one a day for two weeks): it holds the writer lock only to expire
//     the reflog and to delete, not while it walks the kept generations.
//     Before it, the shards that still hold a forgotten session's events
//     are re-indexed without them (ingest.Purge), and the tombstones no
//     copy needs are dropped (ingest.SweepTombstones), as ctx gc does.
//   - Wake: a content-free request on $CTX_HOME/daemon.sock, one
//     newline-delimited JSON object per connection, at most MaxRequest
//     bytes: {"op":"sync"}, {"op":"status"}, {"op":"repair"}, {"op":"stop"}
//     or a search. The client bounds its own wait and reads the committed
//     generation either way.
//   - Search: {"op":"search","version":V,"search":REQ} answers a lexical
//     search (Options.Search, the app layer's) over the Reader and shards
//     the daemon keeps open, so a CLI search pays neither the opening nor
//     the tree decode. The event loop first notes the file events already
//     delivered; a change noted and not yet published, watch events lost,
//     or watches that cannot cover the sources make it run a pass first,
//     waiting as long as a wake would (a pass the rescan timer asked for
//     does not). A client of another version is refused and searches
//     itself, as it does on any error.
//   - Run: {"op":"run","version":V,"args":[...],"dir":D,"env":[...]} runs a
//     command line of the ctx front (Options.Command: ctx search) as
//     ctx-core would in the client's directory and environment, with its
//     terminals (stdout_tty, stderr_tty), over the same open shards and after the
//     same freshness step, and answers what it wrote and its exit code.
//     The front prints them; on any error it runs ctx-core instead.
//   - Hook: {"op":"hook"} does a git post-commit hook's work for the hook
//     process, which waits (see hook.go and docs/notes-format.md): one
//     reply line at once (accepted), one when the note is written.
//   - Repair: at start, when a search found a damaged index shard (the
//     repair op, which app sends) and when a search it answers was partial,
//     the daemon checks the active generation's shards (opening each, as a
//     search does) and rebuilds the damaged ones from the store in the
//     background (ingest.Repair, taking its turn at the writer lock),
//     publishing a generation that lists the rebuilt shards instead;
//     status reports the last repair. A segment file cut while the
//     daemon holds its shard open is damage too, not a crash: the shard
//     cache notices the changed size and reopens the shard, and a read of
//     a page cut during a search is a recovered fault (see index/fault.go).
//   - Lag: how long ago the oldest source change not yet published was
//     made: a file event (timed when it arrives) or, for a change the
//     watches missed, the modification time of a file a pass found changed.
//     A pass that fails keeps it; one that succeeds leaves only the changes
//     noted after it began. 0 when the store is up to date.
//   - Autostart: a wake that finds no daemon starts one detached, unless
//     CTX_DAEMON=off, [daemon] enabled = false, or the caller is a test
//     binary.
//
// The daemon writes its log to $CTX_HOME/logs/daemon.log, rotated at 5 MB
// keeping two old files. When idle it is blocked on fsnotify, the socket and
// the rescan timer; it never polls faster than Rescan.
package daemon
