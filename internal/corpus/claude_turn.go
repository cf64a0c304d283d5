package corpus

import (
	"time"
)

// run writes a top-level session of about target events.
func (s *claudeSess) run(target int) {
	g := s.g
	if s.ver.modern {
		s.permissionMode()
	}
	if s.hooks {
		s.hookAttachment("SessionStart:startup", "SessionStart", "")
	}
	compactAt := -1
	if target > 220 && g.chance(40) {
		compactAt = target * g.between(35, 75) / 100
	}
	for turn := 0; s.events < target; turn++ {
		s.turn(target, g.prompt(nil, g.between(60, 600)))
		if turn == 0 && s.ver.modern {
			s.aiTitle()
		}
		if compactAt >= 0 && s.events >= compactAt && s.events < target-20 {
			s.compact()
			compactAt = -1
		}
		if s.ver.modern && g.chance(25) {
			s.lastPrompt()
		}
	}
}

// turn writes a user prompt, tool-using steps and a final answer.
func (s *claudeSess) turn(target int, prompt []byte) {
	s.prompt = prompt
	s.userPrompt(prompt)
	for step := 0; ; step++ {
		left := target - s.events
		if left <= 10 || (step > 0 && s.g.chance(11) && len(s.subs) == 0) {
			break
		}
		s.step(left)
	}
	m := s.newMsg("end_turn")
	s.prose(m, true)
}

// step writes one model response with tool calls, then their results.
func (s *claudeSess) step(left int) {
	g := s.g
	m := s.newMsg("tool_use")
	if g.chance(55) {
		s.prose(m, false)
	}
	n := 1
	if x := g.r.IntN(100); x < 7 && left > 20 {
		n = 3
	} else if x < 25 && left > 15 {
		n = 2
	}
	for len(s.calls) < n {
		s.calls = append(s.calls, &call{})
	}
	calls := s.calls[:n]
	for i, c := range calls {
		c.reset(toolUseID(g.r))
		if i == 0 && len(s.subs) > 0 && s.events >= s.subs[0].at {
			s.taskCall(c, s.subs[0])
			s.subs = s.subs[1:]
		} else {
			s.fillCall(c)
		}
		c.src = s.toolUseLine(m, c)
		s.events++
		s.tools++
	}
	s.results(calls)
}

// results runs spawned subagents and writes each call's result.
func (s *claudeSess) results(calls []*call) {
	for _, c := range calls {
		if c.sub != nil {
			s.runSubagent(c)
		}
		s.tick(10*time.Millisecond, time.Duration(1+c.secs)*time.Second)
		s.resultLine(c)
		s.events++
		if c.shell {
			s.events++ // output and finish
		}
		if s.hooks && s.g.chance(35) {
			s.hookAttachment("PostToolUse:"+c.name, "PostToolUse", c.id)
		}
	}
}

func (s *claudeSess) toolUseLine(m *apiMsg, c *call) string {
	return s.assistantLine(m, func(e *enc) {
		e.str("type", "tool_use")
		e.str("id", c.id)
		e.str("name", c.name)
		e.raw("input", c.input.b)
		if s.ver.modern {
			e.obj("caller")
			e.str("type", "direct")
			e.close()
		}
	})
}

// resultLine writes the user record carrying c's tool_result.
func (s *claudeSess) resultLine(c *call) {
	s.pre(true)
	e := &s.e
	e.str("type", "user")
	e.obj("message")
	e.str("role", "user")
	e.arr("content")
	e.open()
	e.str("tool_use_id", c.id)
	e.str("type", "tool_result")
	e.raw("content", c.content.b)
	if c.isError || c.shell {
		e.bool("is_error", c.isError)
	}
	e.close()
	e.closeArr()
	e.close()
	s.stamp()
	if len(c.result.b) > 0 && !s.bare {
		e.raw("toolUseResult", c.result.b)
	}
	if s.ver.modern {
		e.str("sourceToolAssistantUUID", c.src)
	}
	s.post()
}

// Bookkeeping records: each counts as one event.

func (s *claudeSess) permissionMode() {
	s.bookkeeping("permission-mode", func(e *enc) {
		e.str("permissionMode", "acceptEdits")
	})
}

func (s *claudeSess) aiTitle() {
	s.bookkeeping("ai-title", func(e *enc) {
		e.bytes("aiTitle", s.g.title(s.g.buf[:0]))
	})
}

func (s *claudeSess) lastPrompt() {
	s.bookkeeping("last-prompt", func(e *enc) {
		e.bytes("lastPrompt", s.prompt[:min(len(s.prompt), 200)])
		if s.ver.slug {
			e.str("leafUuid", s.parent)
		}
	})
}

// bookkeeping writes a record of the type named: its fields, then the
// session id.
func (s *claudeSess) bookkeeping(typ string, fields func(e *enc)) {
	e := &s.e
	e.reset()
	e.open()
	e.str("type", typ)
	fields(e)
	e.str("sessionId", s.sessionID)
	e.close()
	s.out.line(e.b)
	s.events++
}

// snapshot writes the file-history-snapshot that precedes the prompt whose
// uuid is id.
func (s *claudeSess) snapshot(id string) {
	e := &s.e
	e.reset()
	e.open()
	e.str("type", "file-history-snapshot")
	e.str("messageId", id)
	e.obj("snapshot")
	e.str("messageId", id)
	e.obj("trackedFileBackups")
	for i := range s.g.r.IntN(3) {
		e.obj(s.g.abs(s.g.rel()))
		e.str("backupFileName", randHex(s.g.r, 16)+"@v"+string(rune('1'+i)))
		e.int("version", int64(i+1))
		e.time("backupTime", s.t)
		e.close()
	}
	e.close()
	e.time("timestamp", s.t)
	e.close()
	e.bool("isSnapshotUpdate", false)
	e.close()
	s.out.line(e.b)
	s.events++
}

func (s *claudeSess) hookAttachment(name, event, toolUseID string) {
	if toolUseID == "" {
		toolUseID = uuid4(s.g.r)
	}
	s.pre(false)
	e := &s.e
	e.obj("attachment")
	e.str("type", "hook_success")
	e.str("hookName", name)
	e.str("toolUseID", toolUseID)
	e.str("hookEvent", event)
	e.str("content", "")
	e.str("stdout", "")
	e.str("stderr", "")
	e.int("exitCode", 0)
	e.str("command", "./scripts/hooks/"+event+".sh")
	e.int("durationMs", int64(20+s.g.r.IntN(1500)))
	e.close()
	e.str("type", "attachment")
	s.stamp()
	s.post()
	s.events++
}
