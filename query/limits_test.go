package query

import (
	"strings"
	"testing"
)

func TestSearchRequestLimits(t *testing.T) {
	cases := map[string]SearchRequest{
		"empty":        {Query: "  "},
		"too long":     {Query: strings.Repeat("a", MaxQueryBytes+1)},
		"no query":     {},
		"limit high":   {Query: "x", Limit: MaxLimit + 1},
		"limit low":    {Query: "x", Limit: -1},
		"scope+type":   {Query: "x", Scope: "all", EventType: "message"},
		"bad scope":    {Query: "x", Scope: "everything"},
		"bad type":     {Query: "x", EventType: "nope"},
		"bad role":     {Query: "x", Roles: []string{"wizard"}},
		"bad session":  {Query: "x", Sessions: []string{"ses_nothex"}},
		"root charset": {Query: "x", SourceRoots: []string{"../x"}},
		"65 roots":     {Query: "x", SourceRoots: make([]string, 65)},
	}
	for name, req := range cases {
		req := req
		_, err := req.Validate()
		if CodeOf(err) != CodeInvalidRequest {
			t.Errorf("%s: got %v, want invalid_request", name, err)
		}
		if err != nil && strings.Contains(err.Error(), "../x") {
			t.Errorf("%s: message echoes the rejected value", name)
		}
	}
	ok := SearchRequest{Query: "parseConfig", Scope: "calls"}
	if scope, err := ok.Validate(); err != nil || scope != "calls" || ok.Limit != 20 {
		t.Fatalf("valid request: %v %v %d", scope, err, ok.Limit)
	}
}
