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
		{`C:\Github\poule_v2\`, `C:\Github\poule_v2`, true},
		{`c:\github\POULE_V2`, `C:\Github\poule_v2\src`, true},
		{`c:/Apps/Repo`, `c:\Apps\Repo`, true},
		{`C:\Apps\Repo`, `c:/Apps/Repo/x`, true},
		{`C:\Apps\Repo`, `c:/Apps/Repo2`, false},
		{`C:`, `C:\x`, true},
		{`\\host\share`, `\\HOST\share\a`, true},
		{`/Users/x`, `/users/x`, false},
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
