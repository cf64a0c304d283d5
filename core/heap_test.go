package core

import (
	"math"
	"runtime/debug"
	"testing"
)

func TestHeapHoldBoundsWhileHeld(t *testing.T) {
	prev := debug.SetMemoryLimit(math.MaxInt64)
	t.Cleanup(func() { debug.SetMemoryLimit(prev) })
	limit := func() int64 { return debug.SetMemoryLimit(-1) }

	var small, a, b HeapHold
	small.Hold(HugeRecord - 1)
	if got := limit(); got != math.MaxInt64 {
		t.Fatalf("a small record set the limit to %d", got)
	}
	small.Release()
	a.Hold(HugeRecord)
	a.Hold(HugeRecord + 10) // a larger record raises it
	if got, want := limit(), int64(HugeRecord+10+heapSlack); got != want {
		t.Fatalf("limit %d, want %d", got, want)
	}
	b.HoldEvents([]Event{{Text: string(make([]byte, HugeRecord))}})
	if got, want := limit(), int64(HugeRecord+10+heapSlack); got != want {
		t.Fatalf("a smaller second hold lowered the limit to %d, want %d", got, want)
	}
	a.Release()
	a.Release() // twice is once
	if got := limit(); got == math.MaxInt64 {
		t.Fatal("limit lifted while b still holds")
	}
	b.Release()
	if got := limit(); got != math.MaxInt64 {
		t.Fatalf("limit %d after the last release, want the one before", got)
	}

	debug.SetMemoryLimit(32 << 20) // the user's, lower: kept
	a.Hold(HugeRecord)
	if got := limit(); got != 32<<20 {
		t.Fatalf("limit %d, want the lower one set before", got)
	}
	a.Release()
	if got := limit(); got != 32<<20 {
		t.Fatalf("limit %d after release, want the one set before", got)
	}
}
