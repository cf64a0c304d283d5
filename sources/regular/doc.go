// Package regular opens history files for the parsers: only regular files
// (checked on the opened descriptor, after following symlinks) are read.
// A FIFO, socket or device named like a history file is refused with a
// typed error carrying the problem code not_regular, and opening one never
// blocks: the open itself is non-blocking, so a FIFO without a writer
// cannot hold an import (or the daemon) forever.
package regular
