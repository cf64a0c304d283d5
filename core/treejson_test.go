package core

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"ctx/objects"
)

// sampleTree is a tree as ctx writes it, with what varies between real
// entries: no digest, no tokens, no or many files, a subagent, a machine,
// titles that encoding/json escapes or writes as UTF-8.
func sampleTree() *Tree {
	titles := []string{"fix the <b>flaky</b> test & \"quote\" \\ /", "naïve — ünïcode 😀 \u2028 \t tab",
		"", "line\nbreak\r\x01control", strings.Repeat("long ", 40)}
	t := &Tree{Kind: KindTree}
	t0 := time.Date(2026, 7, 1, 9, 30, 15, 123456789, time.UTC)
	for i := range 40 {
		e := TreeEntry{Session: NewSessionID(ProviderClaude, fmt.Sprint("n", i)), Object: objects.Hash([]byte{byte(i)}),
			Provider: []string{ProviderClaude, ProviderCodex}[i%2], SourceKey: fmt.Sprintf("/h/%d.jsonl", i), Events: i * 7}
		e.Root = e.Session
		if i%5 != 4 {
			e.Started, e.Ended, e.Workspace = t0.Add(time.Duration(i)*time.Hour), t0.Add(time.Duration(i)*time.Hour+time.Minute), fmt.Sprint("/src/p", i%3)
		}
		if i%7 != 6 {
			d := &Digest{Title: titles[i%len(titles)], TitleSource: TitleFromPrompt, NativeID: fmt.Sprint("n", i),
				Prompts: i, Messages: 2 * i, ToolCalls: i % 3, Commands: i % 4, Errors: i % 2, Compactions: i % 5, Edited: i % 6}
			for k := range i % 6 {
				d.Files = append(d.Files, fmt.Sprintf("/src/p%d/f%d.go", i%3, k))
			}
			if i%3 == 0 {
				d.Models = []string{"model-a", "model-b"}
				d.Tokens = &Tokens{Input: int64(i) << 33, Output: 5, CacheRead: int64(i % 2), CacheCreate: -1}
			}
			if i%8 == 3 {
				d.Parent, d.Subagent, d.SourceRoot, d.SourceGroup = NewSessionID(ProviderClaude, "n0"), true, "root", "grp"
				e.Root = d.Parent
			}
			e.Digest = d
		}
		if i%9 == 2 {
			e.Machine = "laptop"
		}
		t.Sessions = append(t.Sessions, e)
	}
	return t
}

// decodeBoth decodes data with the scanner and with encoding/json.
func decodeBoth(t *testing.T, data []byte) (fast *Tree, ok bool, want *Tree, wantErr error) {
	t.Helper()
	fast, ok = scanTree(data)
	want = new(Tree)
	if wantErr = json.Unmarshal(data, want); wantErr != nil {
		want = nil
	}
	return fast, ok, want, wantErr
}

func TestTreeDecoderTakesWhatCtxWrites(t *testing.T) {
	tree := sampleTree()
	compact, err := json.Marshal(tree)
	if err != nil {
		t.Fatal(err)
	}
	var indented bytes.Buffer
	if err := json.Indent(&indented, compact, " ", "\t"); err != nil {
		t.Fatal(err)
	}
	for name, data := range map[string][]byte{"compact": compact, "indented": indented.Bytes()} {
		fast, ok, want, err := decodeBoth(t, data)
		if err != nil || !ok {
			t.Fatalf("%s: scanner ok %v, encoding/json %v: the written form must take the fast path", name, ok, err)
		}
		if !reflect.DeepEqual(fast, want) || !reflect.DeepEqual(fast, tree) {
			t.Fatalf("%s: scanner and encoding/json differ", name)
		}
	}
	empty, _ := json.Marshal(&Tree{Kind: KindTree})
	if fast, ok, want, _ := decodeBoth(t, empty); !ok || !reflect.DeepEqual(fast, want) || fast.Sessions != nil {
		t.Fatalf("empty tree %s: ok %v %+v", empty, ok, fast)
	}
}

