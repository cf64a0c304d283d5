package applypatch

import (
	"path"
	"reflect"
	"strings"
	"testing"

	"ctx/core"
)

func TestParse(t *testing.T) {
	patch := "*** Begin Patch\r\n*** Add File: new.txt\n+one\n+two\n*** Update File: old.go\n*** Move to: moved.go\n@@\n-a\n+b\n" +
		"*** Delete File: gone.txt\n*** Update File:   \n+ignored\n*** End Patch\n"
	want := []core.FileTouch{
		{Path: "new.txt", Op: core.OpCreate, Patch: "+one\n+two", NewText: "one\ntwo\n"},
		{Path: "old.go", Op: core.OpMove, MovedTo: "moved.go", Patch: "@@\n-a\n+b"},
		{Path: "gone.txt", Op: core.OpDelete},
	}
	if got := Parse(patch, nil); !reflect.DeepEqual(got, want) {
		t.Fatalf("got  %+v\nwant %+v", got, want)
	}
	abs := func(p string) string {
		if p = strings.TrimSpace(p); p == "" {
			return ""
		}
		return path.Join("/repo", p)
	}
	got := Parse("*** Begin Patch\n*** Update File: a.go\n*** Move to: b.go\n@@\n-x\n+y\n*** End Patch", abs)
	if len(got) != 1 || got[0].Path != "/repo/a.go" || got[0].MovedTo != "/repo/b.go" {
		t.Fatalf("resolve not applied: %+v", got)
	}
	if got := Parse("no patch here", nil); got != nil {
		t.Fatalf("text without headers gave %+v", got)
	}
}

func FuzzParse(f *testing.F) {
	f.Add("*** Begin Patch\n*** Add File: a\n+x\n*** Move to: b\n*** End Patch")
	f.Fuzz(func(t *testing.T, s string) {
		for _, ft := range Parse(s, nil) {
			if ft.Path == "" || ft.Op == "" {
				t.Fatalf("touch without path or op: %+v", ft)
			}
		}
	})
}
