package index

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"unicode/utf8"

	"ctx/core"
)

// Chunk is the events of one chunk object as a search reads them. From the
// object's bytes (NewChunk) it keeps each event's JSON apart and decodes an
// event only when asked for it, so that a search decodes only the events of
// a matched group whose bytes hold the query's terms (see mayHold): most of
// a group's 64 events hold none, and decoding them all was a fifth of a
// search's time. A Chunk is safe for concurrent use.
type Chunk struct {
	mu sync.Mutex
	// spans are the events' JSON objects in order; nil when the chunk was
	// given decoded (ChunkOf).
	spans [][]byte
	// lower and folded are every event's spans (or decoded eventText)
	// lowercased, and lowercased without underscores, one after the other
	// with a newline after each, made on first need (see probe); ends are
	// where each event's bytes end in them.
	lower, folded         []byte
	lowerEnds, foldedEnds []int
	// held memoizes probe: the events whose bytes hold a term, a bit each.
	held map[string][]uint64
	// events are the decoded events, nil until decoded.
	events []*core.Event
	// unsure is set when lowercasing the bytes byte by byte may miss a term
	// (see asciiLowerMisses): every probe then says maybe.
	unsure bool
}

// NewChunk reads a chunk object's bytes: split into its events' JSON when
// they have the shape core writes, else decoded whole. data is kept; the
// caller must not change it.
func NewChunk(data []byte) (*Chunk, error) {
	if spans, ok := core.ChunkEvents(data); ok {
		return &Chunk{spans: spans, events: make([]*core.Event, len(spans)), unsure: asciiLowerMisses(data)}, nil
	}
	var c core.Chunk
	if err := json.Unmarshal(data, &c); err != nil || c.Kind != core.KindChunk {
		return nil, fmt.Errorf("index: not a chunk object")
	}
	return ChunkOf(c.Events), nil
}

// ChunkOf is a chunk whose events are decoded already.
func ChunkOf(events []core.Event) *Chunk {
	c := &Chunk{events: make([]*core.Event, len(events))}
	for i := range events {
		c.events[i] = &events[i]
	}
	return c
}

// asciiLowerMisses reports whether data holds a rune whose lowercase is an
// ASCII letter (the Kelvin sign and the dotted capital I): lowercasing it
// as Unicode does could make an ASCII term that the bytes, lowercased as
// ASCII, do not hold.
func asciiLowerMisses(data []byte) bool {
	return bytes.Contains(data, []byte("\u212a")) || bytes.Contains(data, []byte("\u0130"))
}

// Len is the number of events of the chunk.
func (c *Chunk) Len() int { return len(c.events) }

// Event returns the i-th event, decoding it on first need.
func (c *Chunk) Event(i int) (*core.Event, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.eventLocked(i)
}

func (c *Chunk) eventLocked(i int) (*core.Event, error) {
	if e := c.events[i]; e != nil {
		return e, nil
	}
	e := new(core.Event)
	if err := json.Unmarshal(c.spans[i], e); err != nil {
		return nil, fmt.Errorf("index: event %d of its chunk: %w", i, err)
	}
	c.events[i] = e
	return e, nil
}

// ID returns the id of the i-th event without decoding the rest of it.
func (c *Chunk) ID(i int) (core.EventID, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if e := c.events[i]; e != nil {
		return e.ID, nil
	}
	s := c.spans[i][len(core.EventHead):]
	if end := bytes.IndexByte(s[1:], '"'); len(s) > 0 && s[0] == '"' && end >= 0 {
		if id, err := core.ParseEventID(string(s[1 : end+1])); err == nil {
			return id, nil
		}
	}
	e, err := c.eventLocked(i)
	if err != nil {
		return core.EventID{}, err
	}
	return e.ID, nil
}

// Find returns the event with id, or nil.
func (c *Chunk) Find(id core.EventID) (*core.Event, error) {
	for i := range c.events {
		got, err := c.ID(i)
		if err != nil {
			return nil, err
		}
		if got == id {
			return c.Event(i)
		}
	}
	return nil, nil
}

