package integrations

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// editCase runs one operation on contents in memory.
func editZed(t *testing.T, data string, op Op, force bool) outcome {
	t.Helper()
	c, _ := Lookup("zed")
	return editJSON(c, "settings.json", []byte(data), op, testServer, force)
}

func TestJSONRoundTrips(t *testing.T) {
	cases := map[string]string{
		"minified":           `{"context_servers":{"a":{"command":"x"}},"z":1}`,
		"inline spaced":      `{ "context_servers": { "a": { "command": "x" } } }` + "\n",
		"crlf":               "{\r\n  \"context_servers\": {\r\n    \"a\": {}\r\n  }\r\n}\r\n",
		"trailing commas":    "{\n  \"context_servers\": {\n    \"a\": {},\n  },\n}\n",
		"comment after":      "{\n  \"context_servers\": {\n    \"a\": {} // note\n  }\n}\n",
		"comment at end":     "{\n  \"context_servers\": {\n    \"a\": {}\n    // end of servers\n  }\n}\n",
		"block comment":      "{\n  \"context_servers\": {\n    \"a\": {} /* spans\n lines */\n  }\n}\n",
		"tabs":               "{\n\t\"context_servers\": {\n\t\t\"a\": {}\n\t}\n}",
		"bom":                "\xef\xbb\xbf{\n  \"context_servers\": {\n    \"a\": {}\n  }\n}\n",
		"first comment":      "{\n  \"context_servers\": { // servers\n    \"a\": {}\n  }\n}\n",
		"trailing comment":   "{\n  \"context_servers\": {\n    \"a\": {},  // note\n  }\n}\n",
		"brace on last line": "{\n  \"context_servers\": {\n    \"a\": {}}}",
	}
	for name, orig := range cases {
		t.Run(name, func(t *testing.T) {
			res := editZed(t, orig, OpInstall, false)
			if res.err != nil || res.action != ActionAdded {
				t.Fatalf("install: %+v", res)
			}
			if !onlyInserted([]byte(orig), res.out) {
				t.Fatalf("install changed unrelated bytes:\n%s", res.out)
			}
			if name == "crlf" && strings.Count(string(res.out), "\n") != strings.Count(string(res.out), "\r\n") {
				t.Fatalf("mixed line breaks:\n%q", res.out)
			}
			back := editZed(t, string(res.out), OpRemove, false)
			if string(back.out) != orig {
				t.Fatalf("remove gave\n%q\nwant\n%q", back.out, orig)
			}
		})
	}
}

func TestJSONCreatesContainer(t *testing.T) {
	orig := "// settings\n{\n  \"theme\": \"One Dark\", // dark\n  \"vim_mode\": true\n}\n"
	res := editZed(t, orig, OpInstall, false)
	want := "// settings\n{\n  \"theme\": \"One Dark\", // dark\n  \"vim_mode\": true,\n  \"context_servers\": {\n" +
		"    \"ctx\": {\n      \"command\": \"" + testCommand + "\",\n      \"args\": [\"mcp\", \"serve\"]\n    }\n  }\n}\n"
	if string(res.out) != want {
		t.Fatalf("got\n%s\nwant\n%s", res.out, want)
	}
	// Removing leaves the container, emptied: nothing else changes.
	back := editZed(t, string(res.out), OpRemove, false)
	if want := strings.Replace(orig, "true\n", "true,\n  \"context_servers\": {}\n", 1); string(back.out) != want {
		t.Fatalf("remove gave\n%s", back.out)
	}
	if again := editZed(t, string(back.out), OpInstall, false); !strings.Contains(string(again.out), "\"context_servers\": {\n    \"ctx\"") {
		t.Fatalf("install into the empty container:\n%s", again.out)
	}
}

