package opencode

import (
	"os"
	"path/filepath"
	"testing"

	"ctx/core"
)

// FuzzParse feeds arbitrary message and part data, ids and parent links to
// ParseRows, the pure core of both storage forms. It must never panic and
// must always return finalized sessions.
func FuzzParse(f *testing.F) {
	f.Add("", []byte(userMsg), []byte(textPart("hi")), []byte(`{"type":"reasoning","text":"r"}`), "msg_1")
	f.Add("ses_p", []byte(asstMsg), []byte(`{"type":"tool","tool":"bash","state":{"status":"completed","input":{"command":"ls"},"metadata":{"exit":1.5}}}`),
		[]byte(`{"type":"tool","tool":"apply_patch","state":{"status":"completed","input":{"patchText":"*** Move to: x\n*** Add File: a\n+b"},"metadata":{"files":[{"type":"move"}]}}}`), "msg_2")
	f.Add("ses_t", []byte(`{"role":"user","summary":{"body":7},"time":{"created":-1e300}}`), []byte(`{"type":"file","source":{}}`), []byte("\x00\xff"), "")
	if dir, err := findFixtures(); err == nil {
		ex := readExport(f, filepath.Join(dir, "opencode.db.edit-parts.json"))
		f.Add("", []byte(jsonValue(f, ex.Message[0]["data"]).(string)), []byte(jsonValue(f, ex.Part[0]["data"]).(string)),
			[]byte(jsonValue(f, ex.Part[1]["data"]).(string)), "msg_ed444a9e2001BvSTPyl7oNY7Ql")
		legacy := filepath.Join(dir, "storage-legacy-1.1.12")
		msg, _ := os.ReadFile(filepath.Join(legacy, "message", "ses_4567b0e1affeRu0da2D26ls6sf", "msg_ba984f265001lpPlrUzObBD6E9.json"))
		part, _ := os.ReadFile(filepath.Join(legacy, "part", "msg_ba984f265001lpPlrUzObBD6E9", "prt_ba984fa14001NzOA0qfwnWUxeq.json"))
		f.Add("ses_t", msg, part, part, "msg_1")
	}
	f.Fuzz(func(t *testing.T, parent string, msg, part1, part2 []byte, msgID2 string) {
		rows := Rows{
			Sessions: []SessionRow{{ID: "ses_t", ParentID: parent, Model: string(part2)}, {ID: parent, ParentID: "ses_t"}},
			Messages: []MessageRow{{ID: "msg_1", SessionID: "ses_t", Data: msg}, {ID: msgID2, SessionID: parent, Data: part1}},
			Parts: []PartRow{{ID: "prt_1", MessageID: "msg_1", Data: part1}, {ID: "prt_2", MessageID: msgID2, Data: part2},
				{ID: "prt_0", MessageID: "msg_1", Data: part2}},
		}
		res := ParseRows(rows, core.SourceFile{Provider: ProviderID, Path: "fuzz.db"})
		for _, s := range res.Sessions {
			if s.Session.EventCount != len(s.Events) || s.Session.ID.IsZero() || s.Session.RootSessionID.IsZero() {
				t.Fatalf("session %+v not finalized", s.Session)
			}
			for _, e := range s.Events {
				if e.Type == "" || e.Role == "" {
					t.Fatalf("event %+v", e)
				}
				for _, ft := range e.Files {
					if ft.Path == "" || ft.Op == "" {
						t.Fatalf("file touch %+v", ft)
					}
				}
			}
		}
		for _, p := range res.Problems {
			if p.Code == "" {
				t.Fatalf("problem %+v", p)
			}
		}
	})
}
