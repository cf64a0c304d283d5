package gitstore_test

import (
	"testing"

	"ctx/core"
	"ctx/gitstore"
)

func TestInclude(t *testing.T) {
	if gitstore.Include(nil, nil) != nil {
		t.Fatal("an empty setting shares something")
	}
	in := gitstore.Include([]string{"/w/proj", "/"}, nil)
	for ws, want := range map[string]bool{"/w/proj": true, "/w/proj/sub": true, "/w/project": true, "": false} {
		if got := in(core.TreeEntry{Workspace: ws}); got != want {
			t.Errorf("root /: %q = %v", ws, got)
		}
	}
	in = gitstore.Include([]string{"/w/proj/"}, []string{"codex"})
	for _, c := range []struct {
		e    core.TreeEntry
		want bool
	}{
		{core.TreeEntry{Workspace: "/w/proj"}, true},
		{core.TreeEntry{Workspace: "/w/proj/a"}, true},
		{core.TreeEntry{Workspace: "/w/project"}, false},
		{core.TreeEntry{Workspace: "/w"}, false},
		{core.TreeEntry{Provider: "codex"}, true},
		{core.TreeEntry{Provider: "claude-code", Workspace: "/x"}, false},
	} {
		if got := in(c.e); got != c.want {
			t.Errorf("%+v = %v", c.e, got)
		}
	}
}
