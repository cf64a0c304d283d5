package cursor

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"ctx/core"
)

// TestLockedDatabase holds an exclusive lock on another connection: the
// parse fails within the busy timeout with a database_locked read error,
// and succeeds once the writer is gone.
func TestLockedDatabase(t *testing.T) {
	path := filepath.Join(t.TempDir(), "globalStorage", dbName)
	rows := []row{composerRow("c", "", "u"), bubbleRow("c", "u", userBubble)}
	createDB(t, path, false, rows)
	writer := openWriter(t, path)
	conn, err := writer.Conn(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := conn.ExecContext(context.Background(), "BEGIN EXCLUSIVE"); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	_, err = New().Parse(core.SourceFile{Provider: ProviderID, Path: path})
	elapsed := time.Since(start)
	var re *core.ReadError
	if !errors.As(err, &re) || re.Code != ProblemDatabaseLocked {
		t.Fatalf("err = %v, want a %s read error", err, ProblemDatabaseLocked)
	}
	if elapsed > BusyTimeout+5*time.Second {
		t.Errorf("locked parse took %v", elapsed)
	}
	if _, err := conn.ExecContext(context.Background(), "ROLLBACK"); err != nil {
		t.Fatal(err)
	}
	conn.Close()
	if res := parseFile(t, core.SourceFile{Provider: ProviderID, Path: path}); len(res.Sessions) != 1 {
		t.Errorf("after the lock: %d sessions", len(res.Sessions))
	}
}

func TestCorruptAndVanished(t *testing.T) {
	dir := t.TempDir()
	junk := filepath.Join(dir, dbName)
	if err := os.WriteFile(junk, []byte(strings.Repeat("not a database ", 400)), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := New().Parse(core.SourceFile{Provider: ProviderID, Path: junk})
	var re *core.ReadError
	if !errors.As(err, &re) || re.Code != ProblemDatabaseCorrupt {
		t.Errorf("junk file: err = %v, want %s", err, ProblemDatabaseCorrupt)
	}
	_, err = New().Parse(core.SourceFile{Provider: ProviderID, Path: filepath.Join(dir, "gone", dbName)})
	if !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("vanished file: err = %v, want not-exist", err)
	}
	empty := filepath.Join(dir, "empty", dbName)
	createDB(t, empty, false, nil)
	if res := parseFile(t, core.SourceFile{Provider: ProviderID, Path: empty}); len(res.Sessions)+len(res.Problems) != 0 {
		t.Errorf("a database without chats: %+v", res)
	}
}

// badRows are a database's worth of bad values beside good ones.
func badRows() []row {
	return []row{
		composerRow("good", "", "u", "nullrow", "badjson", "mystery", "newer1", "newer2", "missing", "a"),
		bubbleRow("good", "u", userBubble),
		{table: tableKV, key: prefixBubble + "good:nullrow"}, // SQL NULL
		bubbleRow("good", "badjson", `{"_v":3,"type":2,"text":"cut`),
		bubbleRow("good", "mystery", `{"_v":3,"type":7,"text":"from the future"}`),
		bubbleRow("good", "newer1", `{"_v":9,"type":1,"text":"newer bubble"}`),
		bubbleRow("good", "newer2", `{"_v":9,"type":2,"text":"newer answer"}`),
		bubbleRow("good", "a", `{"_v":3,"type":2,"text":"last","createdAt":1783397624999}`),
		{table: tableKV, key: prefixComposer + "torn", value: []byte(`{"_v":16,"composerId":"torn","fullConv`)},
		{table: tableKV, key: prefixComposer + "shape", value: []byte(`[1,2]`)},
		composerRow("future", `"_v":99,"newField":{"x":1}`, "u"),
		bubbleRow("future", "u", userBubble),
		{table: tableKV, key: prefixComposer + "oddv", value: []byte(`{"_v":"x","composerId":"oddv","conversation":[` + userBubble + `]}`)},
		{table: tableItems, key: keyChatData, value: []byte(`{"tabs":[{"tabId":"t","bubbles":[`)},
		{table: tableItems, key: keyComposers, value: []byte(`{"allComposers":[{"composerId":"","conversation":[{"type":1,"text":"x"}]},{"composerId":"idx"}]}`)},
		{table: tableItems, key: keyPrompts, value: []byte(`{"not":"a list"}`)},
	}
}

func TestBadValues(t *testing.T) {
	path := filepath.Join(t.TempDir(), "workspaceStorage", "h", dbName)
	createDB(t, path, false, badRows())
	res := parseFile(t, core.SourceFile{Provider: ProviderID, Path: path})
	want := map[string]int{
		core.ProblemInvalidRecord: 4, // NULL bubble, [1,2] composer, prompts object, composer entry without id
		core.ProblemInvalidJSON:   3, // torn bubble, torn composer, torn chat data
		core.ProblemUnknownRecord: 1, // bubble type 7
		ProblemUnknownVersion:     3, // composer _v 99, composer _v "x", bubbles _v 9 (once per composer)
		ProblemMissingBubble:      1,
	}
	if got := problemCodes(res); !reflect.DeepEqual(got, want) {
		t.Errorf("problems %v, want %v", got, want)
	}
	for _, p := range res.Problems {
		if p.Provider != ProviderID || p.Path != path {
			t.Errorf("problem %+v without provider or path", p)
		}
	}
	good := sessionByNative(t, res, "good")
	var texts []string
	for _, e := range good.Events {
		texts = append(texts, string(e.Type)+":"+e.Text)
	}
	wantTexts := "message:hi,other:from the future,message:newer bubble,message:newer answer,message:last"
	if strings.Join(texts, ",") != wantTexts {
		t.Errorf("good composer kept %v", texts)
	}
	if e := good.Events[1]; e.Native != "bubble_type_7" || e.Role != core.RoleSystem {
		t.Errorf("unknown bubble kept as %+v", e)
	}
	if s := sessionByNative(t, res, "future"); len(s.Events) != 1 || s.Events[0].Text != "hi" {
		t.Errorf("newer composer parsed best-effort: %+v", s.Events)
	}
	if s := sessionByNative(t, res, "oddv"); len(s.Events) != 1 {
		t.Errorf("composer with an odd version: %+v", s.Events)
	}
	if len(res.Sessions) != 3 {
		t.Errorf("%d sessions, want good, future and oddv", len(res.Sessions))
	}
}

func TestExportBadLines(t *testing.T) {
	lines := []string{
		`{"key":"composerData:c","value":` + jsonQuote(composerJSON("c", "", "u")) + `}`,
		`{"key":"bubbleId:c:u","value":` + jsonQuote(userBubble) + `}`,
		`{"value":"no key"}`,
		`not json`,
		`{"table":"secrets","key":"k","value":"v"}`,
		`{"key":"bubbleId:c:v","value":"{\"type\":1`,
	}
	res, err := ParseExport(strings.NewReader(strings.Join(lines, "\n")), core.SourceFile{Provider: ProviderID, Path: "x.jsonl"})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string][]int{}
	for _, p := range res.Problems {
		got[p.Code] = append(got[p.Code], p.Line)
	}
	want := map[string][]int{core.ProblemInvalidRecord: {3}, core.ProblemInvalidJSON: {4},
		core.ProblemUnknownRecord: {5}, core.ProblemTornLine: {6}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("problems %v, want %v", got, want)
	}
	if len(res.Sessions) != 1 || len(res.Sessions[0].Events) != 1 {
		t.Errorf("good rows not kept: %+v", res.Sessions)
	}
}