func TestJSONNestedContainerAndEmptyFile(t *testing.T) {
	c, _ := Lookup("opencode")
	for _, orig := range []string{"", "  \n", "{}"} {
		res := editJSON(c, "opencode.json", []byte(orig), OpInstall, testServer, false)
		want := "{\n  \"mcp\": {\n    \"ctx\": {\n      \"type\": \"local\",\n      \"command\": [\"" + testCommand +
			"\", \"mcp\", \"serve\"],\n      \"enabled\": true\n    }\n  }\n}"
		if strings.TrimSpace(string(res.out)) != want || res.schema != "v1" {
			t.Fatalf("from %q got\n%s", orig, res.out)
		}
	}
	v2 := `{"$schema": "https://opencode.ai/v2/config.json"}`
	if res := editJSON(c, "opencode.json", []byte(v2), OpInstall, testServer, false); res.schema != "v2" ||
		!strings.Contains(string(res.out), `"mcp": {"servers": {"ctx": {"type": "local"`) {
		t.Fatalf("v2 by $schema: %s", res.out)
	}
}

func TestJSONEntryShapes(t *testing.T) {
	cases := map[string]State{
		`"ctx": {"command": "` + testCommand + `", "args": ["mcp", "serve"], "env": {"A": "1"}}`:        StateInstalled,
		`"ctx": {"command": {"path": "` + testCommand + `", "args": ["mcp", "serve"]}, "settings": {}}`: StateInstalled,
		`"ctx": {"command": "` + testCommand + `", "args": ["mcp"]}`:                                    StateConflicting,
		`"ctx": {"type": "http", "url": "http://localhost"}`:                                            StateConflicting,
		`"ctx": "not an object"`: StateConflicting,
	}
	for member, want := range cases {
		res := editZed(t, `{"context_servers": {`+member+`}}`, OpStatus, false)
		if res.state != want || res.err != nil {
			t.Errorf("%s: state %s (%v), want %s", member, res.state, res.err, want)
		}
	}
	for _, bad := range []string{
		`{"context_servers": {"ctx": {}, "ctx": {}}}`,
		`{"context_servers": []}`,
		`{"context_servers": {}, "context_servers": {}}`,
		`[]`,
		`{"a": 1} trailing`,
	} {
		res := editZed(t, bad, OpInstall, true)
		if res.state != StateInvalid || res.out != nil {
			t.Errorf("%s: %+v", bad, res)
		}
		wantErr[*InvalidConfigError](t, res.err)
	}
}

func TestSameBinaryByAnotherPath(t *testing.T) {
	dir := t.TempDir()
	bin := filepath.Join(dir, "ctx")
	if err := os.WriteFile(bin, []byte("#!/bin/sh\n"), 0o700); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "ctx-link")
	if err := os.Symlink(bin, link); err != nil {
		t.Skip(err)
	}
	c, _ := Lookup("cursor")
	data := `{"mcpServers": {"ctx": {"command": "` + link + `", "args": ["mcp", "serve"]}}}`
	res := editJSON(c, "mcp.json", []byte(data), OpInstall, DefaultServer(bin), false)
	if res.state != StateInstalled || res.out != nil {
		t.Fatalf("%+v", res)
	}
}

// FuzzJSONEdits checks on any input that an edit is refused or verified,
// and that removing what install added gives back the input.
func FuzzJSONEdits(f *testing.F) {
	for _, name := range []string{"zed.jsonc", "vscode.jsonc", "claude.json", "cursor.json"} {
		b, _ := os.ReadFile(filepath.Join("testdata", name))
		f.Add(b)
	}
	f.Add([]byte(`{"context_servers":{/*x*/},}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		res := editZed(t, string(data), OpInstall, true)
		if res.out == nil {
			return
		}
		if _, err := parseJSONDoc("x", res.out); err != nil {
			t.Fatalf("install produced invalid JSONC: %v\n%q", err, res.out)
		}
		back := editZed(t, string(res.out), OpRemove, false)
		if back.err != nil {
			t.Fatalf("remove after install: %v", back.err)
		}
		if res.action == ActionAdded && hadServers(data) && string(back.out) != string(data) {
			t.Fatalf("remove did not restore\n%q\n%q", data, back.out)
		}
	})
}

// hadServers reports whether data has a non-empty context_servers object.
func hadServers(data []byte) bool {
	d, err := parseJSONDoc("x", data)
	if err != nil {
		return false
	}
	loc, err := d.walk("x", []string{"context_servers"})
	return err == nil && loc.depth == 1 && len(loc.obj.Members) > 0
}
