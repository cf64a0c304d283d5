package query

import (
	"ctx/core"
	"strings"
	"testing"
)

func TestSearchRequestLimits(t *testing.T) {
	// A request is parsed at the edge (FilterArgs.Parse) and then
	// validated: either step must refuse each case.
	type tc struct {
		req  SearchRequest
		args FilterArgs
	}
	cases := map[string]tc{
		"empty":        {req: SearchRequest{Query: "  "}},
		"too long":     {req: SearchRequest{Query: strings.Repeat("a", MaxQueryBytes+1)}},
		"no query":     {},
		"limit high":   {req: SearchRequest{Query: "x", Limit: MaxLimit + 1}},
		"limit low":    {req: SearchRequest{Query: "x", Limit: -1}},
		"scope+type":   {req: SearchRequest{Query: "x", Scope: "all"}, args: FilterArgs{EventTypes: []string{"message"}}},
		"two types":    {req: SearchRequest{Query: "x"}, args: FilterArgs{EventTypes: []string{"message", "summary"}}},
		"bad scope":    {req: SearchRequest{Query: "x", Scope: "everything"}},
		"bad type":     {req: SearchRequest{Query: "x"}, args: FilterArgs{EventTypes: []string{"nope"}}},
		"bad role":     {req: SearchRequest{Query: "x"}, args: FilterArgs{Roles: []string{"wizard"}}},
		"bad session":  {req: SearchRequest{Query: "x"}, args: FilterArgs{Sessions: []string{"ses_nothex"}}},
		"root charset": {req: SearchRequest{Query: "x"}, args: FilterArgs{SourceRoots: []string{"../x"}}},
		"65 roots":     {req: SearchRequest{Query: "x"}, args: FilterArgs{SourceRoots: make([]string, 65)}},
	}
	for name, c := range cases {
		f, err := c.args.Parse()
		if err == nil {
			c.req.Filter = f
			_, err = c.req.Validate()
		}
		if CodeOf(err) != CodeInvalidRequest {
			t.Errorf("%s: got %v, want invalid_request", name, err)
		}
		if err != nil && strings.Contains(err.Error(), "../x") {
			t.Errorf("%s: message echoes the rejected value", name)
		}
	}
	// A typed filter built in Go is checked by Validate itself.
	typed := SearchRequest{Query: "x", Filter: core.Filter{Roles: []core.Role{"wizard"}}}
	if _, err := typed.Validate(); CodeOf(err) != CodeInvalidRequest {
		t.Errorf("typed bad role: got %v, want invalid_request", err)
	}
	ok := SearchRequest{Query: "parseConfig", Scope: "calls"}
	if scope, err := ok.Validate(); err != nil || scope != "calls" || ok.Limit != 20 {
		t.Fatalf("valid request: %v %v %d", scope, err, ok.Limit)
	}
}

// BenchmarkFilterParse is the cost the one typed filter adds to a request:
// parsing a front end's arguments and compiling the match once.
func BenchmarkFilterParse(b *testing.B) {
	args := FilterArgs{Providers: []string{"claude-code", "codex"}, Roles: []string{"user", "assistant"},
		EventTypes: []string{"message"}, Sessions: []string{"ses_24591081cdbcf15b591b404ea5207080"},
		SourceRoots: []string{"work"}, Files: []string{"main.go"}, Workspace: "/src/project", PrimaryOnly: true}
	for b.Loop() {
		f, err := args.Parse()
		if err != nil {
			b.Fatal(err)
		}
		_ = f.Compile()
	}
}
