package index

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/blevesearch/bleve/v2/registry"

	"ctx/core"
)

// hostileTexts are event texts whose analysis is easy to get wrong when a
// term is counted piece by piece or probed on JSON bytes: escapes, case
// folding that changes a rune's length, runes that lowercase to ASCII,
// combining marks after white space, apostrophes, repeats across compounds,
// snake_case folded and not, paths, tabs and other control characters.
var hostileTexts = []string{
	"parse_config parseConfig ParseConfig parse_config,parse_config (parse_config)",
	"internal/server/handler.go:42 ./internal/server/handler.go\tserver/handler.go handler.go",
	"don't DON'T won’t it's o'clock rock'n'roll",
	"\u212aelvin KELVIN kelvin \u0130stanbul İSTANBUL istanbul",
	"Ⱥ ⱥ ȺBC ⱥbc ǅemal ǆemal straße STRASSE",
	"quote \" backslash \\ <tag> a&b <script>x</script> \u2028line\u2029para",
	"tab\tsep\vvt\fff\r\ncrlf \x01ctl\x1fus\x1ers",
	" \u0301mark after space \u200dzwj \ufeffbom",
	"HTTPServer base64Encode max_retries MAX_RETRIES maxRetries __init__ _private trailing_",
	"deadbeef1234567 0xDEADBEEF 3f2a9c1e-77b0-4c1e-9a51-0c1d2e3f4a5b E0308 ENOENT",
	"go test ./... && go vet ./... || echo failed; exit code 1",
	"日本語のテキスト 中文文本 한국어 text mixed with English words",
	"émoji 🎉🎉 party🎉time naïve café résumé NAÏVE",
	"a.b.c a.b.c a.b.c repeat repeat REPEAT Repeat",
	"(repeat) repeat, repeat. repeat: \"repeat\" `repeat` [repeat]! <repeat>? repeat's repeat-it repeat/it :repeat: ..repeat..",
	"the The THE a an to (the) the, of. and server Server SERVER (Server)",
	"",
}

// chunkEvents are synthetic events of a chunk: the corpus's, and one per
// hostile text with a command, a tool and paths.
func chunkEvents(t *testing.T) []core.Event {
	t.Helper()
	s := newSession("chunk")
	var out []core.Event
	for i, text := range hostileTexts {
		d := newDoc(s, "h"+string(rune('a'+i)), core.TypeToolCall, text, withFiles("src/Parse_Config.go", `C:\Users\x\Tool.cs`))
		d.Event.Command, d.Event.Tool = "grep -rn "+text, "Bash"
		out = append(out, *d.Event)
	}
	c := newCorpus(5)
	for d := range c.stream(200) {
		out = append(out, *d.Event)
	}
	return out
}

// TestChunkSplitsLikeCore checks that a chunk read from the bytes core
// writes gives every event exactly as decoding the whole object does, by
// position and by id.
func TestChunkSplitsLikeCore(t *testing.T) {
	events := chunkEvents(t)
	data, err := json.Marshal(core.Chunk{Kind: core.KindChunk, Session: events[0].SessionID, Events: events})
	if err != nil {
		t.Fatal(err)
	}
	ch, err := NewChunk(data)
	if err != nil {
		t.Fatal(err)
	}
	if ch.spans == nil || ch.Len() != len(events) {
		t.Fatalf("split into %d spans (%v), want %d", ch.Len(), ch.spans != nil, len(events))
	}
	for i := range events {
		e, err := ch.Event(i)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(*e, events[i]) {
			t.Fatalf("event %d decoded as\n%+v\nwant\n%+v", i, *e, events[i])
		}
	}
	ch, _ = NewChunk(data) // ids from the bytes, before any decoding
	for i := range events {
		if id, err := ch.ID(i); err != nil || id != events[i].ID {
			t.Fatalf("id %d: %v %v, want %v", i, id, err, events[i].ID)
		}
	}
	last := events[len(events)-1]
	if e, err := ch.Find(last.ID); err != nil || e == nil || e.ID != last.ID {
		t.Fatalf("Find: %v %v", e, err)
	}
	empty, _ := json.Marshal(core.Chunk{Kind: core.KindChunk, Events: []core.Event{}})
	if ch, err := NewChunk(empty); err != nil || ch.Len() != 0 {
		t.Fatalf("empty chunk: %v %v", ch, err)
	}
	// Bytes of another shape are decoded whole; what is not a chunk fails.
	indented, _ := json.MarshalIndent(core.Chunk{Kind: core.KindChunk, Events: events[:3]}, "", " ")
	if ch, err := NewChunk(indented); err != nil || ch.Len() != 3 || ch.spans != nil {
		t.Fatalf("indented chunk: %v", err)
	}
	for _, bad := range []string{"", "{}", `{"kind":"tree"}`, "[1,2]", `{"kind":"chunk","events":[{"ctx_event_id":`} {
		if _, err := NewChunk([]byte(bad)); err == nil {
			t.Errorf("NewChunk(%q) succeeded", bad)
		}
	}
}

