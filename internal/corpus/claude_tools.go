package corpus

import (
	"bytes"
	"strconv"
)

// call is one tool_use with its pre-encoded input, result content and
// structured toolUseResult.
type call struct {
	id, name string
	input    enc // tool_use.input object
	content  enc // tool_result.content value
	result   enc // toolUseResult value; empty = omitted
	isError  bool
	shell    bool // a Bash call: command start, output and finish
	secs     float64
	src      string // uuid of the tool_use line
	sub      *subPlan
	prompt   []byte // Task prompt
}

func (c *call) reset(id string) {
	*c = call{id: id, input: c.input, content: c.content, result: c.result, prompt: c.prompt[:0]}
	c.input.reset()
	c.content.reset()
	c.result.reset()
}

// fillCall picks a tool and fills c with a plausible call and result.
func (s *claudeSess) fillCall(c *call) {
	switch x := s.g.r.IntN(100); {
	case x < 37:
		s.bashCall(c)
	case x < 57:
		s.readCall(c)
	case x < 71:
		s.editCall(c)
	case x < 79:
		s.grepCall(c)
	case x < 83:
		s.writeCall(c)
	case x < 86:
		s.multiEditCall(c)
	case x < 90:
		s.globCall(c)
	case x < 94:
		s.todoCall(c)
	default:
		s.mcpCall(c)
	}
}

func (s *claudeSess) bashCall(c *call) {
	g := s.g
	run := g.shell()
	c.name, c.shell, c.secs = "Bash", true, run.secs
	in := &c.input
	in.open()
	in.str("command", run.cmd)
	in.str("description", run.desc)
	if g.chance(10) {
		in.int("timeout", 120000)
	}
	in.close()
	if run.exit != 0 {
		msg := append([]byte("Exit code "+strconv.Itoa(run.exit)+"\n"), run.out...)
		c.isError = true
		c.content.vbytes(msg)
		c.result.vbytes(append([]byte("Error: "), msg...))
		return
	}
	c.content.vbytes(run.out)
	r := &c.result
	r.open()
	r.bytes("stdout", run.out)
	r.str("stderr", "")
	r.bool("interrupted", false)
	r.bool("isImage", false)
	if s.ver.modern {
		r.bool("noOutputExpected", false)
	}
	r.close()
}

// numbered appends code with line numbers the way the Read tool shows it.
func numbered(b, code []byte, from int) []byte {
	for no := from; len(code) > 0; no++ {
		line := code
		if i := bytes.IndexByte(code, '\n'); i >= 0 {
			line, code = code[:i], code[i+1:]
		} else {
			code = nil
		}
		s := strconv.Itoa(no)
		for range 6 - len(s) {
			b = append(b, ' ')
		}
		b = append(b, s...)
		b = append(b, "→"...)
		b = append(b, line...)
		b = append(b, '\n')
	}
	return b
}

func (s *claudeSess) readCall(c *call) {
	g := s.g
	path := g.abs(g.rel())
	code := g.code(nil, g.outLen())
	lines := bytes.Count(code, []byte{'\n'})
	from := 1
	c.name = "Read"
	c.input.open()
	c.input.str("file_path", path)
	if g.chance(35) {
		from = g.between(20, 400)
		c.input.int("offset", int64(from))
		c.input.int("limit", int64(lines))
	}
	c.input.close()
	c.content.vbytes(numbered(nil, code, from))
	r := &c.result
	r.open()
	r.str("type", "text")
	r.obj("file")
	r.str("filePath", path)
	r.bytes("content", code)
	r.int("numLines", int64(lines))
	r.int("startLine", int64(from))
	r.int("totalLines", int64(from+lines+g.r.IntN(300)))
	r.close()
	r.close()
}

// encHunk writes one structuredPatch hunk.
func encHunk(e *enc, ed edit) {
	e.open()
	e.int("oldStart", int64(ed.line))
	e.int("oldLines", int64(ed.oldLines()))
	e.int("newStart", int64(ed.line))
	e.int("newLines", int64(ed.newLines()))
	e.arr("lines")
	for _, l := range ed.hunkLines() {
		e.vstr(l)
	}
	e.closeArr()
	e.close()
}

