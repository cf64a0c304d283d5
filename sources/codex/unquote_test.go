package codex

import (
	"encoding/json"
	"testing"
	"unicode/utf8"
)

func TestUnquote(t *testing.T) {
	for _, lit := range []string{
		`""`, `"plain"`, `"a\nb\tc\\d\"e\/f\bg\fh\ri"`, `"\u00e9\u4e2d"`, `"\ud83d\ude00 smile"`,
		`"\ud83d alone"`, `"\ude00 low"`, `"\ud83d\u0041"`, `"\u0000"`, `"é ✓"`, `"bad \x"`, `"cut \`, `7`,
	} {
		var want string
		if json.Unmarshal([]byte(lit), &want) != nil {
			want = lit
		}
		if got := unquote([]byte(lit)); got != want {
			t.Errorf("unquote(%s) = %q, want %q", lit, got, want)
		}
	}
}

// FuzzUnquote checks unquote against encoding/json on valid string
// literals, and round-trips marshalled strings.
func FuzzUnquote(f *testing.F) {
	f.Add([]byte(`"a\n\"b\"\\ \u2028 \ud83d\ude00 \ud800\u0041"`))
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 0 && data[0] == '"' && json.Valid(data) {
			var want string
			if err := json.Unmarshal(data, &want); err != nil {
				t.Fatal(err)
			}
			if got := unquote(data); got != want {
				t.Fatalf("unquote(%s) = %q, want %q", data, got, want)
			}
		}
		if !utf8.Valid(data) {
			return
		}
		lit, err := json.Marshal(string(data))
		if err != nil {
			t.Fatal(err)
		}
		if got := unquote(lit); got != string(data) {
			t.Fatalf("unquote(%s) = %q, want %q", lit, got, data)
		}
	})
}
