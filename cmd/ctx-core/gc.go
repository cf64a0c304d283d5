package main

import (
	"runtime/debug"

	"github.com/spf13/cobra"
)

// shortCommands read a bounded amount (the tree) and end. With Go's
// default GC target a process collects every few MB it allocates, and
// these allocate a few tens of MB in all (package initialisation, one
// tree): they collect three or four times for nothing. They run with a
// target of 5x the live heap instead, under a soft limit, which a short
// command never reaches. Not the git hooks: a hook's refresh imports what
// changed and its match allocates per added line; measured, the larger
// target gave them nothing.
var shortCommands = map[string]bool{
	"ctx version": true, "ctx list sessions": true, "ctx timeline": true, "ctx stats": true,
	"ctx resume": true,
}

const (
	shortGCPercent = 400
	shortGCLimit   = 256 << 20
)

// tuneGC sets the GC target of a short command, unless the user set
// GOGC or GOMEMLIMIT.
func tuneGC(cmd *cobra.Command, getenv func(string) string) {
	if !shortCommands[cmd.CommandPath()] || getenv("GOGC") != "" {
		return
	}
	debug.SetGCPercent(shortGCPercent)
	if getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(shortGCLimit)
	}
}

// serverHeapLimit is the soft limit of the Go heap of ctx ui, a long-lived
// server whose searches allocate in bursts: the collector works harder
// near it instead of letting the heap double. Index shards are mapped
// files and do not count.
const serverHeapLimit = 64 << 20

// limitServerHeap sets serverHeapLimit unless the user set GOMEMLIMIT.
func limitServerHeap(getenv func(string) string) {
	if getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(serverHeapLimit)
	}
}