// probedForReal returns the events without a rune that lowercases to ASCII:
// bytes holding one make every probe of their chunk a maybe.
func probedForReal(all []core.Event) []core.Event {
	var events []core.Event
	for _, e := range all {
		if !strings.ContainsAny(eventText(&e), "\u212a\u0130") {
			events = append(events, e)
		}
	}
	return events
}

// TestProbesNeverMissATerm checks the two shortcuts of scoring against a
// whole analysis of every event: a probe on the chunk's bytes (or on the
// decoded text) never says no for a term the event's analysis holds, and
// counting a term piece by piece gives its frequency in that analysis.
func TestProbesNeverMissATerm(t *testing.T) {
	all := chunkEvents(t)
	events := probedForReal(all)
	data, err := json.Marshal(core.Chunk{Kind: core.KindChunk, Session: events[0].SessionID, Events: events})
	if err != nil {
		t.Fatal(err)
	}
	raw, err := NewChunk(data)
	if err != nil {
		t.Fatal(err)
	}
	if raw.unsure || len(events) == len(all) {
		t.Fatal("no chunk probed for real")
	}
	unsure, _ := json.Marshal(core.Chunk{Kind: core.KindChunk, Events: all})
	if u, _ := NewChunk(unsure); !u.unsure || !u.mayHold(0, "zzzqqq") {
		t.Fatal("a chunk with the Kelvin sign is probed as ASCII")
	}
	decoded := ChunkOf(events)
	an, err := newEventAnalyzer(registry.NewCache())
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for i := range events {
		text := eventText(&events[i])
		tf := map[string]int{}
		toks := an.Analyze([]byte(text))
		for _, tok := range toks {
			tf[string(tok.Term)]++
		}
		s := events[i].SessionID
		cand := newCand(&events[i], s, an, len(toks))
		for term, n := range tf {
			if !raw.mayHold(i, term) || !decoded.mayHold(i, term) {
				t.Errorf("event %d (%.40q): a probe misses %q", i, text, term)
			}
			if got := cand.freq(term); got != n {
				t.Errorf("event %d (%.40q): freq(%q) = %d, want %d", i, text, term, got, n)
			}
			checked++
		}
		for _, extra := range []string{"the", "repeat", "server", "parseconfig", "a.b.c", "handler.go"} {
			if got := cand.freq(extra); got != tf[extra] {
				t.Errorf("event %d (%.40q): freq(%q) = %d, want %d", i, text, extra, got, tf[extra])
			}
		}
		// The exact clauses an event matches, probed on its bytes.
		var exact []eNode
		for _, f := range core.FileTerms(events[i].Files) {
			exact = append(exact, &eTerm{field: fieldFiles, value: f})
		}
		for _, f := range events[i].Files {
			k := pathKey(f.Path)
			exact = append(exact, &eFileSuffix{suffix: k}, &eFileSuffix{suffix: k[strings.IndexByte(k, '/')+1:]})
		}
		exact = append(exact, &eTerm{field: fieldSession, value: events[i].SessionID.String()},
			&eTerm{field: fieldEvents, value: events[i].ID.String()}, &eTerm{field: fieldRoot, value: s.String()})
		for _, n := range exact {
			if _, ok := n.eval(cand); !ok {
				t.Fatalf("event %d does not match its own %+v", i, n)
			}
			if !mayMatch(raw, i, s, n) {
				t.Errorf("event %d: the probe misses %+v", i, n)
			}
		}
		if mayMatch(raw, i, s, &eTerm{field: fieldFiles, value: "zzqq/nosuchzz.go"}) ||
			mayMatch(raw, i, s, &eFileSuffix{suffix: "zzqq/nosuchzz.go"}) || raw.mayHold(i, "zzzqqq") {
			t.Errorf("event %d: the probe finds a file it does not touch", i)
		}
		for _, absent := range []string{"zzzqqq", "parseconfigx"} {
			if tf[absent] == 0 && cand.freq(absent) != 0 {
				t.Errorf("event %d: freq(%q) = %d for a term it lacks", i, absent, cand.freq(absent))
			}
		}
	}
	if checked < 5000 {
		t.Fatalf("only %d terms checked", checked)
	}
}

