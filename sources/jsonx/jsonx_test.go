package jsonx

import (
	"encoding/json"
	"testing"
)

func TestRenderArgs(t *testing.T) {
	tests := []struct{ in, want string }{
		{`{"b":"two words","a":[1,2],"c":{"d":null}}`, "b: two words\na: [1,2]\nc: {\"d\":null}"},
		{`{"path":"C:\\a"}`, `path: C:\a`},
		{`{}`, ""},
		{`"plain"`, "plain"},
		{`not json`, "not json"},
		{`[1]`, "[1]"},
		{`{"a":`, `{"a":`},
		{``, ""},
	}
	for _, tt := range tests {
		if got := RenderArgs(json.RawMessage(tt.in)); got != tt.want {
			t.Errorf("RenderArgs(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
