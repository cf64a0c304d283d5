package jsonx

import (
	"encoding/json"
	"reflect"
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

// TestDecodeIsUnmarshal: Decode gives what json.Unmarshal gives, value
// and whether it failed, valid JSON or not, fields of unexpected types
// included (encoding/json keeps the fields after them).
func TestDecodeIsUnmarshal(t *testing.T) {
	type inner struct {
		N   int               `json:"n"`
		Ptr *int              `json:"ptr"`
		Raw json.RawMessage   `json:"raw"`
		Any any               `json:"any"`
		Map map[string]string `json:"map"`
	}
	type shape struct {
		S     string   `json:"s"`
		Other string   `json:"Other"`
		B     bool     `json:"b"`
		F     float64  `json:"f"`
		L     []string `json:"l"`
		In    *inner   `json:"in"`
		inner
	}
	inputs := []string{
		`{"s":"x","b":true,"f":1.5e3,"l":["a","b"],"in":{"n":3,"raw":{"k":[1,null]},"any":[1,"two",{"3":4}]}}`,
		`{"s":1,"b":true,"l":["kept after the bad field"]}`, // a field of the wrong type first
		`{"in":{"n":"bad","ptr":7,"map":{"a":"b"}},"s":"after"}`,
		`{"l":["a",2,"c"],"s":"after a bad element"}`,
		`{"S":"case","OTHER":"folded","other":"exact"}`,
		`{"s":"dup","s":"last wins"}`,
		`{"s":"\ud800 lone \udc00 and pair \ud83e\udd8a \u00e9 \/ \b"}`,
		"{\"s\":\"raw invalid \xff utf-8\"}",
		`{"n":1e400}`, `{"n":1.5}`, `{"f":-0,"any":12345678901234567890}`,
		`{"in":null,"l":null,"map":null,"raw":null}`,
		`{"map":{"a":1}}`, `{"unknown":{"deep":[[[]]]},"s":"x"}`,
		`not json`, `{"s":"x"`, `[1,2]`, `"string"`, `null`, ``, `{"s":"x"} trailing`,
	}
	for _, in := range inputs {
		var want, got shape
		errWant := json.Unmarshal([]byte(in), &want)
		errGot := Decode([]byte(in), &got)
		if (errWant == nil) != (errGot == nil) || !reflect.DeepEqual(want, got) {
			t.Errorf("%s:\nDecode    %+v (%v)\nUnmarshal %+v (%v)", in, got, errGot, want, errWant)
		}
	}
}