// TestProbeIsPerEvent checks that probing all of a chunk's events at once
// says of each event what looking through that event's bytes alone says:
// the term is in its bytes lowercased (without underscores, for a term
// that has none). Every event is asked for every term of the chunk, so
// most answers are a no for a term its neighbours hold; raw bytes and
// decoded events alike, with terms straddling two events' bytes.
func TestProbeIsPerEvent(t *testing.T) {
	events := probedForReal(chunkEvents(t))
	events = events[:min(len(events), 64)]
	data, err := json.Marshal(core.Chunk{Kind: core.KindChunk, Session: events[0].SessionID, Events: events})
	if err != nil {
		t.Fatal(err)
	}
	raw, err := NewChunk(data)
	if err != nil || raw.spans == nil {
		t.Fatalf("chunk not split: %v", err)
	}
	an, err := newEventAnalyzer(registry.NewCache())
	if err != nil {
		t.Fatal(err)
	}
	terms := map[string]bool{"zzzqqq": true, "_": true, "a": true, "": true}
	for i := range events {
		for _, tok := range an.Analyze([]byte(eventText(&events[i]))) {
			terms[string(tok.Term)] = true
		}
		// The end of one event's bytes and the start of the next's.
		if i > 0 {
			prev, next := strings.ToLower(string(raw.spans[i-1])), strings.ToLower(string(raw.spans[i]))
			terms[prev[len(prev)-3:]+next[:3]] = true
		}
	}
	one := func(b []byte, fold bool) []byte {
		b = bytes.ToLower(b)
		if fold {
			b = bytes.ReplaceAll(b, []byte("_"), nil)
		}
		return b
	}
	decoded := ChunkOf(events)
	yes, no := 0, 0
	for term := range terms {
		fold := !strings.Contains(term, "_")
		for i := range events {
			maybe := !isASCII(term) // always a maybe
			want := maybe || bytes.Contains(one(raw.spans[i], fold), []byte(term))
			if got := raw.mayHold(i, term); got != want {
				t.Fatalf("event %d, term %q: probed %v, its bytes say %v", i, term, got, want)
			}
			text := []byte(strings.ToLower(eventText(&events[i])))
			if got, want := decoded.mayHold(i, term), maybe || bytes.Contains(one(text, fold), []byte(term)); got != want {
				t.Fatalf("decoded event %d, term %q: probed %v, its text says %v", i, term, got, want)
			}
			if want {
				yes++
			} else {
				no++
			}
		}
	}
	if yes < 1000 || no < 1000 {
		t.Fatalf("only %d yes and %d no checked", yes, no)
	}
}

