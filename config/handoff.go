package config

import (
	"fmt"
	"strings"
	"time"
)

// Defaults of the [context], [threads] and [ingest] tables. The engines
// that use them (workspace, threads, sources/reported) keep the same
// numbers; a test in app keeps the two in step, so config links none of
// them.
const (
	DefaultTokenBudget     = 50000
	DefaultCacheMaxAge     = 30 * time.Second
	DefaultThreadBudget    = 20000
	DefaultThreadMaxBudget = 100000
	DefaultRatePerMinute   = 60
	DefaultBurst           = 20
	DefaultSummaryTimeout  = 5 * time.Second
)

// Bounds of the settings: outside them a value is an error naming the key.
const (
	minBudget = 1000
	maxBudget = 1000000
	// A continuation's budget: the continue_thread tool's token_budget
	// accepts 256..100000, so max_budget may lower that ceiling, not raise it.
	minThreadBudget  = 256
	maxThreadBudget  = 100000
	maxCacheAgeMs    = 24 * 60 * 60 * 1000
	maxRatePerMinute = 100000
	maxSummaryMs     = 120000
	minSummaryMs     = 100
)

// ContextTable is the [context] table: get_context.
type ContextTable struct {
	TokenBudget   *int         `toml:"token_budget"`
	CacheMaxAgeMs *int         `toml:"cache_max_age_ms"`
	Summary       SummaryTable `toml:"summary"`
}

// SummaryTable is [context.summary]: the OpenAI-compatible chat endpoint
// that writes get_context's sessionSummary. Nothing is sent anywhere
// unless endpoint is set.
type SummaryTable struct {
	Endpoint  string `toml:"endpoint"`
	Model     string `toml:"model"`
	APIKeyEnv string `toml:"api_key_env"`
	TimeoutMs *int   `toml:"timeout_ms"`
}

// ThreadsTable is the [threads] table: continue_thread's token budgets.
type ThreadsTable struct {
	Budget    *int `toml:"budget"`
	MaxBudget *int `toml:"max_budget"`
}

// IngestTable is the [ingest] table: the rate limit of save_session and
// ingest_context per client.
type IngestTable struct {
	RatePerMinute *int `toml:"rate_per_minute"`
	Burst         *int `toml:"burst"`
}

// Handoff is the resolved [context], [threads] and [ingest] tables.
type Handoff struct {
	TokenBudget     int           // get_context's token budget
	CacheMaxAge     time.Duration // a snapshot younger than this is served as is (0: never)
	ThreadBudget    int           // continue_thread's default budget
	ThreadMaxBudget int           // the most one call may ask for
	RatePerMinute   int           // reports per client per minute; 0 is no limit
	Burst           int           // reports a client may send at once
	Summary         Summary
}

// Summary is the resolved [context.summary] table; Endpoint "" means not
// configured.
type Summary struct {
	Endpoint  string
	Model     string
	APIKeyEnv string
	Timeout   time.Duration
}

// Configured reports whether a summary endpoint is set.
func (s Summary) Configured() bool { return s.Endpoint != "" }

// DefaultHandoff is the configuration when config.toml says nothing.
func DefaultHandoff() Handoff {
	return Handoff{TokenBudget: DefaultTokenBudget, CacheMaxAge: DefaultCacheMaxAge, ThreadBudget: DefaultThreadBudget,
		ThreadMaxBudget: DefaultThreadMaxBudget, RatePerMinute: DefaultRatePerMinute, Burst: DefaultBurst,
		Summary: Summary{Timeout: DefaultSummaryTimeout}}
}

