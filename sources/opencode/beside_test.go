package opencode

import (
	"path/filepath"
	"slices"
	"testing"

	sharedfx "ctx/internal/fixtures"
)

// TestLegacyStorageBesideDatabase: OpenCode's migration into opencode.db
// leaves sessions only storage/ holds (orphans of a missing project file,
// files it could not read, sessions an older OpenCode wrote after it). Those
// are read from storage/; a session both hold is read once, from the
// database.
func TestLegacyStorageBesideDatabase(t *testing.T) {
	fx := fixtureDir(t)
	home := t.TempDir()
	dir := filepath.Join(home, ".local", "share", "opencode")
	sharedfx.Copy(t, filepath.Join(fx, "storage-legacy-1.1.12"), filepath.Join(dir, "storage"))
	const legacy = "ses_4567b0e1affeRu0da2D26ls6sf" // the real 1.1.12 session
	db := newDB(t, filepath.Join(dir, mainDB), "WAL")
	addSession(t, db, "ses_dbonly", "", 1781746643000)
	addMessage(t, db, "msg_d1", "ses_dbonly", userMsg)
	addPart(t, db, "prt_d1", "msg_d1", "ses_dbonly", textPart("a question only the database holds"))

	read := func() map[string][]string { // native id -> the files it was read from
		t.Helper()
		files, problems := New().Discover(env(home, nil))
		if len(problems) != 0 {
			t.Fatalf("problems %v", problems)
		}
		got := map[string][]string{}
		for _, f := range files {
			res, err := New().Parse(f)
			if err != nil {
				t.Fatal(err)
			}
			for _, s := range res.Sessions {
				got[s.Session.NativeID] = append(got[s.Session.NativeID], filepath.Base(f.Path))
			}
		}
		return got
	}
	got := read()
	if !slices.Equal(got["ses_dbonly"], []string{mainDB}) || !slices.Equal(got[legacy], []string{legacy + ".json"}) {
		t.Fatalf("a database session and a storage/-only session: read %v", got)
	}

	// Migrated: the same id in the database. It is read once, from there.
	addSession(t, db, legacy, "", 1768075620838)
	got = read()
	if !slices.Equal(got[legacy], []string{mainDB}) || len(got) != 2 {
		t.Fatalf("a session in both: read %v", got)
	}
}
