package corpus

import (
	"math/rand/v2"
	"strings"
	"sync"
)

const (
	numIdents        = 30000
	pathsPerSpace    = 250
	lexiconSeed      = 0x5eed_c0de
	workspaceRootDir = "/home/dev/src/"
)

// workspace is one project that sessions run in.
type workspace struct {
	name   string
	cwd    string
	lang   string // "go", "py" or "ts"
	module string
	paths  []string // relative to cwd, most used first
}

// lexicon is the shared vocabulary. It does not depend on the seed, so every
// corpus (and every Append) draws from the same words, identifiers and paths.
type lexicon struct {
	idents []string
	spaces []*workspace
	byCwd  map[string]*workspace
}

var theLexicon = sync.OnceValue(buildLexicon)

func buildLexicon() *lexicon {
	r := newRand(lexiconSeed, 1)
	lx := &lexicon{byCwd: map[string]*workspace{}}
	lx.idents = buildIdents(r)
	for i, name := range workspaceNames {
		ws := buildWorkspace(r, name, i)
		lx.spaces = append(lx.spaces, ws)
		lx.byCwd[ws.cwd] = ws
	}
	return lx
}

// workspaceFor returns the workspace with this cwd, or a new one for a cwd
// the generator did not write (a foreign file passed to Append).
func (lx *lexicon) workspaceFor(cwd string) *workspace {
	if ws, ok := lx.byCwd[cwd]; ok {
		return ws
	}
	base := lx.spaces[0]
	return &workspace{name: "project", cwd: cwd, lang: base.lang, module: base.module, paths: base.paths}
}

func buildIdents(r *rand.Rand) []string {
	seen := make(map[string]bool, numIdents)
	out := make([]string, 0, numIdents)
	for len(out) < numIdents {
		id := makeIdent(r)
		if !seen[id] {
			seen[id] = true
			out = append(out, id)
		}
	}
	return out
}

func pick(r *rand.Rand, list []string) string { return list[r.IntN(len(list))] }

func makeIdent(r *rand.Rand) string {
	a, b, c := pick(r, identParts), pick(r, identParts), pick(r, identParts)
	three := r.IntN(3) == 0
	switch x := r.IntN(100); {
	case x < 35:
		s := pick(r, identVerbs) + title(a)
		if three {
			s += title(b)
		}
		return s
	case x < 70:
		s := title(a) + title(b)
		if three {
			s += title(c)
		}
		return s
	case x < 90:
		if three {
			return a + "_" + b + "_" + c
		}
		return a + "_" + b
	default:
		return strings.ToUpper(a + "_" + b)
	}
}

func title(s string) string {
	if s == "" || s[0] < 'a' || s[0] > 'z' {
		return s
	}
	return string(s[0]-'a'+'A') + s[1:]
}

func buildWorkspace(r *rand.Rand, name string, i int) *workspace {
	langs := []string{"go", "go", "go", "py", "go", "ts", "go", "py", "go", "ts"}
	ws := &workspace{name: name, cwd: workspaceRootDir + name, lang: langs[i%len(langs)],
		module: "example.com/dev/" + name}
	seen := map[string]bool{}
	ws.paths = append(ws.paths, miscFiles...)
	for _, p := range miscFiles {
		seen[p] = true
	}
	for len(ws.paths) < pathsPerSpace {
		p := makePath(r, ws.lang)
		if !seen[p] {
			seen[p] = true
			ws.paths = append(ws.paths, p)
		}
	}
	// most used files first: shuffle so README etc. are not always on top
	r.Shuffle(len(ws.paths), func(a, b int) { ws.paths[a], ws.paths[b] = ws.paths[b], ws.paths[a] })
	return ws
}

func makePath(r *rand.Rand, lang string) string {
	a, b := pick(r, identParts), pick(r, identParts)
	switch lang {
	case "py":
		dir := pick(r, pyDirs)
		if strings.HasPrefix(dir, "tests") {
			return dir + "/test_" + a + "_" + b + ".py"
		}
		return dir + "/" + a + "_" + b + ".py"
	case "ts":
		dir := pick(r, tsDirs)
		if dir == "src/components" || dir == "src/pages" {
			return dir + "/" + title(a) + title(b) + ".tsx"
		}
		if dir == "tests" || dir == "e2e" {
			return dir + "/" + a + title(b) + ".test.ts"
		}
		return dir + "/" + a + title(b) + ".ts"
	}
	dir := pick(r, goDirs)
	if r.IntN(3) == 0 {
		return dir + "/" + a + "_test.go"
	}
	if r.IntN(4) == 0 {
		return dir + "/" + a + "_" + b + ".go"
	}
	return dir + "/" + a + ".go"
}
