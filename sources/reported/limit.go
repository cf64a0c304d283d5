package reported

import (
	"errors"
	"fmt"
	"sync"
	"time"

	"golang.org/x/time/rate"
)

// ErrRateLimited is matched by every *RateLimitError.
var ErrRateLimited = errors.New("rate limited")

// RateLimitError says when a refused client may retry.
type RateLimitError struct {
	Client     string
	RetryAfter time.Duration
}

func (e *RateLimitError) Error() string {
	return fmt.Sprintf("too many reports from %s: retry in %d ms", e.Client, e.RetryAfter.Milliseconds())
}

func (e *RateLimitError) Is(target error) bool { return target == ErrRateLimited }

// Limiter bounds the reports of each client: PerMinute on average, Burst at
// once. A refused call stores nothing.
type Limiter struct {
	perMinute int
	burst     int
	mu        sync.Mutex
	by        map[string]*rate.Limiter
}

// DefaultPerMinute and DefaultBurst apply when the configuration names none.
const (
	DefaultPerMinute = 60
	DefaultBurst     = 20
)

// NewLimiter returns a limiter; perMinute <= 0 disables it.
func NewLimiter(perMinute, burst int) *Limiter {
	if burst <= 0 {
		burst = DefaultBurst
	}
	return &Limiter{perMinute: perMinute, burst: burst, by: map[string]*rate.Limiter{}}
}

// Allow takes one report of client at now, or says when to retry.
func (l *Limiter) Allow(client string, now time.Time) error {
	if l == nil || l.perMinute <= 0 {
		return nil
	}
	l.mu.Lock()
	lim := l.by[client]
	if lim == nil {
		lim = rate.NewLimiter(rate.Limit(float64(l.perMinute)/60), l.burst)
		l.by[client] = lim
	}
	l.mu.Unlock()
	r := lim.ReserveN(now, 1)
	if d := r.DelayFrom(now); d > 0 {
		r.CancelAt(now)
		return &RateLimitError{Client: client, RetryAfter: d}
	}
	return nil
}