// original is the file content an edit was applied to.
func (g *gen) original(ed edit) []byte {
	b := g.code(nil, g.between(200, 900))
	b = append(b, joinLines(ed.before)...)
	b = append(b, '\n')
	b = append(b, joinLines(ed.old)...)
	b = append(b, '\n')
	b = append(b, joinLines(ed.after)...)
	b = append(b, '\n')
	return g.code(b, g.between(100, 700))
}

func (s *claudeSess) editCall(c *call) {
	g := s.g
	ed := g.makeEdit()
	path := g.abs(ed.rel)
	oldS, newS := joinLines(ed.old), joinLines(ed.new)
	c.name = "Edit"
	c.input.open()
	c.input.str("file_path", path)
	c.input.str("old_string", oldS)
	c.input.str("new_string", newS)
	c.input.bool("replace_all", false)
	c.input.close()
	if s.ver.modern {
		c.content.vstr("The file " + path + " has been updated successfully.")
	} else {
		msg := []byte("The file " + path + " has been updated. Here's the result of running `cat -n` on a snippet of the edited file:\n")
		snippet := joinLines(append(append(append([]string(nil), ed.before...), ed.new...), ed.after...))
		c.content.vbytes(numbered(msg, []byte(snippet), ed.line))
	}
	r := &c.result
	r.open()
	r.str("filePath", path)
	r.str("oldString", oldS)
	r.str("newString", newS)
	r.bytes("originalFile", g.original(ed))
	r.arr("structuredPatch")
	encHunk(r, ed)
	r.closeArr()
	r.bool("userModified", false)
	r.bool("replaceAll", false)
	r.close()
}

func (s *claudeSess) multiEditCall(c *call) {
	g := s.g
	eds := []edit{g.makeEdit(), g.makeEdit()}
	if g.chance(40) {
		eds = append(eds, g.makeEdit())
	}
	path := g.abs(eds[0].rel)
	c.name = "MultiEdit"
	c.input.open()
	c.input.str("file_path", path)
	c.input.arr("edits")
	msg := []byte("Applied " + strconv.Itoa(len(eds)) + " edits to " + path + ":\n")
	for i, ed := range eds {
		c.input.open()
		c.input.str("old_string", joinLines(ed.old))
		c.input.str("new_string", joinLines(ed.new))
		c.input.close()
		msg = append(msg, strconv.Itoa(i+1)+". Replaced \""+clip(ed.old[0], 40)+"...\" with \""+clip(ed.new[0], 40)+"...\"\n"...)
	}
	c.input.closeArr()
	c.input.close()
	c.content.vbytes(msg)
	r := &c.result
	r.open()
	r.str("filePath", path)
	r.raw("edits", editsJSON(eds))
	r.bytes("originalFileContents", g.original(eds[0]))
	r.arr("structuredPatch")
	for _, ed := range eds {
		encHunk(r, ed)
	}
	r.closeArr()
	r.bool("userModified", false)
	r.close()
}

func editsJSON(eds []edit) []byte {
	var e enc
	e.openArr()
	for _, ed := range eds {
		e.open()
		e.str("old_string", joinLines(ed.old))
		e.str("new_string", joinLines(ed.new))
		e.bool("replace_all", false)
		e.close()
	}
	e.closeArr()
	return e.b
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n]
}

func (s *claudeSess) writeCall(c *call) {
	g := s.g
	path := g.abs(g.rel())
	code := g.code(nil, g.logUniform(200, 3000))
	c.name = "Write"
	c.input.open()
	c.input.str("file_path", path)
	c.input.bytes("content", code)
	c.input.close()
	c.content.vstr("File created successfully at: " + path)
	r := &c.result
	r.open()
	r.str("type", "create")
	r.str("filePath", path)
	r.bytes("content", code)
	r.arr("structuredPatch")
	r.closeArr()
	r.null("originalFile")
	r.close()
}
