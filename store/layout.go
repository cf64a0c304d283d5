package store

import (
	"path/filepath"

	"ctx/store/layout"
)

// Home resolves the store directory: $CTX_HOME, else $XDG_DATA_HOME/ctx,
// else ~/.local/share/ctx under userHome.
func Home(getenv func(string) string, userHome string) string { return layout.Home(getenv, userHome) }

// Layout names the files and directories of the store rooted at one home.
// It only computes paths; it touches nothing.
type Layout struct{ home string }

// At returns the layout of the store rooted at home.
func At(home string) Layout { return Layout{home: home} }

// Home is the store's root directory.
func (l Layout) Home() string { return l.home }

// Objects is the blob store (objects.Store).
func (l Layout) Objects() string { return filepath.Join(l.home, "objects") }

// Refs is the directory of the refs (refs.Refs adds "refs" and "logs/refs"
// under the home itself).
func (l Layout) Refs() string { return filepath.Join(l.home, "refs") }

// ActiveRef is the file of the ref every reader pins.
func (l Layout) ActiveRef() string { return filepath.Join(l.home, "refs", "active") }

// Index is where the Bleve shards of every generation live.
func (l Layout) Index() string { return filepath.Join(l.home, "index") }

// Vectors is where the semantic vector sets live.
func (l Layout) Vectors() string { return filepath.Join(l.home, "vectors") }

// WriterLock is the lock file of the single writer.
func (l Layout) WriterLock() string { return filepath.Join(l.home, "lock") }

// DaemonLock is the daemon's lock file; it holds the daemon's pid.
func (l Layout) DaemonLock() string { return filepath.Join(l.home, "daemon.lock") }

// Socket is the daemon's wake socket.
func (l Layout) Socket() string { return layout.Socket(l.home) }

// Logs is the directory of the daemon's and the hooks' logs (and the
// reflogs, under logs/refs).
func (l Layout) Logs() string { return filepath.Join(l.home, "logs") }

// DaemonLog is the daemon's log file.
func (l Layout) DaemonLog() string { return filepath.Join(l.home, "logs", "daemon.log") }

// HooksLog is where git hooks write what they could not do.
func (l Layout) HooksLog() string { return filepath.Join(l.home, "logs", "hooks.log") }

// CursorKey is the key that signs paging cursors; the writer creates it.
func (l Layout) CursorKey() string { return filepath.Join(l.home, "cursor.key") }

// Usage is the local usage accounting file.
func (l Layout) Usage() string { return filepath.Join(l.home, "usage.json") }

// UsageDisabled, when it exists, turns local usage accounting off.
func (l Layout) UsageDisabled() string { return filepath.Join(l.home, "usage.disabled") }
