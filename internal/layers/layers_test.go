// Package layers checks that imports go one way: down the table of
// docs/architecture.md.
package layers

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

const module = "ctx"

// table reads the layer table of docs/architecture.md: each row's layer
// number and the package patterns in backquotes (a trailing /* matches a
// folder's packages).
func table(t *testing.T, root string) map[string]int {
	t.Helper()
	f, err := os.Open(filepath.Join(root, "docs", "architecture.md"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	row := regexp.MustCompile("^\\| (\\d+) \\| ([^|]+) \\|")
	pkg := regexp.MustCompile("`([^`]+)`")
	out := map[string]int{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		m := row.FindStringSubmatch(sc.Text())
		if m == nil {
			continue
		}
		n, _ := strconv.Atoi(m[1])
		for _, p := range pkg.FindAllStringSubmatch(m[2], -1) {
			out[p[1]] = n
		}
	}
	if len(out) == 0 {
		t.Fatal("docs/architecture.md has no layer table")
	}
	return out
}

func layerOf(layers map[string]int, path string) (int, bool) {
	rel := strings.TrimPrefix(strings.TrimPrefix(path, module), "/")
	if n, ok := layers[rel]; ok {
		return n, true
	}
	for pat, n := range layers {
		if dir, ok := strings.CutSuffix(pat, "/*"); ok && strings.HasPrefix(rel, dir+"/") {
			return n, true
		}
	}
	return 0, false
}

// violations lists the imports of go list's lines ("pkg import...") that
// go against the layers, and the packages the table does not place.
func violations(layers map[string]int, lines []string) []string {
	var out []string
	for _, line := range lines {
		fields := strings.Fields(line)
		if len(fields) == 0 || fields[0] == module+"/internal/layers" {
			continue
		}
		from := fields[0]
		lf, ok := layerOf(layers, from)
		if !ok {
			out = append(out, from+" is not in the layer table of docs/architecture.md")
			continue
		}
		for _, to := range fields[1:] {
			if !strings.HasPrefix(to, module+"/") {
				continue
			}
			if lt, ok := layerOf(layers, to); ok && lt >= lf {
				out = append(out, fmt.Sprintf("%s (layer %d) imports %s (layer %d): imports must go to lower layers",
					from, lf, to, lt))
			}
		}
	}
	return out
}

// TestLayers fails on every import of a package at the same or a higher
// layer, and on every package the table does not place. Test files are not
// checked.
func TestLayers(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	layers := table(t, root)
	cmd := exec.Command("go", "list", "-f", "{{.ImportPath}} {{join .Imports \" \"}}", "./...")
	cmd.Dir = root
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	for _, v := range violations(layers, strings.Split(strings.TrimSpace(string(out)), "\n")) {
		t.Error(v)
	}
}

// TestViolationsFound: the check reports an import up the table, one
// within a layer and an unplaced package, and passes a downward import.
func TestViolationsFound(t *testing.T) {
	layers := map[string]int{"objects": 0, "query": 4, "sources/*": 3, "app": 6}
	got := violations(layers, []string{
		"ctx/query ctx/objects fmt",
		"ctx/objects ctx/query",
		"ctx/sources/claude ctx/sources/codex",
		"ctx/newpkg ctx/objects",
	})
	if len(got) != 3 || !strings.Contains(got[0], "ctx/objects (layer 0) imports ctx/query") ||
		!strings.Contains(got[1], "ctx/sources/claude") || !strings.Contains(got[2], "ctx/newpkg is not in") {
		t.Fatalf("violations: %q", got)
	}
}
