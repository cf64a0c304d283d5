package core

import (
	"runtime/debug"
	"sync"
)

// A record of HugeRecord bytes or more (a pasted log, a tool output of
// tens of MB) is read, decoded, stored and indexed while copies of it are
// alive together (the line and the text, the text and the chunk's JSON,
// the text and the index's batch in flight, whose analysis and segment
// take tens of MB whatever the record's size). Go's collector lets the
// heap grow to twice what is live before it collects, so the one record's
// peak is about twice that sum. While a HeapHold holds such a record, the
// heap has a soft limit of the record's size plus heapSlack, which is
// above what is live then (at most 95 MiB for a 30 MB message: its text,
// the index's batch, the encoders), so the collector runs sooner instead
// of letting the heap double. Measured on that message: a slack of 96 MiB
// gave a peak RSS of 182-187 MiB, 80 MiB 168-170 MiB for the same CPU,
// 64 MiB (under what is live) 161 MiB for twice the CPU. A lower limit
// already set (GOMEMLIMIT) is kept; without a huge record nothing is
// changed.
const (
	HugeRecord = 4 << 20
	heapSlack  = 80 << 20
)

// heapLimit is the process's soft limit while huge records are held.
var heapLimit struct {
	mu      sync.Mutex
	holders int   // holds of a huge record
	prev    int64 // the limit before the first of them
	limit   int64 // the largest limit they asked for
}

// HeapHold is one holder's part in the heap's limit: an import run, or the
// read of a line. Its zero value holds nothing.
type HeapHold struct{ held bool }

// Hold bounds the heap while a record of n bytes is in memory, if n is
// HugeRecord or more; a larger n raises the bound.
func (h *HeapHold) Hold(n int) {
	if n < HugeRecord {
		return
	}
	l := &heapLimit
	l.mu.Lock()
	defer l.mu.Unlock()
	if !h.held {
		h.held = true
		l.holders++
		if l.holders == 1 {
			l.prev, l.limit = debug.SetMemoryLimit(-1), 0
		}
	}
	if want := int64(n) + heapSlack; want > l.limit {
		l.limit = want
		debug.SetMemoryLimit(min(want, l.prev))
	}
}

// Release gives the hold back; the last one restores the limit.
func (h *HeapHold) Release() {
	l := &heapLimit
	l.mu.Lock()
	defer l.mu.Unlock()
	if !h.held {
		return
	}
	h.held = false
	l.holders--
	if l.holders == 0 {
		debug.SetMemoryLimit(l.prev)
	}
}

// HoldEvents holds the longest text of evs (see Hold).
func (h *HeapHold) HoldEvents(evs []Event) {
	n := 0
	for k := range evs {
		n = max(n, len(evs[k].Text))
	}
	h.Hold(n)
}