// Input the scanner does not take exactly as encoding/json goes to
// encoding/json: decodeTree's answer is always encoding/json's.
func TestTreeDecoderFallsBackToEncodingJSON(t *testing.T) {
	ses := NewSessionID(ProviderClaude, "x").String()
	obj := objects.Hash(nil).String()
	entry := func(extra string) string {
		return `{"kind":"tree","sessions":[{"ctx_session_id":"` + ses + `","object":"` + obj + `"` + extra + `}]}`
	}
	cases := map[string]struct {
		json string
		fast bool // the scanner decodes it (a string now and then through encoding/json)
	}{
		"unknown key":           {entry(`,"future":{"a":[1,2]}`), false},
		"key in other case":     {entry(`,"Provider":"codex"`), false},
		"repeated key":          {entry(`,"provider":"a","provider":"b"`), false},
		"repeated digest":       {entry(`,"digest":{"title":"a"},"digest":{"prompts":2}`), false},
		"fractional count":      {entry(`,"events":1.5`), false},
		"integral float":        {entry(`,"events":1.0`), false},
		"exponent":              {entry(`,"events":1e3`), false},
		"leading zero":          {entry(`,"events":01`), false},
		"overflow":              {entry(`,"events":99999999999999999999`), false},
		"negative":              {entry(`,"events":-3`), true},
		"escaped key":           {entry(`,"\u0070rovider":"codex"`), true},
		"escapes":               {entry(`,"source":"a\"b\\c\/d\b\f\n\r\t\u00e9\u20ac"`), true},
		"surrogate pair":        {entry(`,"source":"\ud83d\ude00"`), true},
		"lone surrogate":        {entry(`,"source":"\ud800x"`), true},
		"invalid utf-8":         {entry(",\"source\":\"a\xff\xfeb\""), true},
		"raw control character": {entry(",\"source\":\"a\x01b\""), false},
		"bad escape":            {entry(`,"source":"\q"`), false},
		"null values":           {entry(`,"provider":null,"events":null,"digest":null,"workspace":null`), true},
		"null lists":            {entry(`,"digest":{"files":null,"models":[],"tokens":null,"subagent":null}`), true},
		"null id":               {entry(`,"root_session_id":null`), false},
		"null time":             {entry(`,"started":null`), false},
		"bad time":              {entry(`,"started":"yesterday"`), false},
		"bad id":                {entry(`,"root_session_id":"ses_XYZ"`), false},
		"upper-case id":         {entry(`,"root_session_id":"` + strings.ToUpper(ses) + `"`), false},
		"empty parent":          {entry(`,"digest":{"parent":""}`), true},
		"wrong type":            {entry(`,"provider":3`), false},
		"bool word":             {entry(`,"digest":{"subagent":truex}`), false},
		"trailing comma":        {entry(`,`), false},
		"trailing garbage":      {entry(``) + ` x`, false},
		"truncated":             {entry(``)[:60], false},
		"null entry":            {`{"kind":"tree","sessions":[null]}`, false},
		"null sessions":         {`{"kind":"tree","sessions":null}`, true},
		"null tree":             {`null`, false},
		"not an object":         {`[1]`, false},
		"empty":                 {``, false},
		"white space":           {" \n\t{ \"kind\" : \"tree\" , \"sessions\" : [ ] } \r\n", true},
	}
	for name, c := range cases {
		data := []byte(c.json)
		fast, ok, want, wantErr := decodeBoth(t, data)
		if ok != c.fast {
			t.Errorf("%s: scanner took it: %v, want %v", name, ok, c.fast)
		}
		if ok && (wantErr != nil || !reflect.DeepEqual(fast, want)) {
			t.Errorf("%s: scanner %+v, encoding/json %+v (%v)", name, fast, want, wantErr)
		}
		got, err := decodeTree(data)
		if (err != nil) != (wantErr != nil) || !reflect.DeepEqual(got, want) {
			t.Errorf("%s: decodeTree %+v (%v), encoding/json %+v (%v)", name, got, err, want, wantErr)
		}
	}
}

