package corpus

import (
	"strconv"
	"time"
)

// ccall is one Codex tool call: a function_call (shell_command,
// update_plan) or a custom_tool_call (apply_patch), with its output.
type ccall struct {
	id     string
	name   string
	custom bool
	shell  bool
	args   enc // function_call.arguments (a JSON string) or the patch text
	output []byte
}

// turn writes a user prompt, tool-using steps and a final answer.
func (s *codexSess) turn(target int, first bool) {
	g := s.g
	s.tick(20*time.Second, 10*time.Minute)
	prompt := s.promptText()
	s.message("user", prompt)
	s.eventMsg("user_message", "message", prompt, true)
	s.events++
	s.tick(5*time.Millisecond, 40*time.Millisecond)
	s.turnContext()
	if g.chance(60) {
		s.ghostSnapshot()
	}
	if first {
		s.tokenCount(true)
	}
	for step := 0; ; step++ {
		if left := target - s.events; left <= 12 || (step > 0 && g.chance(12)) {
			break
		}
		s.step()
	}
	s.final()
}

// promptText is the user's prompt; the VS Code extension wraps it in the
// IDE context.
func (s *codexSess) promptText() []byte {
	g := s.g
	if s.ver.source != "vscode" {
		return g.prompt(nil, g.between(60, 600))
	}
	active := g.rel()
	b := []byte("# Context from my IDE setup:\n\n## Active file: " + active + "\n\n## Open tabs:\n")
	for range g.between(1, 5) {
		rel := g.rel()
		b = append(b, "- "+baseName(rel)+": "+rel+"\n"...)
	}
	b = append(b, "\n## My request for Codex:\n"...)
	return append(g.prompt(b, g.between(60, 500)), '\n')
}

// step writes reasoning, one to three calls, their outputs and the
// bookkeeping Codex writes around a model request.
func (s *codexSess) step() {
	g := s.g
	s.tick(time.Second, 20*time.Second)
	if g.chance(85) {
		s.reasoning()
	}
	n := 1
	if x := g.r.IntN(100); x < 8 {
		n = 3
	} else if x < 30 {
		n = 2
	}
	for len(s.calls) < n {
		s.calls = append(s.calls, &ccall{})
	}
	for _, c := range s.calls[:n] {
		s.fillCall(c)
		s.writeCall(c)
	}
	s.tick(10*time.Millisecond, 30*time.Millisecond)
	s.tokenCount(false)
	for _, c := range s.calls[:n] {
		s.tick(20*time.Millisecond, 3*time.Second)
		s.writeOutput(c)
	}
	s.tick(10*time.Millisecond, 30*time.Millisecond)
	s.turnContext()
	s.tick(100*time.Millisecond, 300*time.Millisecond)
	s.tokenCount(false)
}

// reasoning writes a reasoning item (1 event) and its agent_reasoning copy.
func (s *codexSess) reasoning() {
	g := s.g
	b := append(g.buf[:0], "**"...)
	b = g.title(b)
	b = append(b, "**"...)
	if g.chance(75) {
		b = append(b, "\n\n"...)
		b = g.prose(b, g.between(80, 800))
	}
	g.buf = b
	s.eventMsg("agent_reasoning", "text", b, false)
	e := s.begin("response_item")
	e.str("type", "reasoning")
	e.arr("summary")
	e.open()
	e.str("type", "summary_text")
	e.bytes("text", b)
	e.close()
	e.closeArr()
	e.null("content")
	e.str("encrypted_content", signature(g.r, "gAAAAAB", g.between(200, 600)))
	s.end()
	s.events++
}

func (s *codexSess) fillCall(c *ccall) {
	g := s.g
	*c = ccall{id: callID(g.r), args: c.args}
	c.args.reset()
	switch x := g.r.IntN(100); {
	case x < 68:
		run := g.shell()
		c.name, c.shell = "shell_command", true
		c.args.open()
		c.args.str("command", run.cmd)
		c.args.str("workdir", s.cwd)
		c.args.close()
		c.output = append([]byte("Exit code: "+strconv.Itoa(run.exit)+"\nWall time: "+formatSecs(run.secs)+
			" seconds\nOutput:\n"), run.out...)
	case x < 93:
		var files []string
		c.name, c.custom = "apply_patch", true
		c.args.b, files = g.applyPatch(c.args.b)
		var o enc
		o.open()
		o.str("output", "Success. Updated the following files:\n"+joinLines(files)+"\n")
		o.obj("metadata")
		o.int("exit_code", 0)
		o.float("duration_seconds", 0)
		o.close()
		o.close()
		c.output = o.b
	default:
		c.name = "update_plan"
		s.planArgs(&c.args)
		c.output = []byte("Plan updated")
	}
}

func (s *codexSess) planArgs(a *enc) {
	g := s.g
	a.open()
	a.arr("plan")
	for i := range g.between(2, 5) {
		a.open()
		a.str("status", todoStatus[min(i, len(todoStatus)-1)])
		a.bytes("step", g.sentence(g.buf[:0]))
		a.close()
	}
	a.closeArr()
	a.close()
}

// writeCall writes the call (1 event; for a shell call, the command start).
func (s *codexSess) writeCall(c *ccall) {
	s.tick(50*time.Millisecond, 400*time.Millisecond)
	e := s.begin("response_item")
	if c.custom {
		e.str("type", "custom_tool_call")
		e.str("status", "completed")
		e.str("call_id", c.id)
		e.str("name", c.name)
		e.bytes("input", c.args.b)
	} else {
		e.str("type", "function_call")
		e.str("name", c.name)
		e.bytes("arguments", c.args.b)
		e.str("call_id", c.id)
	}
	s.end()
	s.events++
}

// writeOutput writes the call's output: 1 event, or 2 for a shell call
// (command output and command finish).
func (s *codexSess) writeOutput(c *ccall) {
	e := s.begin("response_item")
	if c.custom {
		e.str("type", "custom_tool_call_output")
	} else {
		e.str("type", "function_call_output")
	}
	e.str("call_id", c.id)
	e.bytes("output", c.output)
	s.end()
	s.events++
	if c.shell {
		s.events++
	}
}

// final writes the closing answer (1 event), its agent_message copy and a
// token count.
func (s *codexSess) final() {
	g := s.g
	s.tick(time.Second, 20*time.Second)
	if g.chance(70) {
		s.reasoning()
	}
	text := g.report(nil, g.between(200, 1400))
	s.eventMsg("agent_message", "message", text, false)
	s.message("assistant", text)
	s.events++
	s.tick(5*time.Millisecond, 30*time.Millisecond)
	s.tokenCount(false)
}
