package mcp

import (
	"context"
	"time"

	"ctx/app"
)

// freshnessTimeout bounds the startup check.
const freshnessTimeout = app.WakeWait

// checkFreshness is the bounded, content-free startup check: it wakes the
// daemon (starting it when none runs and it is enabled: config [daemon]
// enabled, CTX_DAEMON), pins the active generation and logs one line to
// stderr when there is nothing to serve. The server itself imports nothing
// and writes no derived state.
func (s *Server) checkFreshness(ctx context.Context) {
	done := make(chan string, 1)
	go func() {
		s.app.Wake()
		if err := s.app.Check(ctx); err != nil {
			done <- "store check: " + string(app.CodeOf(err)) + " (tool calls answer with this error until ctx import or ctx verify fixes it)"
			return
		}
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
