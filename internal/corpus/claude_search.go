package corpus

import (
	"bytes"
	"strconv"
)

func (s *claudeSess) grepCall(c *call) {
	g := s.g
	id := g.ident()
	c.name = "Grep"
	c.input.open()
	c.input.str("pattern", id)
	if g.chance(60) {
		dir := g.abs(g.pkgDir())
		hits := g.grepHits(nil, g.outLen(), id)
		c.input.str("path", dir)
		c.input.str("output_mode", "content")
		c.input.bool("-n", true)
		c.input.close()
		c.content.vbytes(hits)
		r := &c.result
		r.open()
		r.str("mode", "content")
		r.int("numFiles", 0)
		r.arr("filenames")
		r.closeArr()
		r.bytes("content", hits)
		r.int("numLines", int64(bytes.Count(hits, []byte{'\n'})))
		r.close()
		return
	}
	c.input.str("output_mode", "files_with_matches")
	c.input.close()
	files := s.someFiles(g.between(1, 12))
	c.content.vstr("Found " + strconv.Itoa(len(files)) + " files\n" + joinLines(files))
	r := &c.result
	r.open()
	r.str("mode", "files_with_matches")
	r.raw("filenames", strList(files))
	r.int("numFiles", int64(len(files)))
	r.close()
}

func (s *claudeSess) someFiles(n int) []string {
	files := make([]string, n)
	for i := range files {
		files[i] = s.g.abs(s.g.rel())
	}
	return files
}

func strList(list []string) []byte {
	var e enc
	e.openArr()
	for _, v := range list {
		e.vstr(v)
	}
	e.closeArr()
	return e.b
}

func (s *claudeSess) globCall(c *call) {
	g := s.g
	pattern := map[string]string{"go": "**/*.go", "py": "**/*.py", "ts": "src/**/*.ts"}[g.ws.lang]
	files := s.someFiles(g.between(2, 40))
	c.name = "Glob"
	c.input.open()
	c.input.str("pattern", pattern)
	c.input.close()
	c.content.vstr(joinLines(files))
	r := &c.result
	r.open()
	r.raw("filenames", strList(files))
	r.int("durationMs", int64(5+g.r.IntN(200)))
	r.int("numFiles", int64(len(files)))
	r.bool("truncated", false)
	r.close()
}

var todoStatus = []string{"completed", "completed", "in_progress", "pending", "pending"}

func (s *claudeSess) todoCall(c *call) {
	g := s.g
	var todos enc
	todos.openArr()
	for i := range g.between(2, 6) {
		todos.open()
		todos.bytes("content", g.title(g.buf[:0]))
		todos.str("status", todoStatus[min(i, len(todoStatus)-1)])
		todos.str("activeForm", pick(g.r, activeForms)+" "+g.ident())
		todos.close()
	}
	todos.closeArr()
	c.name = "TodoWrite"
	c.input.open()
	c.input.raw("todos", todos.b)
	c.input.close()
	c.content.vstr("Todos have been modified successfully. Ensure that you continue to use the todo list to track your progress. Please proceed with the current tasks if applicable")
	c.result.open()
	c.result.raw("oldTodos", []byte("[]"))
	c.result.raw("newTodos", todos.b)
	c.result.close()
}

func (s *claudeSess) mcpCall(c *call) {
	g := s.g
	t := mcpTools[g.r.IntN(len(mcpTools))]
	c.name = "mcp__" + t[0] + "__" + t[1]
	in := &c.input
	in.open()
	var text []byte
	switch t[1] {
	case "get_issue", "list_pull_requests":
		in.str("owner", "dev")
		in.str("repo", g.ws.name)
		in.int("issue_number", int64(g.between(1, 900)))
		text = g.prose(nil, g.outLen())
	case "query":
		in.str("sql", "SELECT id, "+pick(g.r, identParts)+"_id, created_at FROM "+pick(g.r, identParts)+"s WHERE status = 'failed' ORDER BY created_at DESC LIMIT 20")
		text = g.logLines(nil, g.outLen())
	case "read_text_file":
		in.str("path", g.abs(g.rel()))
		text = g.code(nil, g.outLen())
	default:
		in.str("query", g.adj()+" "+g.word()+" "+g.ident())
		text = g.prose(nil, g.outLen())
	}
	in.close()
	var blocks enc
	blocks.openArr()
	blocks.open()
	blocks.str("type", "text")
	blocks.bytes("text", text)
	blocks.close()
	blocks.closeArr()
	c.content.b = append(c.content.b, blocks.b...)
	c.result.b = append(c.result.b, blocks.b...)
}
