package integrations

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// clientCase is a client with a configuration full of unrelated settings.
type clientCase struct {
	client   string
	rel      string // the file, relative to the home directory
	original []byte
	conflict []byte // original with a ctx entry running something else
	invalid  []byte
	entry    string // the ctx entry as JSON, or TOML keys for Codex
}

func fixture(t *testing.T, name string) []byte { return readFile(t, filepath.Join("testdata", name)) }

func clientCases(t *testing.T) []clientCase {
	json := func(client, rel, file, entry string) clientCase {
		return clientCase{client: client, rel: rel, original: fixture(t, file), entry: entry,
			invalid: []byte("{\n  \"mcpServers\": {\n    \"a\": 1,,\n  }\n}\n")}
	}
	std := `{"command":"` + testCommand + `","args":["mcp","serve"]}`
	cases := []clientCase{
		json("claude-code", ".claude.json", "claude.json",
			`{"type":"stdio","command":"`+testCommand+`","args":["mcp","serve"],"env":{}}`),
		json("cursor", ".cursor/mcp.json", "cursor.json", std),
		{client: "codex", rel: ".codex/config.toml", original: fixture(t, "codex.toml"),
			invalid: []byte("model = \"o3\"\n[mcp_servers.x\ncommand = 1\n")},
		json("gemini-cli", ".gemini/settings.json", "gemini.json", std),
		json("vscode", ".config/Code/User/mcp.json", "vscode.jsonc",
			`{"type":"stdio","command":"`+testCommand+`","args":["mcp","serve"]}`),
		json("windsurf", ".codeium/windsurf/mcp_config.json", "windsurf.json", std),
		json("zed", ".config/zed/settings.json", "zed.jsonc", std),
		json("opencode", ".config/opencode/opencode.json", "opencode-v1.json",
			`{"type":"local","command":["`+testCommand+`","mcp","serve"],"enabled":true}`),
		json("opencode", ".config/opencode/opencode.jsonc", "opencode-v2.jsonc",
			`{"type":"local","command":["`+testCommand+`","mcp","serve"]}`),
		{client: "copilot-cli", rel: ".copilot/mcp-config.json", original: sharedFixture(t, "copilot-cli/mcp-config.json"),
			invalid: []byte(`{"mcpServers": `),
			entry:   `{"type":"local","command":"` + testCommand + `","args":["mcp","serve"],"env":{},"tools":["*"]}`},
	}
	return cases
}

func TestClientsPreserveUnrelatedBytes(t *testing.T) {
	for _, tc := range clientCases(t) {
		t.Run(tc.client+"/"+filepath.Base(tc.rel), func(t *testing.T) {
			env := testEnv(t)
			path := filepath.Join(env.Home, tc.rel)
			writeFile(t, path, tc.original, 0o644)

			r := run(t, OpInstall, opts(env, tc.client, false))
			if r.Action != ActionAdded || r.Entry != StateInstalled || r.Err != nil || r.Path != path {
				t.Fatalf("install: %+v", r)
			}
			installed := readFile(t, path)
			if !onlyInserted(tc.original, installed) {
				t.Fatalf("install changed unrelated bytes:\n%s", installed)
			}
			checkEntry(t, tc, installed)
			if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o644 {
				t.Errorf("mode %v, want 0644 kept", fi.Mode().Perm())
			}
			if got := readFile(t, r.Backup); string(got) != string(tc.original) {
				t.Errorf("backup %s does not hold the original", r.Backup)
			}

			r = run(t, OpInstall, opts(env, tc.client, false))
			if r.Action != ActionUnchanged || r.Entry != StateInstalled || string(readFile(t, path)) != string(installed) {
				t.Fatalf("re-install: %+v", r)
			}
			if r = run(t, OpStatus, opts(env, tc.client, false)); r.Entry != StateInstalled || !r.ConfigPresent {
				t.Fatalf("status: %+v", r)
			}

			r = run(t, OpRemove, opts(env, tc.client, false))
			if r.Action != ActionRemoved || r.Entry != StateAbsent {
				t.Fatalf("remove: %+v", r)
			}
			if got := readFile(t, path); string(got) != string(tc.original) {
				t.Fatalf("remove did not restore the original bytes:\n%s", got)
			}
			r = run(t, OpRemove, opts(env, tc.client, false))
			if r.Action != ActionUnchanged || r.Entry != StateAbsent || r.Err != nil {
				t.Fatalf("absent remove: %+v", r)
			}
		})
	}
}

