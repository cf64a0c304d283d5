package main

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	sharedfx "ctx/internal/fixtures"
)

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"ctx": func() { os.Exit(run(os.Args[1:], systemEnv())) },
	})
}

// TestScripts runs the end-to-end scripts in testdata/script against the
// real command, with HOME and CTX_HOME inside the script's work directory
// and FIXTURES pointing at the shared agent fixtures.
func TestScripts(t *testing.T) {
	fixtures, fxErr := sharedfx.Agents()
	if fxErr != nil && sharedfx.Required() {
		t.Fatalf("agent fixtures required (%s is set): %v", sharedfx.EnvRequire, fxErr)
	}
	mcpDir := buildMCPServer(t)
	testscript.Run(t, testscript.Params{
		Dir: "testdata/script",
		Condition: func(cond string) (bool, error) {
			if cond == "fixtures" {
				return fxErr == nil, nil
			}
			return false, fmt.Errorf("unknown condition %q", cond)
		},
		Setup: func(e *testscript.Env) error {
			e.Setenv("HOME", filepath.Join(e.WorkDir, "home"))
			e.Setenv("CTX_HOME", filepath.Join(e.WorkDir, "store"))
			e.Setenv("FIXTURES", fixtures)
			e.Setenv("TZ", "UTC")
			e.Setenv("CTX_DAEMON", "off")
			e.Setenv("PATH", mcpDir+string(os.PathListSeparator)+e.Getenv("PATH")) // ctx mcp serve runs ctx-mcp
			return os.MkdirAll(filepath.Join(e.WorkDir, "home"), 0o700)
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"copytree":   cmdCopyTree,
			"flipbyte":   cmdFlipByte,
			"countobjs":  cmdCountObjects,
			"grab":       cmdGrab,
			"cutshard":   cmdCutShard,
			"rmobjects":  cmdRemoveObjects,
			"exits":      cmdExits,
			"samesearch": cmdSameSearch,
		},
	})
}

// buildMCPServer builds ctx-mcp, which ctx mcp serve runs, and returns its
// directory: the scripts' ctx is this test binary, so ctx-mcp is found on
// PATH rather than beside it.
func buildMCPServer(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	if out, err := exec.Command("go", "build", "-o", filepath.Join(dir, "ctx-mcp"), "ctx/cmd/ctx-mcp").CombinedOutput(); err != nil {
		t.Fatalf("go build ctx-mcp: %v\n%s", err, out)
	}
	return dir
}

// TestScriptsGuardFixtures: a script that reads $FIXTURES starts with the
// [!fixtures] skip line, so a plain clone skips it with one clear line
// instead of failing on a missing directory.
func TestScriptsGuardFixtures(t *testing.T) {
	paths, err := filepath.Glob("testdata/script/*.txtar")
	if err != nil || len(paths) == 0 {
		t.Fatalf("no scripts: %v", err)
	}
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		s := string(data)
		if strings.Contains(s, "$FIXTURES") && !strings.Contains(s, "\n[!fixtures] skip '") {
			t.Errorf("%s reads $FIXTURES without a [!fixtures] skip line", p)
		}
	}
}

// samesearch A B: two ctx search --format json answers are the same but
// for the time each took; both found something.
func cmdSameSearch(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 2 {
		ts.Fatalf("usage: samesearch a.json b.json")
	}
	var docs [2]map[string]any
	for i, a := range args {
		ts.Check(json.Unmarshal([]byte(ts.ReadFile(a)), &docs[i]))
		md, _ := docs[i]["metadata"].(map[string]any)
		if md == nil {
			ts.Fatalf("%s: no metadata", a)
		}
		delete(md, "took_ms")
		if res, _ := docs[i]["results"].([]any); len(res) == 0 {
			ts.Fatalf("%s: no results", a)
		}
	}
	a, _ := json.Marshal(docs[0])
	b, _ := json.Marshal(docs[1])
	if same := string(a) == string(b); same == neg {
		ts.Fatalf("%s and %s: same %v\n%s\n%s", args[0], args[1], same, a, b)
	}
}

// copytree SRC DST copies a directory tree.
func cmdCopyTree(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 2 {
		ts.Fatalf("usage: copytree src dst")
	}
	src, dst := ts.MkAbs(args[0]), ts.MkAbs(args[1])
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o700)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(target, data, 0o600)
	})
	ts.Check(err)
}

// objectFiles lists the object files of the store in $CTX_HOME, sorted.
func objectFiles(ts *testscript.TestScript) []string {
	root := filepath.Join(ts.Getenv("CTX_HOME"), "objects")
	var out []string
	_ = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && filepath.Base(filepath.Dir(p)) != "tmp" {
			out = append(out, p)
		}
		return nil
	})
	sort.Strings(out)
	return out
}

// flipbyte N flips one byte in the middle of the N-th object file of the
// store and prints the object's id.
func cmdFlipByte(ts *testscript.TestScript, neg bool, args []string) {
	files := objectFiles(ts)
	n, _ := strconv.Atoi(args[0])
	if n >= len(files) {
		ts.Fatalf("only %d objects", len(files))
	}
	p := files[n]
	data, err := os.ReadFile(p)
	ts.Check(err)
	data[len(data)/2] ^= 0x40
	ts.Check(os.WriteFile(p, data, 0o600))
	ts.Setenv("FLIPPED", filepath.Base(filepath.Dir(p))+filepath.Base(p))
}

// grab VAR REGEXP sets VAR to the first match of REGEXP in the last stdout.
func cmdGrab(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 2 {
		ts.Fatalf("usage: grab VAR REGEXP")
	}
	m := regexp.MustCompile(args[1]).FindString(ts.ReadFile("stdout"))
	if m == "" {
		ts.Fatalf("grab: no match for %s", args[1])
	}
	ts.Setenv(args[0], m)
}

// countobjs N asserts the store holds exactly N objects (N may be $VAR).
func cmdCountObjects(ts *testscript.TestScript, neg bool, args []string) {
	files := objectFiles(ts)
	if len(args) == 0 {
		ts.Setenv("OBJECTS", strconv.Itoa(len(files)))
		return
	}
	want, err := strconv.Atoi(args[0])
	if err != nil {
		ts.Fatalf("countobjs: %v", err)
	}
	if (len(files) == want) == neg {
		ts.Fatalf("store holds %d objects, want %s%d", len(files), map[bool]string{true: "not ", false: ""}[neg], want)
	}
}
