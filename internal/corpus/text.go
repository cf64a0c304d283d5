package corpus

import (
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
)

// gen draws text for one session: prose, identifiers, paths, code and tool
// output, all from the shared lexicon and the session's own random source.
type gen struct {
	r     *rand.Rand
	lx    *lexicon
	ws    *workspace
	zn    *rand.Zipf // nouns
	zv    *rand.Zipf // verbs
	za    *rand.Zipf // adjectives
	zi    *rand.Zipf // identifiers
	zp    *rand.Zipf // workspace paths
	shift int        // workspace-specific identifier offset
	buf   []byte     // scratch
}

func newGen(r *rand.Rand, ws *workspace) *gen {
	lx := theLexicon()
	g := &gen{r: r, lx: lx, ws: ws, buf: make([]byte, 0, 8<<10)}
	g.zn = rand.NewZipf(r, 1.1, 3, uint64(len(nouns)-1))
	g.zv = rand.NewZipf(r, 1.1, 3, uint64(len(verbs)-1))
	g.za = rand.NewZipf(r, 1.1, 3, uint64(len(adjectives)-1))
	g.zi = rand.NewZipf(r, 1.1, 4, uint64(len(lx.idents)-1))
	g.zp = rand.NewZipf(r, 1.2, 3, uint64(len(ws.paths)-1))
	for i, s := range lx.spaces {
		if s == ws {
			g.shift = i * 1500
		}
	}
	return g
}

func (g *gen) word() string  { return nouns[g.zn.Uint64()] }
func (g *gen) verb() string  { return verbs[g.zv.Uint64()] }
func (g *gen) adj() string   { return adjectives[g.za.Uint64()] }
func (g *gen) ident() string { return g.lx.idents[(int(g.zi.Uint64())+g.shift)%len(g.lx.idents)] }
func (g *gen) rel() string   { return g.ws.paths[g.zp.Uint64()] }
func (g *gen) abs(rel string) string {
	return g.ws.cwd + "/" + rel
}
func (g *gen) sha() string            { return randHex(g.r, 7) }
func (g *gen) chance(pct int) bool    { return g.r.IntN(100) < pct }
func (g *gen) between(lo, hi int) int { return lo + g.r.IntN(hi-lo+1) }

// logUniform draws from [lo, hi] with a log-uniform distribution, the shape
// of tool output sizes (many short, a long tail of long ones).
func (g *gen) logUniform(lo, hi int) int {
	l, h := math.Log(float64(lo)), math.Log(float64(hi))
	return int(math.Exp(l + g.r.Float64()*(h-l)))
}

// outLen is the size of one tool or command output: 200–4000 bytes, partly
// log-uniform (many short outputs), mostly uniform (a heavy tail).
func (g *gen) outLen() int {
	if g.chance(30) {
		return g.logUniform(200, 4000)
	}
	return g.between(200, 4000)
}

func appendTitle(b []byte, w string) []byte {
	if w != "" && w[0] >= 'a' && w[0] <= 'z' {
		b = append(b, w[0]-'a'+'A')
		return append(b, w[1:]...)
	}
	return append(b, w...)
}

// sentence appends one sentence of prose with code references.
func (g *gen) sentence(b []byte) []byte {
	return g.say(b, sentenceTemplates[g.r.IntN(len(sentenceTemplates))])
}

// say expands a prose template (placeholders are listed with
// sentenceTemplates).
func (g *gen) say(b []byte, t string) []byte {
	return fill(b, t, func(b []byte, c byte) []byte {
		switch c {
		case 'n':
			b = append(b, g.word()...)
		case 'v':
			b = append(b, g.verb()...)
		case 'V':
			b = appendTitle(b, g.verb())
		case 'a':
			b = append(b, g.adj()...)
		case 'A':
			b = appendArticle(b, g.adj())
		case 'N':
			b = appendPlural(b, g.word())
		case 'i':
			b = append(append(append(b, '`'), g.ident()...), '`')
		case 'p':
			b = append(append(append(b, '`'), g.rel()...), '`')
		case 't':
			b = append(append(append(b, '`'), g.testCommand()...), '`')
		case 's':
			b = append(b, g.sha()...)
		case 'd':
			b = strconv.AppendInt(b, int64(g.between(2, 40)), 10)
		default:
			b = append(b, '%', c)
		}
		return b
	})
}

// prose appends about n bytes of sentences in paragraphs.
func (g *gen) prose(b []byte, n int) []byte {
	start := len(b)
	for len(b)-start < n {
		if len(b) > start {
			if g.chance(18) {
				b = append(b, '\n', '\n')
			} else {
				b = append(b, ' ')
			}
		}
		b = g.sentence(b)
	}
	return b
}

func appendArticle(b []byte, w string) []byte {
	if w != "" && strings.IndexByte("aeiou", w[0]) >= 0 {
		b = append(b, "an "...)
	} else {
		b = append(b, "a "...)
	}
	return append(b, w...)
}

func appendPlural(b []byte, w string) []byte {
	switch {
	case strings.HasSuffix(w, "s"), strings.HasSuffix(w, "x"), strings.HasSuffix(w, "sh"), strings.HasSuffix(w, "ch"):
		return append(append(b, w...), "es"...)
	case strings.HasSuffix(w, "y") && !strings.HasSuffix(w, "ey"):
		return append(append(b, w[:len(w)-1]...), "ies"...)
	}
	return append(append(b, w...), 's')
}

// prompt appends a user prompt of about n bytes.
func (g *gen) prompt(b []byte, n int) []byte {
	start := len(b)
	b = g.say(b, promptTemplates[g.r.IntN(len(promptTemplates))])
	if rest := n - (len(b) - start); rest > 0 {
		b = g.prose(append(b, ' '), rest)
	}
	return b
}

// report appends a markdown answer: a lead sentence, bullets naming files
// and identifiers, and a verification line.
func (g *gen) report(b []byte, n int) []byte {
	start := len(b)
	b = g.sentence(b)
	if n < 250 {
		return g.prose(append(b, ' '), n-(len(b)-start))
	}
	b = append(b, "\n\n**Changes**\n"...)
	for len(b)-start < n-80 {
		b = append(b, "- `"...)
		b = append(b, g.rel()...)
		b = append(b, "`: "...)
		b = g.sentence(b)
		b = append(b, '\n')
	}
	b = append(b, "\n**Verification**\n- `"...)
	b = append(b, g.testCommand()...)
	return append(b, "` passes."...)
}

// title appends a short phrase (session titles, task subjects).
func (g *gen) title(b []byte) []byte {
	b = appendTitle(b, g.verb())
	b = append(b, ' ')
	if g.chance(50) {
		b = append(append(b, g.adj()...), ' ')
	}
	b = append(b, g.word()...)
	if g.chance(60) {
		b = append(append(b, " in "...), g.ident()...)
	}
	return b
}

func (g *gen) number() string { return strconv.Itoa(g.logUniform(1, 5000)) }

// pkgDir is the directory of a source path in the workspace.
func (g *gen) pkgDir() string {
	p := g.rel()
	for i := len(p) - 1; i >= 0; i-- {
		if p[i] == '/' {
			return p[:i]
		}
	}
	return "."
}

// testCommand is the command that runs the workspace's tests.
func (g *gen) testCommand() string {
	switch g.ws.lang {
	case "py":
		return "pytest -q tests/" + pick(g.r, []string{"unit", "integration", ""})
	case "ts":
		return "npm test -- " + g.pkgDir()
	}
	if dir := g.pkgDir(); dir != "." {
		return "go test ./" + dir + "/..."
	}
	return "go test ./..."
}
