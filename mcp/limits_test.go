package mcp

import (
	"encoding/json"
	"strings"
	"testing"

	mcpgo "github.com/mark3labs/mcp-go/mcp"

	"ctx/query"
)

// TestReplyBytes: the byte count of a reply is what mcp-go serializes for
// the result object, escaping included.
func TestReplyBytes(t *testing.T) {
	out := map[string]any{"text": "a <b> & \"c\"\n\x1b[2J ünïcödé \u2028", "n": 1}
	text := "line <one>\n\"two\" \x00"
	r, err := respond(out, text)
	if err != nil {
		t.Fatal(err)
	}
	res := &mcpgo.CallToolResult{Content: []mcpgo.Content{mcpgo.NewTextContent(r.text)}, RawStructuredContent: r.structured}
	b, err := json.Marshal(res)
	if err != nil {
		t.Fatal(err)
	}
	if len(b) != r.bytes {
		t.Fatalf("reply counts %d bytes, mcp-go writes %d: %s", r.bytes, len(b), b)
	}
	if got := jsonStringLen(text); got+2 != len(mustMarshal(t, text)) {
		t.Fatalf("jsonStringLen %d, encoded %d", got, len(mustMarshal(t, text))-2)
	}
}

func mustMarshal(t *testing.T, v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// fakePage stands for a page whose events are big: read honours the byte
// budget the way query does.
type fakePage struct {
	Events []string `json:"events"`
}

func fakeReader(eventBytes, events int, escape bool) func(int) (any, int, string, error) {
	body := strings.Repeat("x", eventBytes)
	if escape {
		body = strings.Repeat("<", eventBytes) // six bytes each on the wire, one in the budget
	}
	return func(maxBytes int) (any, int, string, error) {
		p := &fakePage{}
		used := 0
		for range events {
			if used+eventBytes > maxBytes {
				if len(p.Events) == 0 {
					return nil, 0, "", query.Errorf(query.CodeOutputLimit, "one event alone exceeds the limit")
				}
				break
			}
			used += eventBytes
			p.Events = append(p.Events, body)
		}
		return p, len(p.Events), "page text", nil
	}
}

func TestFitPage(t *testing.T) {
	r, err := fitPage(fakeReader(150<<10, 20, false))
	if err != nil || !r.fits() {
		t.Fatalf("a page of big events must be shortened to fit: %v", err)
	}
	// The budget cannot see escaping: the reply is measured and read again.
	r, err = fitPage(fakeReader(100<<10, 20, true))
	if err != nil || !r.fits() {
		t.Fatalf("an escaped page must be shortened to fit: %v", err)
	}
	var p fakePage
	json.Unmarshal(r.structured, &p)
	if len(p.Events) == 0 || len(p.Events) >= 10 {
		t.Fatalf("%d events kept", len(p.Events))
	}
	for _, read := range []func(int) (any, int, string, error){fakeReader(2<<20, 3, false),
		fakeReader(300<<10, 3, true), fakeReader(200<<10, 1, true)} {
		_, err = fitPage(read)
		if obj := errorObject(err, nil); obj.ErrorCode != string(query.CodeOutputLimit) {
			t.Fatalf("one event over the limit: %v", err)
		}
	}
}

func TestFitSearch(t *testing.T) {
	out := &SearchOutput{Results: make([]query.SearchHit, 1000)}
	for i := range out.Results {
		out.Results[i].Snippet = strings.Repeat("<&>", 400)
	}
	out.Metadata.Returned = 1000
	r, err := fitSearch(out)
	if err != nil || !r.fits() {
		t.Fatalf("search must fit: %v", err)
	}
	if out.Metadata.Dropped == 0 || out.Metadata.Returned+out.Metadata.Dropped != 1000 {
		t.Fatalf("returned %d dropped %d", out.Metadata.Returned, out.Metadata.Dropped)
	}
}
