package opencode

import (
	"io/fs"
	"path/filepath"
	"strings"
	"testing"

	"ctx/core"
	"ctx/sources/sourcestest"
)

// TestConformance runs the provider suite over every fixture: the database
// built from both row exports, and every legacy session file.
func TestConformance(t *testing.T) {
	files := []core.SourceFile{{Provider: ProviderID, Path: fixtureDB(t, t.TempDir())}}
	legacy := filepath.Join(fixtureDir(t), "storage-legacy-1.1.12", "session")
	err := filepath.WalkDir(legacy, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".json") {
			files = append(files, core.SourceFile{Provider: ProviderID, Path: p})
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != 2 {
		t.Fatalf("fixture files %v, want the database and one legacy session", files)
	}
	sourcestest.Run(t, New(), files)
}

// TestBothFormsAgree checks that a session read from legacy storage and
// from a database holding the same records (as OpenCode's migration
// writes them) has the same events, so either source may win.
func TestBothFormsAgree(t *testing.T) {
	legacy := parseFile(t, New(), legacySessionPath(t))
	root := filepath.Join(fixtureDir(t), "storage-legacy-1.1.12")
	rows := Rows{Sessions: []SessionRow{{ID: "ses_4567b0e1affeRu0da2D26ls6sf",
		Directory: "/home/bot4u/Desktop/GEMINI/Mini_project",
		Title:     "Project review and edits plan after reading details", Created: 1768075620838}}}
	for _, m := range []string{"msg_ba984f1f4001Bo74Iak1blzDzy", "msg_ba984f265001lpPlrUzObBD6E9"} {
		rows.Messages = append(rows.Messages, MessageRow{ID: m, SessionID: "ses_4567b0e1affeRu0da2D26ls6sf",
			Data: readFile(t, filepath.Join(root, "message", "ses_4567b0e1affeRu0da2D26ls6sf", m+".json"))})
		matches, _ := filepath.Glob(filepath.Join(root, "part", m, "*.json"))
		for _, p := range matches {
			rows.Parts = append(rows.Parts, PartRow{ID: strings.TrimSuffix(filepath.Base(p), ".json"),
				MessageID: m, Data: readFile(t, p)})
		}
	}
	db := ParseRows(rows, core.SourceFile{Provider: ProviderID, Path: "opencode.db"})
	a, b := legacy.Sessions[0], db.Sessions[0]
	if a.Session.ID != b.Session.ID || len(a.Events) != len(b.Events) {
		t.Fatalf("sessions differ: %v/%d events vs %v/%d", a.Session.ID, len(a.Events), b.Session.ID, len(b.Events))
	}
	for i := range a.Events {
		x, y := a.Events[i], b.Events[i]
		if x.ID != y.ID || x.Text != y.Text || !x.Timestamp.Equal(y.Timestamp) || x.Type != y.Type {
			t.Errorf("event %d differs:\n%+v\n%+v", i, x, y)
		}
	}
}
