package cursor

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"ctx/core"
)

// benchRows copies the fixture composer and its bubble rows n times under
// new composer ids, with headers naming only the rows that exist.
func benchRows(b *testing.B, n int) []row {
	b.Helper()
	fixture := globalRows(b)
	var ids []string
	for _, r := range fixture[1:] {
		ids = append(ids, r.key[strings.LastIndexByte(r.key, ':')+1:])
	}
	var comp map[string]json.RawMessage
	if err := json.Unmarshal(fixture[0].value, &comp); err != nil {
		b.Fatal(err)
	}
	var out []row
	for i := range n {
		id := "bench-" + strconv.Itoa(i)
		var h []string
		for _, bid := range ids {
			h = append(h, `{"bubbleId":"`+bid+`","type":2}`)
		}
		comp["composerId"] = json.RawMessage(strconv.Quote(id))
		comp["fullConversationHeadersOnly"] = json.RawMessage("[" + strings.Join(h, ",") + "]")
		value, err := json.Marshal(comp)
		if err != nil {
			b.Fatal(err)
		}
		out = append(out, row{table: tableKV, key: prefixComposer + id, value: value})
		for j, r := range fixture[1:] {
			out = append(out, bubbleRow(id, ids[j], string(r.value)))
		}
	}
	return out
}

func BenchmarkParse(b *testing.B) {
	path := filepath.Join(b.TempDir(), dbName)
	createDB(b, path, false, benchRows(b, 40))
	st, err := os.Stat(path)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(st.Size())
	f := core.SourceFile{Provider: ProviderID, Path: path}
	for b.Loop() {
		res, err := New().Parse(f)
		if err != nil || len(res.Sessions) != 40 {
			b.Fatalf("%d sessions, %v", len(res.Sessions), err)
		}
	}
}
