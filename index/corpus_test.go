package index

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"time"

	"ctx/core"
	"ctx/objects"
)

// corpus generates a deterministic synthetic event stream shaped like the
// one measured in the bleve throughput study: ~540 B of text per event on
// average, sessions of 50–650 events, 30% subagent sessions, 20 workspaces,
// 5 providers, 90 days, prose with Zipf-drawn words, identifiers in every
// case style, file paths and hex ids.
type corpus struct {
	rng    *rand.Rand
	words  *pool
	idents *pool
	paths  *pool
	ws     []string
	provs  []string
	start  time.Time
}

// pool draws Zipf-distributed items.
type pool struct {
	items []string
	zipf  *rand.Zipf
}

func newPool(rng *rand.Rand, items []string) *pool {
	return &pool{items: items, zipf: rand.NewZipf(rng, 1.1, 4, uint64(len(items)-1))}
}

func (p *pool) draw() string { return p.items[p.zipf.Uint64()] }

var baseWords = strings.Fields(`the a to of and in is it for that on with this be as not are by at from
or have an but was can if will all would there their what so up out about which when make like time
just know take people into year your good some could them see other than then now look only come its
over think also back after use two how our work first well way even new want because any these give
day most us error config parse index store build test failed timeout request response server client
session event query search shard batch commit branch merge file path line code function method type
struct value field table cache lock token user agent tool call output command exit status retry panic
debug trace log warning fix bug issue review refactor rename move delete create update read write open
close start stop run deploy release version module package import export handler router middleware
context deadline cancel channel goroutine mutex atomic buffer stream reader writer encoder decoder
schema migration database transaction rollback snapshot generation object blob hash chunk tree ref
remote local origin upstream diff patch hunk blame note hook install remove daemon watch wake socket`)

func newCorpus(seed uint64) *corpus {
	rng := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	c := &corpus{rng: rng, start: time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC),
		provs: []string{"prov-a", "prov-b", "prov-c", "prov-d", "prov-e"}}
	c.words = newPool(rng, baseWords)
	idents := make([]string, 30000)
	for i := range idents {
		idents[i] = c.identifier()
	}
	c.idents = newPool(rng, idents)
	paths := make([]string, 5000)
	exts := []string{".go", ".ts", ".rs", ".py", ".md", ".json", ".toml", "_test.go"}
	for i := range paths {
		parts := []string{"internal", c.word(), c.word()}[:1+rng.IntN(3)]
		paths[i] = strings.Join(parts, "/") + "/" + strings.ToLower(c.identifier()) + exts[rng.IntN(len(exts))]
	}
	c.paths = newPool(rng, paths)
	for i := 0; i < 20; i++ {
		c.ws = append(c.ws, fmt.Sprintf("/src/%s-%d", c.word(), i))
	}
	return c
}

func (c *corpus) word() string { return baseWords[c.rng.IntN(len(baseWords))] }

// identifier returns a two- or three-word identifier in a random case style.
func (c *corpus) identifier() string {
	n := 2 + c.rng.IntN(2)
	parts := make([]string, n)
	for i := range parts {
		parts[i] = c.word()
	}
	switch c.rng.IntN(4) {
	case 0: // camelCase
		for i := 1; i < n; i++ {
			parts[i] = strings.ToUpper(parts[i][:1]) + parts[i][1:]
		}
		return strings.Join(parts, "")
	case 1: // PascalCase
		for i := range parts {
			parts[i] = strings.ToUpper(parts[i][:1]) + parts[i][1:]
		}
		return strings.Join(parts, "")
	case 2:
		return strings.Join(parts, "_")
	default:
		return strings.ToUpper(strings.Join(parts, "_"))
	}
}

func (c *corpus) hex() string {
	n := []int{7, 12, 32, 40}[c.rng.IntN(4)]
	const digits = "0123456789abcdef"
	b := make([]byte, n)
	for i := range b {
		b[i] = digits[c.rng.IntN(16)]
	}
	return string(b)
}

// prose returns about n bytes of sentences mixing words, identifiers, paths
// and hashes.
func (c *corpus) prose(n int) string {
	var b strings.Builder
	for b.Len() < n {
		switch r := c.rng.IntN(20); {
		case r < 14:
			b.WriteString(c.words.draw())
		case r < 17:
			b.WriteString("`" + c.idents.draw() + "`")
		case r < 19:
			b.WriteString(c.paths.draw())
		default:
			b.WriteString(c.hex()[:7])
		}
		b.WriteByte(' ')
	}
	return b.String()
}

