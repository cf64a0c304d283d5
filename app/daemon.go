package app

import (
	"errors"
	"fmt"
	"time"

	"ctx/store"
	"ctx/wake"
)

// DaemonState is the daemon status read model (ctx daemon status, start
// --format json).
type DaemonState struct {
	Running        bool     `json:"running"`
	PID            int      `json:"pid,omitempty"`
	Started        string   `json:"started,omitempty"`
	LastGeneration uint64   `json:"last_generation,omitempty"`
	LastImport     string   `json:"last_import,omitempty"`
	LagSeconds     *float64 `json:"lag_seconds,omitempty"`
	Watching       int      `json:"watching,omitempty"`
	Searches       uint64   `json:"searches"` // searches it answered for the CLI since it started
	// Repair is the running daemon's last rebuild of damaged shards.
	Repair *wake.Repair `json:"repair,omitempty"`
	// GC is the running daemon's last gc.
	GC     *wake.Collected `json:"gc,omitempty"`
	Socket string          `json:"socket"`
	Log    string          `json:"log"`
	// Since is when the running daemon started (for display).
	Since time.Time `json:"-"`
}

// DaemonStatus asks the store's daemon how it is; a daemon that does not
// answer is reported as not running.
func (a *App) DaemonStatus() DaemonState {
	r, err := wake.Status(a.home)
	if err != nil {
		return a.daemonState(nil)
	}
	return a.daemonState(&r)
}

// DaemonStart starts the daemon (the executable exe, "daemon run") unless
// one answers already, and waits until it is ready.
func (a *App) DaemonStart(exe string) (DaemonState, error) {
	if _, err := wake.Status(a.home); err != nil {
		if err := wake.Start(a.home, exe); err != nil {
			return DaemonState{}, err
		}
	}
	r, err := wake.WaitReady(a.home, 10*time.Second)
	if err != nil {
		return DaemonState{}, fmt.Errorf("the daemon did not answer (see %s): %w", store.At(a.home).DaemonLog(), err)
	}
	return a.daemonState(&r), nil
}

// DaemonStop stops the running daemon and reports its pid; stopped is false
// when none was running.
func (a *App) DaemonStop() (pid int, stopped bool, err error) {
	r, err := wake.Stop(a.home, 30*time.Second)
	if errors.Is(err, wake.ErrNotRunning) {
		return 0, false, nil
	}
	if err != nil {
		return 0, false, err
	}
	return r.PID, true, nil
}

func (a *App) daemonState(r *wake.Reply) DaemonState {
	out := DaemonState{Socket: store.At(a.home).Socket(), Log: store.At(a.home).DaemonLog()}
	if r == nil {
		return out
	}
	lag := r.LagSeconds
	out.Running, out.PID, out.LastGeneration, out.LagSeconds, out.Watching = true, r.PID, r.LastGeneration, &lag, r.Watching
	out.Searches = r.Searches
	out.Started, out.Since, out.Repair, out.GC = r.Started.UTC().Format(time.RFC3339), r.Started, r.Repair, r.GC
	if !r.LastImport.IsZero() {
		out.LastImport = r.LastImport.UTC().Format(time.RFC3339)
	}
	return out
}