func TestLoadTreeReadsAStoredTree(t *testing.T) {
	st, err := objects.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	tree := sampleTree()
	data, _ := json.Marshal(tree)
	id, err := st.Put(data)
	if err != nil {
		t.Fatal(err)
	}
	got, err := LoadTree(st, id)
	if err != nil || !reflect.DeepEqual(got, tree) {
		t.Fatalf("LoadTree: %v", err)
	}
	other, _ := st.Put([]byte(`{"kind":"session","sessions":[]}`))
	if _, err := LoadTree(st, other); err == nil || !strings.Contains(err.Error(), "is not a tree") {
		t.Fatalf("a session object as a tree: %v", err)
	}
}

// FuzzTreeDecoder: whatever the scanner takes, encoding/json takes the same
// way.
func FuzzTreeDecoder(f *testing.F) {
	data, _ := json.Marshal(sampleTree())
	f.Add(data)
	f.Add([]byte(`{"kind":"tree","sessions":[{"events":-0,"digest":{"files":["a","\u00e9"]}}]}`))
	f.Add([]byte(`{"kind":"tree","sessions":null}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		fast, ok, want, err := decodeBoth(t, data)
		if ok && (err != nil || !reflect.DeepEqual(fast, want)) {
			t.Fatalf("scanner %+v, encoding/json %+v (%v)", fast, want, err)
		}
	})
}

// BenchmarkDecodeTree decodes a tree of 3,600 entries with digests (the
// size of the read-model benchmark store's) with the scanner and with
// encoding/json.
func BenchmarkDecodeTree(b *testing.B) {
	base := sampleTree()
	big := &Tree{Kind: KindTree}
	for i := range 3600 {
		e := base.Sessions[i%len(base.Sessions)]
		e.Session = NewSessionID(ProviderCodex, fmt.Sprint("bench", i))
		big.Sessions = append(big.Sessions, e)
	}
	data, err := json.Marshal(big)
	if err != nil {
		b.Fatal(err)
	}
	b.Run("scanner", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		b.ReportAllocs()
		for b.Loop() {
			if _, ok := scanTree(data); !ok {
				b.Fatal("not taken")
			}
		}
	})
	b.Run("encoding-json", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		b.ReportAllocs()
		for b.Loop() {
			var t Tree
			if err := json.Unmarshal(data, &t); err != nil {
				b.Fatal(err)
			}
		}
	})
}

func TestLoadSharedTreeDecodesATreeOnce(t *testing.T) {
	st, err := objects.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	data, _ := json.Marshal(sampleTree())
	id, _ := st.Put(data)
	a, err := LoadSharedTree(st, id)
	if err != nil {
		t.Fatal(err)
	}
	if b, err := LoadSharedTree(st, id); err != nil || b != a {
		t.Fatalf("second load of the same id: %p %p %v", a, b, err)
	}
	other, _ := st.Put([]byte(`{"kind":"tree","sessions":[]}`))
	if b, err := LoadSharedTree(st, other); err != nil || b == a || len(b.Sessions) != 0 {
		t.Fatalf("another tree: %v", err)
	}
	bad, _ := st.Put([]byte(`{"kind":"chunk"}`))
	if _, err := LoadSharedTree(st, bad); err == nil {
		t.Fatal("a chunk read as a tree")
	}
	if b, err := LoadSharedTree(st, other); err != nil || len(b.Sessions) != 0 {
		t.Fatalf("after an error: %v", err)
	}
	if b, _ := LoadSharedTree(st, id); b == a || !reflect.DeepEqual(b, a) {
		t.Fatal("a tree decoded again after another was loaded must equal the first")
	}
}
