package integrations

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func editCodex(t *testing.T, data string, op Op, s Server, force bool) outcome {
	t.Helper()
	return editTOML("config.toml", []byte(data), op, s, force)
}

// codexWithCtx has a conflicting ctx table in the middle, a sub-table that
// comes later, and comments that belong to neighbouring tables.
const codexWithCtx = `model = "o3"

[mcp_servers.other]
command = "other"

# the ctx server
[mcp_servers.ctx]
command = "/usr/local/bin/other-tool" # not ours
args = ["serve"]
startup_timeout_sec = 20

# comment of the next table
[profiles.fast]
model = "o4-mini"

[mcp_servers.ctx.env]
TOKEN = "x"

[tail]
x = 1
`

func TestCodexReplaceAndRemoveSubTables(t *testing.T) {
	if res := editCodex(t, codexWithCtx, OpInstall, testServer, false); res.state != StateConflicting || res.out != nil {
		t.Fatalf("without --force: %+v", res)
	}
	res := editCodex(t, codexWithCtx, OpInstall, testServer, true)
	if res.action != ActionReplaced {
		t.Fatalf("%+v", res)
	}
	want := strings.Replace(codexWithCtx, "command = \"/usr/local/bin/other-tool\" # not ours\nargs = [\"serve\"]\n"+
		"startup_timeout_sec = 20\n", "command = \""+testCommand+"\"\nargs = [\"mcp\", \"serve\"]\n", 1)
	want = strings.Replace(want, "\n[mcp_servers.ctx.env]\nTOKEN = \"x\"\n", "", 1)
	if string(res.out) != want {
		t.Fatalf("replace gave\n%s\nwant\n%s", res.out, want)
	}
	back := editCodex(t, string(res.out), OpRemove, testServer, false)
	// The comment above the table and the blank line after it stay.
	want = strings.Replace(want, "[mcp_servers.ctx]\ncommand = \""+testCommand+"\"\nargs = [\"mcp\", \"serve\"]\n", "", 1)
	if string(back.out) != want {
		t.Fatalf("remove gave\n%s\nwant\n%s", back.out, want)
	}
}

func TestCodexLayouts(t *testing.T) {
	ours := `command = "` + testCommand + `"` + "\nargs = [\"mcp\", \"serve\"]\n"
	cases := []struct {
		name, data string
		state      State
		edit       bool // remove succeeds
	}{
		{"quoted header", "[mcp_servers.\"ctx\"]\n" + ours, StateInstalled, true},
		{"spaced header", "[ mcp_servers . 'ctx' ] # ours\n" + ours, StateInstalled, true},
		{"inline table", "[mcp_servers]\nctx = { command = \"" + testCommand + "\", args = [\"mcp\", \"serve\"] }\n", StateInstalled, false},
		{"dotted keys", "mcp_servers.ctx.command = \"" + testCommand + "\"\nmcp_servers.ctx.args = [\"mcp\", \"serve\"]\n", StateInstalled, false},
		{"ctx inside a string", "notes = '''\n[mcp_servers.ctx]\n'''\n", StateAbsent, true},
	}
	for _, tc := range cases {
		res := editCodex(t, tc.data, OpRemove, testServer, false)
		if res.state != tc.state {
			t.Errorf("%s: state %s", tc.name, res.state)
		}
		if tc.edit != (res.err == nil) {
			t.Errorf("%s: remove error %v", tc.name, res.err)
		}
		if !tc.edit {
			wantErr[*UnsupportedLayoutError](t, res.err)
		}
		if tc.edit && tc.state == StateInstalled && strings.Contains(string(res.out), "mcp") {
			t.Errorf("%s: remove left\n%s", tc.name, res.out)
		}
	}
}

func TestCodexAppendForms(t *testing.T) {
	block := "[mcp_servers.ctx]\ncommand = \"" + testCommand + "\"\nargs = [\"mcp\", \"serve\"]\n"
	cases := map[string]string{
		"":                 block,
		"a = 1":            "a = 1\n\n" + block,
		"a = 1\n":          "a = 1\n\n" + block,
		"a = 1\n\n\n":      "a = 1\n\n\n\n" + block,
		"a = 1\r\n[b]\r\n": "a = 1\r\n[b]\r\n\r\n" + strings.ReplaceAll(block, "\n", "\r\n"),
	}
	for orig, want := range cases {
		res := editCodex(t, orig, OpInstall, testServer, false)
		if string(res.out) != want {
			t.Errorf("%q: got %q", orig, res.out)
		}
		back := editCodex(t, string(res.out), OpRemove, testServer, false)
		if orig != "a = 1" && string(back.out) != orig {
			t.Errorf("%q: remove gave %q", orig, back.out)
		}
	}
	odd := Server{Name: "ctx.dev", Command: `C:\tools\ctx "x".exe`, Args: []string{"mcp", "serve"}}
	res := editCodex(t, "", OpInstall, odd, false)
	if !strings.HasPrefix(string(res.out), "[mcp_servers.\"ctx.dev\"]\ncommand = \"C:\\\\tools\\\\ctx \\\"x\\\".exe\"") {
		t.Fatalf("quoting: %s", res.out)
	}
	if again := editCodex(t, string(res.out), OpInstall, odd, false); again.state != StateInstalled {
		t.Fatalf("re-install of a quoted name: %+v", again)
	}
}

func TestCodexInvalid(t *testing.T) {
	for _, bad := range []string{"mcp_servers = 3\n", "[mcp_servers.ctx]\ncommand = \n", "a = 1\na = 2\n"} {
		res := editCodex(t, bad, OpInstall, testServer, true)
		if res.state != StateInvalid || res.out != nil {
			t.Errorf("%q: %+v", bad, res)
		}
		wantErr[*InvalidConfigError](t, res.err)
	}
	// An inline mcp_servers table cannot take a new [mcp_servers.ctx] table.
	res := editCodex(t, "mcp_servers = { other = { command = \"x\" } }\n", OpInstall, testServer, false)
	wantErr[*UnsupportedLayoutError](t, res.err)
	if res.out != nil {
		t.Fatal("an unsupported edit produced output")
	}
}

// FuzzTOMLEdits checks on any input that an edit is refused or verified,
// and that removing an appended table gives back the input.
func FuzzTOMLEdits(f *testing.F) {
	b, _ := os.ReadFile(filepath.Join("testdata", "codex.toml"))
	f.Add(b)
	f.Add([]byte(codexWithCtx))
	f.Add([]byte("a = '''\n[x]\n'''\nb = [\n[1],\n]\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		res := editCodex(t, string(data), OpInstall, testServer, true)
		if res.out == nil {
			return
		}
		back := editCodex(t, string(res.out), OpRemove, testServer, false)
		if back.err != nil {
			t.Fatalf("remove after install: %v\n%q", back.err, res.out)
		}
		if res.action == ActionAdded && bytes.HasSuffix(data, []byte("\n")) && string(back.out) != string(data) {
			t.Fatalf("remove did not restore\n%q\n%q", data, back.out)
		}
	})
}