// HandoffConfig returns the resolved tables (validated by Load).
func (c *Config) HandoffConfig() Handoff {
	h := DefaultHandoff()
	set := func(dst *int, v *int) {
		if v != nil {
			*dst = *v
		}
	}
	set(&h.TokenBudget, c.Context.TokenBudget)
	if c.Context.CacheMaxAgeMs != nil {
		h.CacheMaxAge = time.Duration(*c.Context.CacheMaxAgeMs) * time.Millisecond
	}
	set(&h.ThreadBudget, c.Threads.Budget)
	set(&h.ThreadMaxBudget, c.Threads.MaxBudget)
	if c.Threads.MaxBudget != nil && c.Threads.Budget == nil {
		h.ThreadBudget = min(h.ThreadBudget, h.ThreadMaxBudget)
	}
	set(&h.RatePerMinute, c.Ingest.RatePerMinute)
	set(&h.Burst, c.Ingest.Burst)
	s := c.Context.Summary
	h.Summary.Endpoint, h.Summary.Model, h.Summary.APIKeyEnv = s.Endpoint, s.Model, s.APIKeyEnv
	if s.TimeoutMs != nil {
		h.Summary.Timeout = time.Duration(*s.TimeoutMs) * time.Millisecond
	}
	return h
}

// validateHandoff checks the three tables; the error names the key.
func (c *Config) validateHandoff() error {
	checks := []struct {
		key      string
		v        *int
		lo, hi   int
		unitHint string
	}{
		{"[context] token_budget", c.Context.TokenBudget, minBudget, maxBudget, "tokens"},
		{"[context] cache_max_age_ms", c.Context.CacheMaxAgeMs, 0, maxCacheAgeMs, "milliseconds (0 turns the cache off)"},
		{"[context.summary] timeout_ms", c.Context.Summary.TimeoutMs, minSummaryMs, maxSummaryMs, "milliseconds"},
		{"[threads] budget", c.Threads.Budget, minThreadBudget, maxThreadBudget, "tokens"},
		{"[threads] max_budget", c.Threads.MaxBudget, minThreadBudget, maxThreadBudget, "tokens"},
		{"[ingest] rate_per_minute", c.Ingest.RatePerMinute, 0, maxRatePerMinute, "reports per minute (0 is no limit)"},
		{"[ingest] burst", c.Ingest.Burst, 1, maxRatePerMinute, "reports"},
	}
	for _, k := range checks {
		if k.v != nil && (*k.v < k.lo || *k.v > k.hi) {
			return &Error{Path: c.path, Key: k.key, Msg: fmt.Sprintf("%s must be between %d and %d %s, not %d",
				k.key, k.lo, k.hi, k.unitHint, *k.v)}
		}
	}
	h := c.HandoffConfig()
	if h.ThreadBudget > h.ThreadMaxBudget {
		return &Error{Path: c.path, Key: "[threads] budget", Msg: fmt.Sprintf(
			"[threads] budget (%d) must not exceed [threads] max_budget (%d)", h.ThreadBudget, h.ThreadMaxBudget)}
	}
	return c.validateSummary()
}

func (c *Config) validateSummary() error {
	s := c.Context.Summary
	if s.Endpoint == "" {
		if s.Model != "" || s.APIKeyEnv != "" || s.TimeoutMs != nil {
			return &Error{Path: c.path, Key: "[context.summary] endpoint",
				Msg: "[context.summary] endpoint is missing: model, api_key_env and timeout_ms need it (an http:// or https:// URL)"}
		}
		return nil
	}
	switch {
	case !strings.HasPrefix(s.Endpoint, "http://") && !strings.HasPrefix(s.Endpoint, "https://"):
		return &Error{Path: c.path, Key: "[context.summary] endpoint",
			Msg: "[context.summary] endpoint must be an http:// or https:// URL"}
	case strings.TrimSpace(s.Model) == "":
		return &Error{Path: c.path, Key: "[context.summary] model",
			Msg: "[context.summary] model is missing: the endpoint needs the chat model to ask"}
	case s.APIKeyEnv != "" && !envNameRE().MatchString(s.APIKeyEnv):
		return &Error{Path: c.path, Key: "[context.summary] api_key_env",
			Msg: "[context.summary] api_key_env must be the name of an environment variable"}
	}
	return nil
}
