package export

import (
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"ctx/core"
	"ctx/query"
)

// Formats.
const (
	Markdown = "markdown"
	HTML     = "html"
	JSONL    = "jsonl"
)

// DefaultClip is the most bytes of one tool output a document shows.
const DefaultClip = 4000

// ErrBadRange is returned for a --range that is not N-M, N- or -M.
var ErrBadRange = errors.New("range must be FIRST-LAST event ordinals: 10-20, 10- or -20")

// Options say what to export and how.
type Options struct {
	Format  string
	From    int // first ordinal
	To      int // last ordinal, -1 for the end
	Clip    int // bytes of a tool output shown (0: DefaultClip)
	Version string
	Now     time.Time
}

// ParseRange reads FIRST-LAST (either side may be empty); "" is the whole
// session.
func ParseRange(s string) (from, to int, err error) {
	if s == "" {
		return 0, -1, nil
	}
	a, b, ok := strings.Cut(s, "-")
	if !ok {
		return 0, 0, ErrBadRange
	}
	from, to = 0, -1
	if a != "" {
		if from, err = strconv.Atoi(a); err != nil || from < 0 {
			return 0, 0, ErrBadRange
		}
	}
	if b != "" {
		if to, err = strconv.Atoi(b); err != nil || to < from {
			return 0, 0, ErrBadRange
		}
	}
	return from, to, nil
}

// Header is the metadata and provenance of an exported session.
type Header struct {
	// Title is the agent's title, else the first real prompt.
	Title      string              `json:"title"`
	Session    core.Session        `json:"session"`
	Generation query.GenerationRef `json:"generation"`
	Exported   time.Time           `json:"exported"`
	Exporter   string              `json:"exporter"`
	From       int                 `json:"from_ordinal"`
	To         *int                `json:"to_ordinal,omitempty"`
}

// writer renders one format; calls come in order: begin, event…, end.
type writer interface {
	begin(h *Header) error
	event(e *core.Event) error
	end(n int) error
}

// Write exports the session id of r to w.
func Write(w io.Writer, r *query.Reader, id core.SessionID, opts Options) error {
	so, err := r.Session(id)
	if err != nil {
		return err
	}
	if opts.Clip <= 0 {
		opts.Clip = DefaultClip
	}
	row, err := r.SessionRow(id)
	if err != nil {
		return err
	}
	h := &Header{Title: row.Title, Session: so.Session, Generation: r.Ref(), Exported: opts.Now.UTC(), Exporter: "ctx " + opts.Version,
		From: opts.From}
	if opts.To >= 0 {
		to := opts.To
		h.To = &to
	}
	var out writer
	switch opts.Format {
	case Markdown:
		out = newMarkdown(w, opts.Clip)
	case HTML:
		out = newHTML(w, opts.Clip)
	case JSONL:
		out = newJSONL(w)
	default:
		return fmt.Errorf("export: unknown format %q", opts.Format)
	}
	if err := out.begin(h); err != nil {
		return err
	}
	n := 0
	if err := r.StreamSession(id, opts.From, opts.To, func(e *core.Event) error {
		n++
		return out.event(e)
	}); err != nil {
		return err
	}
	return out.end(n)
}
