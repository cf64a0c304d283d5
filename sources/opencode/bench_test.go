package opencode

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"ctx/core"
)

// benchDB builds a database of n sessions, each of 20 messages of 5 parts
// (text, reasoning, a bash and an edit tool, step-finish), in one
// transaction.
func benchDB(b *testing.B, n int) string {
	b.Helper()
	path := filepath.Join(b.TempDir(), "opencode.db")
	db := openDB(b, path)
	exec(b, db, "PRAGMA journal_mode = WAL")
	createTables(b, db, readExport(b, filepath.Join(fixtureDir(b), "opencode.db.rows.json")).Schema)
	exec(b, db, "BEGIN")
	for s := range n {
		sid := fmt.Sprintf("ses_%06d", s)
		exec(b, db, `INSERT INTO session (id, project_id, slug, directory, title, version, time_created, time_updated)
			VALUES (?, 'global', 's', '/w', 't', '1.17.3', ?, ?)`, sid, s, s)
		for m := range 20 {
			mid := fmt.Sprintf("msg_%06d_%03d", s, m)
			exec(b, db, `INSERT INTO message (id, session_id, time_created, time_updated, data) VALUES (?, ?, ?, ?, ?)`,
				mid, sid, m, m, asstMsg)
			for p, data := range benchParts {
				exec(b, db, `INSERT INTO part (id, message_id, session_id, time_created, time_updated, data) VALUES (?, ?, ?, 0, 0, ?)`,
					fmt.Sprintf("prt_%06d_%03d_%d", s, m, p), mid, sid, data)
			}
		}
	}
	exec(b, db, "COMMIT")
	return path
}

var benchParts = []string{
	`{"type":"text","text":"I will now run the tests and then fix the failing assertion in the parser, as discussed above.","time":{"start":1781746654575}}`,
	`{"type":"reasoning","text":"The failing test compares event ids across re-imports; the key must not depend on offsets.","time":{"start":1781746654395}}`,
	`{"type":"tool","tool":"bash","callID":"functions.bash:4","state":{"status":"completed","input":{"command":"go test ./...","description":"Run tests"},"output":"ok  \tctx/core\t0.2s\nFAIL\tctx/sources\t0.4s\n","metadata":{"output":"ok  \tctx/core\t0.2s\nFAIL\tctx/sources\t0.4s\n","exit":1,"description":"Run tests","truncated":false},"title":"Run tests","time":{"start":1781746875539,"end":1781746875552}}}`,
	`{"type":"tool","tool":"edit","callID":"functions.edit:17","state":{"status":"completed","input":{"filePath":"/w/parser.go","oldString":"key := offset","newString":"key := record.ID"},"output":"Edit applied successfully.","metadata":{"diagnostics":{},"diff":"@@ -1 +1 @@\n-key := offset\n+key := record.ID\n","truncated":false},"title":"w/parser.go","time":{"start":1781677732494,"end":1781677732501}}}`,
	`{"reason":"tool-calls","type":"step-finish","tokens":{"total":7746,"input":7102,"output":644,"reasoning":0,"cache":{"write":0,"read":0}},"cost":0.0082907}`,
}

func BenchmarkParseDB(b *testing.B) {
	path := benchDB(b, 200)
	st, err := os.Stat(path + "-wal")
	if err != nil {
		b.Fatal(err)
	}
	main, _ := os.Stat(path)
	b.SetBytes(st.Size() + main.Size())
	p := New()
	parts := 0
	for b.Loop() {
		res, err := p.Parse(core.SourceFile{Provider: ProviderID, Path: path})
		if err != nil || len(res.Sessions) != 200 {
			b.Fatalf("err %v sessions %d", err, len(res.Sessions))
		}
		parts += 200 * 20 * len(benchParts)
	}
	b.ReportMetric(float64(parts)/b.Elapsed().Seconds(), "parts/s")
}
