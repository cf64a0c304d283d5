package claude

import (
	"bytes"
	"encoding/json"
	"testing"
	"unicode/utf8"
)

func TestUnquote(t *testing.T) {
	tests := []struct {
		in, want string
		ok       bool
	}{
		{`"plain"`, "plain", true},
		{`""`, "", true},
		{`"a\nb\t\"c\"\\d\/e\b\f\r"`, "a\nb\t\"c\"\\d/e\b\f\r", true},
		{`"\u00e9\u4e2d"`, "é中", true},
		{`"\ud83d\ude00!"`, "😀!", true},
		{`"\ud800x"`, "\uFFFDx", true},
		{`"\udc00\ud800"`, "\uFFFD\uFFFD", true},
		{`"\u12"`, "", false},
		{`"\x"`, "", false},
		{`"abc`, "", false},
		{`abc`, "", false},
	}
	for _, tt := range tests {
		got, ok := unquote([]byte(tt.in))
		if got != tt.want || ok != tt.ok {
			t.Errorf("unquote(%s) = %q %v, want %q %v", tt.in, got, ok, tt.want, tt.ok)
		}
	}
}

func TestEachField(t *testing.T) {
	in := ` { "a" : 1 , "b":{"c":[1,"}",{"d":"\"]"}]}, "e\"f":"x\\", "g":null,"h":[] } `
	var keys, vals []string
	ok := eachField([]byte(in), func(k, v []byte) {
		keys = append(keys, string(k))
		vals = append(vals, string(v))
	})
	wantKeys := []string{"a", "b", `e\"f`, "g", "h"}
	wantVals := []string{"1", `{"c":[1,"}",{"d":"\"]"}]}`, `"x\\"`, "null", "[]"}
	if !ok || !equal(keys, wantKeys) || !equal(vals, wantVals) {
		t.Errorf("ok %v keys %q vals %q", ok, keys, vals)
	}
	for _, bad := range []string{``, `[]`, `{`, `{"a"}`, `{"a":}`, `{"a":1,}`, `{"a":1 "b":2}`, `{"a":"x}`} {
		if eachField([]byte(bad), func(k, v []byte) {}) {
			t.Errorf("eachField(%s) succeeded", bad)
		}
	}
}

func equal(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// FuzzScan checks the walker against encoding/json on valid objects and
// that it never panics on anything.
func FuzzScan(f *testing.F) {
	f.Add([]byte(`{"a":"\u00e9\ud83d\ude00","b":[1,{"c":"]"}],"d":true}`))
	f.Add([]byte(`{"x":"\\\"","y":-1.5e3}`))
	f.Add([]byte(`{"a":"\ud800"}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		got := map[string][]byte{}
		ok := eachField(data, func(k, v []byte) {
			key, _ := unquote(append(append([]byte{'"'}, k...), '"'))
			got[key] = v
		})
		_, _ = unquote(data)
		eachElem(data, func([]byte) {})
		// jsonl rejects lines with invalid UTF-8 before they reach the walker.
		if !json.Valid(data) || !utf8.Valid(data) || firstByte(data) != '{' {
			return
		}
		var want map[string]json.RawMessage
		if err := json.Unmarshal(data, &want); err != nil {
			t.Fatal(err)
		}
		if !ok || len(got) != len(want) {
			t.Fatalf("walker ok=%v %d fields, encoding/json %d", ok, len(got), len(want))
		}
		for k, w := range want {
			if !bytes.Equal(got[k], bytes.TrimSpace(w)) {
				t.Fatalf("field %q: %s, want %s", k, got[k], w)
			}
			var ws string
			if json.Unmarshal(w, &ws) == nil {
				if s, _ := unquote(got[k]); s != ws {
					t.Fatalf("field %q: unquote %q, want %q", k, s, ws)
				}
			}
		}
	})
}