// output returns about n bytes of tool output: code, grep hits, test logs.
func (c *corpus) output(n int) string {
	var b strings.Builder
	for b.Len() < n {
		switch c.rng.IntN(4) {
		case 0:
			fmt.Fprintf(&b, "%s:%d:\tif err := %s(ctx, %s); err != nil {\n", c.paths.draw(), c.rng.IntN(900), c.idents.draw(), c.idents.draw())
		case 1:
			fmt.Fprintf(&b, "--- FAIL: Test%s (0.%02ds)\n    %s:%d: %s %s\n", c.idents.draw(), c.rng.IntN(99), c.paths.draw(), c.rng.IntN(400), c.words.draw(), c.words.draw())
		case 2:
			fmt.Fprintf(&b, "commit %s\n    %s %s %s\n", c.hex(), c.words.draw(), c.idents.draw(), c.words.draw())
		default:
			fmt.Fprintf(&b, "\treturn %s.%s(%s)\n", c.words.draw(), c.idents.draw(), c.idents.draw())
		}
	}
	return b.String()
}

// eventText returns a type and text drawn with the study's shares and sizes.
func (c *corpus) event() (core.EventType, core.Role, string) {
	switch r := c.rng.Float64(); {
	case r < 0.219:
		return core.TypeMessage, core.RoleAssistant, c.prose(50 + c.rng.IntN(550))
	case r < 0.458:
		return core.TypeToolCall, core.RoleAssistant, fmt.Sprintf(`{"file_path":%q,"old_string":"%s(%s)","new_string":"%s"}`,
			c.paths.draw(), c.idents.draw(), c.words.draw(), c.idents.draw())
	case r < 0.699:
		return core.TypeToolOutput, core.RoleTool, c.output(200 + c.rng.IntN(2200))
	case r < 0.778:
		return core.TypeCommandStart, core.RoleTool, "go test ./" + c.paths.draw()
	case r < 0.860:
		return core.TypeCommandOutput, core.RoleTool, c.output(200 + c.rng.IntN(2200))
	case r < 0.940:
		return core.TypeCommandFinish, core.RoleTool, fmt.Sprintf("exit_code=%d duration_ms=%d", c.rng.IntN(2), c.rng.IntN(90000))
	case r < 0.990:
		return core.TypeOther, core.RoleSystem, c.prose(60 + c.rng.IntN(120))
	default:
		return core.TypeSummary, core.RoleAssistant, c.prose(400 + c.rng.IntN(800))
	}
}

// stream sends n docs on the returned channel and closes it.
func (c *corpus) stream(n int) <-chan Doc {
	ch := make(chan Doc, 256)
	go func() {
		defer close(ch)
		var sess, root *core.Session
		left, k := 0, 0
		ts := c.start
		for i := 0; i < n; i++ {
			if left == 0 {
				sess, root = c.session(i, root)
				left, k = 50+c.rng.IntN(600), 0
			}
			left--
			k++
			ts = ts.Add(time.Duration(c.rng.IntN(40000)) * time.Millisecond)
			typ, role, text := c.event()
			key := fmt.Sprint(i)
			e := &core.Event{ID: core.NewEventID(sess.ID, key), SessionID: sess.ID, Timestamp: ts,
				Role: role, Type: typ, Text: text}
			if c.rng.IntN(3) == 0 {
				e.Files = []core.FileTouch{{Path: c.paths.draw(), Op: "edit"}}
			}
			// a session's events in chunks of core.ChunkSize, as the store cuts them
			chunk := objects.Hash([]byte(fmt.Sprintf("%s/%d", sess.ID, (k-1)/core.ChunkSize)))
			ch <- Doc{Event: e, Session: sess, Chunk: chunk, Pos: (k - 1) % core.ChunkSize}
		}
	}()
	return ch
}

// session starts a new session; 30% are subagents of the previous root.
func (c *corpus) session(i int, prevRoot *core.Session) (*core.Session, *core.Session) {
	s := &core.Session{Provider: c.provs[c.rng.IntN(len(c.provs))], NativeID: fmt.Sprint("native-", i),
		Workspace: c.ws[c.rng.IntN(len(c.ws))]}
	s.ID = core.NewSessionID(s.Provider, s.NativeID)
	s.RootSessionID = s.ID
	if prevRoot != nil && c.rng.Float64() < 0.3 {
		s.IsSubagent, s.ParentSessionID, s.RootSessionID = true, prevRoot.ID, prevRoot.RootSessionID
		s.Provider, s.Workspace = prevRoot.Provider, prevRoot.Workspace
		return s, prevRoot
	}
	return s, s
}
