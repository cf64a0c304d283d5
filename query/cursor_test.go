package query

import (
	"os"
	"strings"
	"testing"

	"ctx/objects"
	"ctx/store"
)

var testKey = func(objects.ID) []byte { return []byte("0123456789abcdef0123456789abcdef") }

func sampleCursor() cursorPos {
	c := cursorPos{Kind: cursorListEvents, Session: 12345, Ordinal: 49999}
	c.Gen = objects.Hash([]byte("generation"))
	c.Binding = bindingOf([]byte("list_events"), []byte(`{"order":"asc"}`))
	return c
}

func TestCursorRoundTrip(t *testing.T) {
	for _, c := range []cursorPos{sampleCursor(), {Kind: cursorShowSession}, {Kind: 9, Session: 1<<64 - 1, Ordinal: 1<<64 - 1}} {
		s := encodeCursor(c, testKey)
		if len(s) > cursorMaxEncoded || len(s) > MaxCursorLen {
			t.Fatalf("cursor of %d bytes, reserved %d", len(s), cursorMaxEncoded)
		}
		for _, r := range s {
			if !(r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-' || r == '_') {
				t.Fatalf("cursor has %q", r)
			}
		}
		got, err := decodeCursor(s, testKey)
		if err != nil || got != c {
			t.Fatalf("round trip: %+v, %v; want %+v", got, err, c)
		}
	}
}

func wantCode(t *testing.T, err error, code Code) {
	t.Helper()
	if CodeOf(err) != code {
		t.Fatalf("error %v (code %q), want %s", err, CodeOf(err), code)
	}
}

// Every single-byte edit of a valid cursor, to any other byte value, is
// invalid_cursor: never another page.
func TestCursorEverySingleByteEdit(t *testing.T) {
	s := encodeCursor(sampleCursor(), testKey)
	b := []byte(s)
	for i := range b {
		orig := b[i]
		for v := range 256 {
			if byte(v) == orig {
				continue
			}
			b[i] = byte(v)
			_, err := decodeCursor(string(b), testKey)
			if CodeOf(err) != CodeInvalidCursor {
				t.Fatalf("edit at %d to %#x: %v", i, v, err)
			}
			if err != nil && strings.Contains(err.Error(), string(b)) {
				t.Fatal("the error echoes the cursor")
			}
		}
		b[i] = orig
	}
}

func TestCursorMalformed(t *testing.T) {
	s := encodeCursor(sampleCursor(), testKey)
	for n := range len(s) {
		_, err := decodeCursor(s[:n], testKey)
		wantCode(t, err, CodeInvalidCursor)
	}
	bad := []string{s + "A", s + "AA", "é" + s[2:], s[:10] + "\x00" + s[11:], strings.Repeat("A", MaxCursorLen+1),
		s + strings.Repeat("A", MaxCursorLen), s[:len(s)-1] + "=", " " + s, "🙂"}
	for _, b := range bad {
		_, err := decodeCursor(b, testKey)
		wantCode(t, err, CodeInvalidCursor)
		if strings.Contains(err.Error(), b) {
			t.Fatal("the error echoes the cursor")
		}
	}
	// A cursor signed with another key is a forgery.
	other := func(objects.ID) []byte { return []byte("another key, another key, anothe") }
	_, err := decodeCursor(encodeCursor(sampleCursor(), other), testKey)
	wantCode(t, err, CodeInvalidCursor)
}

func TestCheckCursorBinding(t *testing.T) {
	c := sampleCursor()
	s := encodeCursor(c, testKey)
	if _, err := checkCursor(s, testKey, c.Kind, c.Binding, c.Gen); err != nil {
		t.Fatal(err)
	}
	_, err := checkCursor(s, testKey, cursorShowSession, c.Binding, c.Gen)
	wantCode(t, err, CodeCursorMismatch)
	_, err = checkCursor(s, testKey, c.Kind, bindingOf([]byte("other")), c.Gen)
	wantCode(t, err, CodeCursorMismatch)
	_, err = checkCursor(s, testKey, c.Kind, c.Binding, objects.Hash([]byte("newer")))
	wantCode(t, err, CodeCursorStale)
}

func TestCursorKeyFile(t *testing.T) {
	home := t.TempDir()
	publishSynth(t, home, synthSession("k", 10))
	r := openReader(t, home)
	p, err := r.ShowSessionPage(ShowSessionPageRequest{ID: firstSession(t, r), Mode: ModeLog, Limit: 3})
	if err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(store.At(home).CursorKey())                                    // the writer made it; readers only read it
	if err != nil || fi.Mode().Perm() != 0o600 || fi.Size() != store.CursorKeyLen+4 { // the key and its checksum
		t.Fatalf("key file: %v %v", fi, err)
	}
	// Another reader (another process in real life) shares the key.
	cursorKeys.Delete(home)
	r2 := openReader(t, home)
	if _, err := r2.ShowSessionPage(ShowSessionPageRequest{ID: p.Session.ID.String(), Mode: ModeLog, Limit: 3,
		Cursor: p.Pagination.NextCursor}); err != nil {
		t.Fatal(err)
	}
}

// A store that cannot hold a key file falls back to the generation-derived
// key: cursors still work, bind, and go stale.
func TestCursorKeyFallback(t *testing.T) {
	home := t.TempDir()
	publishSynth(t, home, synthSession("f", 10))
	if err := os.Remove(store.At(home).CursorKey()); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(store.At(home).CursorKey(), 0o700); err != nil { // unreadable as a key
		t.Fatal(err)
	}
	r := openReader(t, home)
	id := firstSession(t, r)
	p, err := r.ShowSessionPage(ShowSessionPageRequest{ID: id, Limit: 2})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.ShowSessionPage(ShowSessionPageRequest{ID: id, Limit: 2, Cursor: p.Pagination.NextCursor}); err != nil {
		t.Fatal(err)
	}
	_, err = r.ShowSessionPage(ShowSessionPageRequest{ID: id, Mode: ModeLog, Limit: 2, Cursor: p.Pagination.NextCursor})
	wantCode(t, err, CodeCursorMismatch)
	publishSynth(t, home, synthSession("f", 12))
	r2 := openReader(t, home)
	_, err = r2.ShowSessionPage(ShowSessionPageRequest{ID: id, Limit: 2, Cursor: p.Pagination.NextCursor})
	wantCode(t, err, CodeCursorStale)
}

func firstSession(t testing.TB, r *Reader) string {
	t.Helper()
	tree, err := r.Tree()
	if err != nil || len(tree.Sessions) == 0 {
		t.Fatalf("no session: %v", err)
	}
	return tree.Sessions[0].Session.String()
}

func FuzzDecodeCursor(f *testing.F) {
	f.Add(encodeCursor(sampleCursor(), testKey))
	f.Add(encodeCursor(cursorPos{Kind: cursorShowSession, Ordinal: 7}, testKey))
	f.Add("")
	f.Add("AQ")
	f.Add(strings.Repeat("A", 200))
	f.Fuzz(func(t *testing.T, s string) {
		c, err := decodeCursor(s, testKey)
		if err != nil {
			if CodeOf(err) != CodeInvalidCursor {
				t.Fatalf("code %q", CodeOf(err))
			}
			if len(s) > 3 && strings.Contains(err.Error(), s) {
				t.Fatal("the error echoes the cursor")
			}
			return
		}
		// Only canonical cursors decode: re-encoding gives the input.
		if encodeCursor(c, testKey) != s {
			t.Fatalf("non-canonical cursor accepted")
		}
	})
}