// mayHold reports whether the i-th event can hold the analyzed term in its
// text (evCand.mayHold's test, made on the event's bytes): every term the
// code analyzer emits is a lowercased piece of the event's text, or such a
// piece without underscores, and the JSON of an event holds its text,
// command, tool and paths as they are (encoding/json escapes only quotes,
// backslashes, control characters, <, > and &, none of which a term holds).
// The bytes are lowercased as ASCII, so a term with other bytes, or a chunk
// holding a rune that lowercases to ASCII, is always a maybe. The answer
// may be a false yes (the bytes hold more than the text), never a false no.
func (c *Chunk) mayHold(i int, term string) bool {
	if c.unsure || !isASCII(term) || strings.IndexByte(term, '\n') >= 0 {
		return true
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	held, ok := c.held[term]
	if !ok {
		held = c.probe(term)
		if c.held == nil || len(c.held) >= maxHeldTerms {
			c.held = map[string][]uint64{}
		}
		c.held[term] = held
	}
	return held[i/64]&(1<<(i%64)) != 0
}

// maxHeldTerms bounds the terms a chunk remembers the events of (a cached
// chunk outlives the search that probed it); past it, it starts over.
const maxHeldTerms = 64

// probe returns the events whose bytes hold term, a bit each. The chunk's
// events are looked through at once: the bytes of all of them, newline
// after newline, which no term holds, so that a match lies in one event.
// From a match, the search goes on past the end of the event it lies in. A
// term without underscores is in an event's text only if it is in the text
// without underscores, so one copy (the folded one) answers for it.
func (c *Chunk) probe(term string) []uint64 {
	all, ends := c.lower, c.lowerEnds
	if strings.IndexByte(term, '_') < 0 {
		if c.folded == nil {
			c.folded, c.foldedEnds = c.joined(true)
		}
		all, ends = c.folded, c.foldedEnds
	} else if c.lower == nil {
		c.lower, c.lowerEnds = c.joined(false)
		all, ends = c.lower, c.lowerEnds
	}
	held := make([]uint64, (len(c.events)+63)/64)
	if term == "" { // in every event's bytes
		for e := range c.events {
			held[e/64] |= 1 << (e % 64)
		}
		return held
	}
	t := []byte(term)
	for at, e := 0, 0; at < len(all); {
		j := bytes.Index(all[at:], t)
		if j < 0 {
			break
		}
		at += j
		for ends[e] <= at {
			e++
		}
		held[e/64] |= 1 << (e % 64)
		at = ends[e]
	}
	return held
}

// joined returns every event's bytes (or text) lowercased, without
// underscores when fold, each followed by a newline, and where each
// event's bytes end.
func (c *Chunk) joined(fold bool) ([]byte, []int) {
	n := 0
	for i := range c.events {
		if c.spans != nil {
			n += len(c.spans[i]) + 1
		} else {
			n += len(eventText(c.events[i])) + 1
		}
	}
	out := make([]byte, 0, n)
	ends := make([]int, len(c.events))
	for i := range c.events {
		var b []byte
		if c.spans != nil {
			b = c.spans[i]
		} else {
			b = []byte(strings.ToLower(eventText(c.events[i])))
		}
		from := len(out)
		if fold {
			for len(b) > 0 {
				j := bytes.IndexByte(b, '_')
				if j < 0 {
					j = len(b)
				}
				out = append(out, b[:j]...)
				b = b[min(j+1, len(b)):]
			}
		} else {
			out = append(out, b...)
		}
		for k := from; k < len(out); k++ {
			out[k] = asciiLowerTable[out[k]]
		}
		ends[i] = len(out)
		out = append(out, '\n')
	}
	return out, ends
}

// mayHoldExact reports whether the i-th event's JSON can hold s as it is
// (a touched path, a file name, an id): false only when s is a string
// encoding/json writes unchanged and the bytes lack it. A chunk given
// decoded says maybe.
func (c *Chunk) mayHoldExact(i int, s string) bool {
	if c.spans == nil || !jsonVerbatim(s) {
		return true
	}
	return bytes.Contains(c.spans[i], []byte(s))
}

// jsonVerbatim reports whether encoding/json writes s inside its quotes
// byte for byte: valid UTF-8 without quotes, backslashes, control
// characters, HTML's <, > and &, or the line and paragraph separators.
func jsonVerbatim(s string) bool {
	if !utf8.ValidString(s) || strings.ContainsAny(s, "\"\\<>&\u2028\u2029") {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 {
			return false
		}
	}
	return true
}

// asciiLowerTable maps each byte to itself, A-Z to a-z.
var asciiLowerTable = func() (t [256]byte) {
	for i := range t {
		t[i] = byte(i)
		if 'A' <= i && i <= 'Z' {
			t[i] += 'a' - 'A'
		}
	}
	return t
}()

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}
