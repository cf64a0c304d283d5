package runop_test

import (
	"encoding/json"
	"errors"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
	"time"

	"ctx/wake/wire"
	"ctx/wake/wire/runop"
)

// hostile are strings JSON must escape or that encoding/json writes in
// its own way: quotes, backslashes, every control character, HTML's
// characters, the line separators, multi-byte runes and one outside the
// basic plane (a surrogate pair in \u form).
var hostile = []string{"", "plain", `"quoted" \ back\slash`, "tab\tnew\nline\rret\b\f", "<script>&amp;</script>",
	"\u2028\u2029", "日本語 текст ça", "emoji 🦊 and 𝄞", "\x00\x01\x1f\x7f", "ends with \\"}

func init() {
	var all strings.Builder
	for c := range 0x20 {
		all.WriteByte(byte(c))
	}
	hostile = append(hostile, all.String())
}

// randomString mixes the hostile pieces and random runes.
func randomString(r *rand.Rand) string {
	var b strings.Builder
	for range r.IntN(6) {
		if r.IntN(2) == 0 {
			b.WriteString(hostile[r.IntN(len(hostile))])
		} else {
			b.WriteRune(rune(r.IntN(0x10FFFF)))
		}
	}
	s := b.String()
	return strings.ToValidUTF8(s, "\uFFFD")
}

func randomList(r *rand.Rand) []string {
	var out []string
	for range r.IntN(5) {
		out = append(out, randomString(r))
	}
	return out
}

// TestRequestIsWireJSON: what the front writes, the daemon's
// encoding/json reads as the same wire.Request.
func TestRequestIsWireJSON(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for i := range 2000 {
		req := runop.Request{Version: randomString(r), Args: randomList(r), Dir: randomString(r), Env: randomList(r),
			StdoutTTY: r.IntN(2) == 0, StderrTTY: r.IntN(2) == 0}
		if i < len(hostile) {
			req.Args = []string{"search", hostile[i]}
		}
		line, err := req.Append(nil)
		if err != nil {
			t.Fatal(err)
		}
		var got wire.Request
		if err := json.Unmarshal(line, &got); err != nil {
			t.Fatalf("%q: %v", line, err)
		}
		want := wire.Request{Op: "run", Version: req.Version, Args: req.Args, Dir: req.Dir, Env: req.Env,
			StdoutTTY: req.StdoutTTY, StderrTTY: req.StderrTTY}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%q read back as %+v, want %+v", line, got, want)
		}
	}
}

// TestRequestRefusesInvalidUTF8: JSON would carry such a string altered,
// so the front leaves the command to ctx-core.
func TestRequestRefusesInvalidUTF8(t *testing.T) {
	for _, req := range []runop.Request{
		{Args: []string{"search", "bad \xff byte"}},
		{Env: []string{"X=\xc3"}},
		{Dir: "/tmp/\xed\xa0\x80"}, // a surrogate encoded in UTF-8
		{Version: "\x80"},
	} {
		if _, err := req.Append(nil); !errors.Is(err, runop.ErrNotUTF8) {
			t.Errorf("%+v: err %v, want ErrNotUTF8", req, err)
		}
	}
}

// TestReplyReadsWireJSON: the front reads what the daemon's encoding/json
// writes, every other field of the reply skipped.
func TestReplyReadsWireJSON(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for i := range 2000 {
		reply := wire.Reply{OK: r.IntN(4) > 0, Error: randomString(r), Run: &wire.RunOutput{
			Stdout: randomString(r), Stderr: randomString(r), Exit: r.IntN(300) - 10}}
		if i < len(hostile) {
			reply.Run.Stdout = hostile[i]
		}
		if i%3 == 0 { // fields the front does not read, before and after run
			reply.Started = time.Date(2026, 12, 5, 1, 2, 3, 4, time.UTC)
			reply.LagSeconds = -1.5e-7
			reply.Result = json.RawMessage(`{"hits":[{"a":[1,2,{"b":null}],"c":true}],"d":"\u00e9\""}`)
			reply.Repair = &wire.Repair{Shards: []string{randomString(r)}, Error: randomString(r)}
		}
		if i%5 == 0 {
			reply.Run = nil
		}
		line, err := json.Marshal(reply)
		if err != nil {
			t.Fatal(err)
		}
		got, err := runop.ParseReply(append(line, '\n'))
		if err != nil {
			t.Fatalf("%s: %v", line, err)
		}
		want := runop.Reply{OK: reply.OK, Error: reply.Error}
		if reply.Run != nil {
			want.Ran, want.Stdout, want.Stderr, want.Exit = true, reply.Run.Stdout, reply.Run.Stderr, reply.Run.Exit
		}
		if got != want {
			t.Fatalf("%s read as %+v, want %+v", line, got, want)
		}
	}
}

// TestReplyEscapes: the escapes encoding/json accepts decode as it
// decodes them, lone surrogates included.
func TestReplyEscapes(t *testing.T) {
	for _, s := range []string{`"\/\b\f\u00E9\ud83e\udd8a"`, `"\ud800"`, `"\ud800x"`, `"\udc00\ud800\udc00"`,
		`"\ud800\u0041"`, `"a\u0000b"`} {
		line := []byte(`{"ok":true,"run":{"stdout":` + s + `}}`)
		var want wire.Reply
		if err := json.Unmarshal(line, &want); err != nil {
			t.Fatal(err)
		}
		got, err := runop.ParseReply(line)
		if err != nil {
			t.Fatalf("%s: %v", s, err)
		}
		if got.Stdout != want.Run.Stdout {
			t.Errorf("%s: read %q, encoding/json reads %q", s, got.Stdout, want.Run.Stdout)
		}
	}
}

// TestReplyRejectsBadLines: what is not a reply's JSON is an error, and
// the front then runs the command itself.
func TestReplyRejectsBadLines(t *testing.T) {
	for _, line := range []string{``, `{`, `[]`, `{"ok":tru}`, `{"ok":true,}`, `{"ok":true} x`,
		`{"ok":true,"run":{"stdout":"unterminated}}`, `{"ok":true,"run":{"stdout":"bad \q escape"}}`,
		`{"ok":true,"run":{"exit":1.5}}`, `{"ok":true,"run":{"stdout":"raw ` + "\n" + ` newline"}}`,
		`{"ok":true,"run":{"stdout":"\u12"}}`, `{"ok" true}`, `{"ok":true,"x":[1,]}`} {
		if _, err := runop.ParseReply([]byte(line)); err == nil {
			t.Errorf("%q: no error", line)
		}
	}
}
