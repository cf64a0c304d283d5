package mcp

import (
	"context"
	"time"

	"ctx/daemon"
	"ctx/query"
	"ctx/store"
)

// errNoStore is the answer when $CTX_HOME does not exist: the server never
// creates a store.
func errNoStore() error {
	return query.Errorf(query.CodeNoHistory, "nothing has been imported yet: run ctx import")
}

// storeExists reports whether $CTX_HOME holds a store: its objects and refs
// directories, which every import creates. query.Open creates them when
// they are missing, and a read-only server must not, so every read checks
// first.
func (s *Server) storeExists() bool {
	return store.Exists(s.cfg.CtxHome)
}

// open pins the active generation for one tool call: the pooled Reader
// of the active generation, kept open across calls (query.Pool). The call
// must release it.
func (s *Server) open() (*query.Reader, func(), error) {
	if !s.storeExists() {
		return nil, nil, errNoStore()
	}
	return s.pool.Acquire()
}

// wake sends the bounded wake to the store's daemon (daemon.WakeBeforeRead).
func (s *Server) wake() { daemon.WakeBeforeRead(s.cfg.CtxHome, s.cfg.Source, freshnessTimeout) }

// freshnessTimeout bounds the startup check.
const freshnessTimeout = time.Second

// checkFreshness is the bounded, content-free startup check: it wakes the
// daemon (starting it when none runs and it is enabled: config [daemon]
// enabled, CTX_DAEMON), resolves the active generation and logs one line to
// stderr when there is nothing to serve. The server itself imports nothing
// and writes no derived state.
func (s *Server) checkFreshness(ctx context.Context) {
	done := make(chan string, 1)
	go func() {
		s.wake()
		_, release, err := s.open()
		if err != nil {
			done <- "store check: " + string(query.CodeOf(err)) + " (tool calls answer with this error until ctx import or ctx verify fixes it)"
			return
		}
		defer release()
		done <- ""
	}()
	select {
	case msg := <-done:
		if msg != "" {
			s.logf("%s", msg)
		}
	case <-time.After(freshnessTimeout):
		s.logf("store check still running after %s; serving anyway", freshnessTimeout)
	case <-ctx.Done():
	}
}