// TestGroupTermsLean checks what a group indexes of each event
// (groupTerms): the terms of its code-aware analysis once each, after the
// marker, without the derived forms; each derived form is found by the
// terms it is made of (compounds and path suffixes by their own indexed
// terms, a folded identifier by its words); and the event's length is
// that of the whole analysis.
func TestGroupTermsLean(t *testing.T) {
	events := chunkEvents(t)
	an, err := newEventAnalyzer(registry.NewCache())
	if err != nil {
		t.Fatal(err)
	}
	sc := &termScratch{}
	derived := 0
	for i := range events {
		text := eventText(&events[i])
		full := an.Analyze([]byte(text))
		got, n := groupTerms(nil, text, sc)
		if n != len(full) {
			t.Fatalf("event %d: length %d, want %d", i, n, len(full))
		}
		terms := strings.Split(string(got), string(termSep))
		if terms[0] != eventTerm {
			t.Fatalf("event %d: no marker first: %q", i, terms[0])
		}
		indexed := map[string]bool{}
		for _, term := range terms[1:] {
			if indexed[term] {
				t.Fatalf("event %d: %q twice", i, term)
			}
			indexed[term] = true
		}
		inFull := map[string]bool{}
		for _, tok := range full {
			inFull[string(tok.Term)] = true
		}
		for term := range indexed {
			if !inFull[term] {
				t.Fatalf("event %d: %q indexed, not in the analysis", i, term)
			}
		}
		for term := range inFull {
			if indexed[term] {
				continue
			}
			derived++
			parts, _ := groupTerms(nil, term, nil)
			partTerms := strings.Split(string(parts), string(termSep))[1:]
			if len(partTerms) == 1 && partTerms[0] == term {
				// A folded identifier (parseconfig of parse_config) is
				// one word; the query's camelCase gives its parts.
				continue
			}
			for _, p := range partTerms {
				if !indexed[p] {
					t.Fatalf("event %d: derived %q: its term %q is not indexed", i, term, p)
				}
			}
		}
	}
	if derived < 100 {
		t.Fatalf("only %d derived forms checked", derived)
	}
}

// TestHasRunAsWords checks that a phrase found in the lowercased text
// without splitting it (hasRun) is what splitting it into words finds.
func TestHasRunAsWords(t *testing.T) {
	events := chunkEvents(t)
	for i := range events {
		text := eventText(&events[i])
		lower := strings.ToLower(text)
		w := words(text)
		for k := 0; k+2 <= len(w) && k < 60; k++ {
			for _, run := range [][]string{w[k : k+1], w[k : k+2], {w[k], w[len(w)-1-k]}, {w[k][:len(w[k])/2+1]}, {"x" + w[k]}} {
				if got, want := hasRun(lower, run), containsRun(w, run); got != want {
					t.Fatalf("event %d (%.40q): hasRun(%q) = %v, want %v", i, text, run, got, want)
				}
			}
		}
	}
}

// groupTermsTokens is groupTerms through the emitter's tokens, as the code
// analyzer makes them, instead of its sink: the lean analysis's tokens in
// order, each distinct term that is not a stop word once.
func groupTermsTokens(b []byte, text string) ([]byte, int) {
	if len(b) > 0 {
		b = append(b, termSep)
	}
	b = append(b, eventTerm...)
	e := &emitter{lean: true}
	toks, n := e.run([]byte(text), false)
	seen := map[string]bool{}
	for _, t := range toks {
		if isStopWord(t.Term) {
			continue
		}
		n++
		if seen[string(t.Term)] {
			continue
		}
		seen[string(t.Term)] = true
		b = append(b, termSep)
		b = append(b, t.Term...)
	}
	return b, n
}

// TestGroupTermsAsTokens checks that groupTerms, whose emitter hands each
// term to a sink without making tokens, gives byte for byte what the
// emitter's tokens give, on a corpus's events, the hostile texts and texts
// made of their words mixed with odd bytes, with one scratch throughout.
func TestGroupTermsAsTokens(t *testing.T) {
	var texts []string
	for d := range newCorpus(7).stream(3000) {
		texts = append(texts, eventText(d.Event))
	}
	events := chunkEvents(t)
	for i := range events {
		texts = append(texts, eventText(&events[i]))
	}
	var fields []string
	for _, s := range texts {
		fields = append(fields, strings.Fields(s)...)
	}
	seps := []string{" ", "\t", "\n", "  ", "\r\n", "\u00a0", "\v", "", "/", ".", "'", ":", "-", "_", "\xff", "é", "日本", "A"}
	r := rand.New(rand.NewPCG(1, 2))
	for range 5000 {
		var b strings.Builder
		for range 1 + r.IntN(40) {
			b.WriteString(fields[r.IntN(len(fields))])
			b.WriteString(seps[r.IntN(len(seps))])
		}
		texts = append(texts, b.String())
	}
	sc := &termScratch{}
	var got, want []byte
	for i, text := range texts {
		var n, wn int
		got, n = groupTerms(got[:0], text, sc)
		want, wn = groupTermsTokens(want[:0], text)
		if !bytes.Equal(got, want) || n != wn {
			t.Fatalf("text %d %q:\n got %d %q\nwant %d %q", i, text, n, got, wn, want)
		}
	}
}
