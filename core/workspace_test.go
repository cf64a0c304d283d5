package core

import "testing"

func TestWorkspaceScope(t *testing.T) {
	for _, c := range []struct {
		filter, dir string
		want        bool
	}{
		{"/a/b", "/a/b", true},
		{"/a/b/", "/a/b/c", true},
		{"/a/b", "/a/bc", false},
		{"/a/./b", "/a/b/c/d", true},
		{"/", "/x", true},
		{`C:\src\api`, `C:\src\api\cmd`, true},
		{`C:\src\api`, `C:\src\apiv2`, false},
		{`C:\`, `C:\src`, true},
	} {
		sc, ok := ParseWorkspaceScope(c.filter)
		if !ok || sc.Contains(c.dir) != c.want {
			t.Errorf("%q contains %q = %v, want %v", c.filter, c.dir, sc.Contains(c.dir), c.want)
		}
	}
	if _, ok := ParseWorkspaceScope("  "); ok {
		t.Error("a blank workspace is a filter")
	}
}