// checkEntry decodes the installed file and compares the ctx entry.
func checkEntry(t *testing.T, tc clientCase, data []byte) {
	t.Helper()
	c, _ := Lookup(tc.client)
	if c.family == familyTOML {
		m, err := decodeTOML(data)
		if err != nil {
			t.Fatal(err)
		}
		entry, ok, _ := tomlEntry(m, "ctx")
		if !ok || entry["command"] != testCommand || !reflect.DeepEqual(entry["args"], []any{"mcp", "serve"}) {
			t.Fatalf("codex entry %v", entry)
		}
		return
	}
	d, err := parseJSONDoc("test", data)
	if err != nil {
		t.Fatal(err)
	}
	shape := c.shape(d.rootObject())
	all, _ := decodeStandard(data)
	got, found := dropEntry(all, shape.container, "ctx")
	var want any
	_ = json.Unmarshal([]byte(tc.entry), &want)
	if !found || !reflect.DeepEqual(got, want) {
		t.Fatalf("entry %v, want %v", got, want)
	}
}

// otherServer is a different server under the same name.
var otherServer = Server{Name: "ctx", Command: "/usr/local/bin/other-tool", Args: []string{"serve"}}

func TestClientsConflictingEntry(t *testing.T) {
	for _, tc := range clientCases(t) {
		t.Run(tc.client+"/"+filepath.Base(tc.rel), func(t *testing.T) {
			env := testEnv(t)
			path := filepath.Join(env.Home, tc.rel)
			writeFile(t, path, tc.original, 0o600)
			o := opts(env, tc.client, false)
			o.Server = otherServer
			run(t, OpInstall, o)
			conflict := readFile(t, path)

			for _, op := range []Op{OpInstall, OpRemove} {
				r := run(t, op, opts(env, tc.client, false))
				if r.Action != ActionSkipped || r.Entry != StateConflicting || r.Error.Code != CodeConflictingEntry {
					t.Fatalf("op %d without --force: %+v", op, r)
				}
				wantErr[*ConflictError](t, r.Err)
				if string(readFile(t, path)) != string(conflict) {
					t.Fatalf("op %d without --force changed the file", op)
				}
			}
			if r := run(t, OpStatus, opts(env, tc.client, false)); r.Entry != StateConflicting {
				t.Fatalf("status: %+v", r)
			}

			r := run(t, OpInstall, opts(env, tc.client, true))
			if r.Action != ActionReplaced || r.Entry != StateInstalled {
				t.Fatalf("install --force: %+v", r)
			}
			replaced := readFile(t, path)
			checkEntry(t, tc, replaced)
			if !onlyInserted(tc.original, replaced) {
				t.Fatalf("install --force changed unrelated bytes:\n%s", replaced)
			}

			writeFile(t, path, conflict, 0o600)
			if r := run(t, OpRemove, opts(env, tc.client, true)); r.Action != ActionRemoved {
				t.Fatalf("remove --force: %+v", r)
			}
			if got := readFile(t, path); string(got) != string(tc.original) {
				t.Fatalf("remove --force did not restore the original:\n%s", got)
			}
		})
	}
}

func TestClientsInvalidConfig(t *testing.T) {
	for _, tc := range clientCases(t) {
		t.Run(tc.client+"/"+filepath.Base(tc.rel), func(t *testing.T) {
			env := testEnv(t)
			path := filepath.Join(env.Home, tc.rel)
			writeFile(t, path, tc.invalid, 0o600)
			for _, force := range []bool{false, true} {
				for _, op := range []Op{OpInstall, OpRemove} {
					r := run(t, op, opts(env, tc.client, force))
					if r.Action != ActionFailed || r.Entry != StateInvalid || r.Error.Code != CodeInvalidConfig {
						t.Fatalf("op %d force=%v: %+v", op, force, r)
					}
					wantErr[*InvalidConfigError](t, r.Err)
				}
			}
			if got := readFile(t, path); string(got) != string(tc.invalid) {
				t.Fatalf("invalid file changed:\n%s", got)
			}
			if _, err := os.Stat(path + BackupSuffix); err == nil {
				t.Fatal("a backup was written for an untouched file")
			}
			r := run(t, OpStatus, opts(env, tc.client, false))
			if r.Entry != StateInvalid || !r.ConfigPresent || r.Error == nil || r.Action != "" {
				t.Fatalf("status: %+v", r)
			}
		})
	}
}
