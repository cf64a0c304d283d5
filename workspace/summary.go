package workspace

import (
	"context"
	"time"

	"ctx/budget"
)

// summaryInput is a copy of what the summariser may read: the plan, the
// git state and the sessions, never the key files it runs beside.
func (b *builder) summaryInput() *Object {
	o := b.o
	meta := o.Meta
	meta.Connectors = nil
	return &Object{Meta: meta, Plan: o.Plan, GitState: o.GitState, Sessions: append([]SessionBrief(nil), o.Sessions...)}
}

// SummaryTokens is the most sessionSummary may take of the budget (and
// what a summariser should ask its model for); it is set aside before the
// key files are chosen.
const SummaryTokens = 400

// startSummary runs the summariser in the background; the returned
// function waits for it and records the summary connector. A failure (an
// unreachable, failing or slow endpoint) leaves sessionSummary null and
// loses nothing else.
func (b *builder) startSummary(ctx context.Context) func() {
	if b.opts.Summarize == nil {
		return func() {
			b.o.Meta.Connectors = append(b.o.Meta.Connectors, Connector{Name: "summary", Status: StatusNotConfigured})
		}
	}
	type result struct {
		text string
		err  error
		took time.Duration
	}
	ch := make(chan result, 1)
	in := b.summaryInput()
	reserve := min(SummaryTokens, b.left/10)
	b.left -= reserve
	go func() {
		start := time.Now()
		text, err := b.opts.Summarize(ctx, in)
		ch <- result{text, err, time.Since(start)}
	}()
	return func() {
		r := <-ch
		b.left += reserve
		b.timedAs("summary", r.took, func() (string, string) {
			if r.err != nil {
				return StatusError, r.err.Error()
			}
			text := r.text
			if b.opts.Redactor != nil {
				text, _ = b.opts.Redactor.String(text)
			}
			text, n, _ := budget.Cut(text, min(reserve, max(b.left, 0)))
			if text == "" {
				return StatusOK, "no budget left for the summary"
			}
			b.o.SessionSummary = &text
			b.spend(ScopeFull, n)
			return StatusOK, ""
		})
	}
}
