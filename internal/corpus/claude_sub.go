package corpus

import (
	"path/filepath"
	"strconv"
	"time"
)

// subPlan is a subagent a session will spawn once it has written at events.
type subPlan struct {
	at, size  int
	agentType string
	desc      []byte
}

var agentTypes = []string{"general-purpose", "general-purpose", "Explore", "Plan"}

// planSubagents gives 30% of sessions one or two subagents and returns the
// events left for the main transcript.
func (s *claudeSess) planSubagents(target int) int {
	g := s.g
	if target < 90 || !g.chance(30) {
		return target
	}
	n := 1
	if g.chance(35) {
		n = 2
	}
	main := target
	sizes := make([]int, n)
	for i := range sizes {
		sizes[i] = g.between(20, min(160, target/4))
		main -= sizes[i]
	}
	for i, size := range sizes {
		lo, hi := 10+i*35, 40+i*35
		s.subs = append(s.subs, subPlan{at: main * g.between(lo, hi) / 100, size: size})
	}
	return main
}

// taskCall fills c with the Task/Agent call that spawns subagent p.
func (s *claudeSess) taskCall(c *call, p subPlan) {
	g := s.g
	c.name = "Task"
	if s.ver.modern {
		c.name = "Agent"
	}
	p.agentType = "general-purpose"
	if s.ver.modern {
		p.agentType = pick(g.r, agentTypes)
	}
	p.desc = g.title(nil)
	c.prompt = g.prompt(c.prompt[:0], g.between(200, 1200))
	c.input.open()
	c.input.bytes("description", p.desc)
	c.input.bytes("prompt", c.prompt)
	c.input.str("subagent_type", p.agentType)
	c.input.close()
	c.sub = &p
}

// runSubagent writes the subagent transcript for c, then fills c's result
// with the subagent's report.
func (s *claudeSess) runSubagent(c *call) {
	g, p := s.g, c.sub
	child := &claudeSess{g: g, projDir: s.projDir, sessionID: s.sessionID, side: true, ver: s.ver,
		entry: s.entry, cwd: s.cwd, branch: s.branch, slug: s.slug, model: pick(g.r, claudeModels),
		promptID: s.promptID, t: s.t, bare: s.ver.modern, w: s.w}
	var path string
	if s.ver.modern {
		child.agentID = "a" + randHex(g.r, 16)
		path = filepath.Join(s.projDir, s.sessionID, "subagents", "agent-"+child.agentID+".jsonl")
	} else {
		child.agentID = randHex(g.r, 8)
		path = filepath.Join(s.projDir, "agent-"+child.agentID+".jsonl")
	}
	child.out = s.w.create(path)
	child.turn(p.size, c.prompt)
	s.w.finish(child.out, child.events)
	if s.ver.modern {
		var m enc
		m.open()
		m.str("agentType", p.agentType)
		m.bytes("description", p.desc)
		m.close()
		s.w.writeFile(path[:len(path)-len(".jsonl")]+".meta.json", m.b)
	}
	dur := child.t.Sub(s.t)
	s.t = child.t
	s.taskResult(c, child, dur)
}

func (s *claudeSess) taskResult(c *call, child *claudeSess, dur time.Duration) {
	g, p := s.g, c.sub
	tokens := int64(5000 + g.r.IntN(90000))
	var report enc
	report.open()
	report.str("type", "text")
	report.bytes("text", child.lastText)
	report.close()
	c.content.openArr()
	c.content.b = append(c.content.b, report.b...)
	c.content.need = true
	if s.ver.modern {
		c.content.open()
		c.content.str("type", "text")
		c.content.str("text", "agentId: "+child.agentID+" (use SendMessage with to: '"+child.agentID+
			"' to continue this agent)\n<usage>total_tokens: "+strconv.FormatInt(tokens, 10)+
			"\ntool_uses: "+strconv.Itoa(child.tools)+"\nduration_ms: "+strconv.FormatInt(dur.Milliseconds(), 10)+"</usage>")
		c.content.close()
	}
	c.content.closeArr()
	r := &c.result
	r.open()
	r.str("status", "completed")
	r.bytes("prompt", c.prompt)
	r.str("agentId", child.agentID)
	r.str("agentType", p.agentType)
	r.arr("content")
	r.b = append(r.b, report.b...)
	r.need = true
	r.closeArr()
	r.int("totalDurationMs", dur.Milliseconds())
	r.int("totalTokens", tokens)
	r.int("totalToolUseCount", int64(child.tools))
	r.raw("usage", s.newMsg("end_turn").usage)
	r.close()
}

// compact writes a compaction boundary and its summary (one event each).
func (s *claudeSess) compact() {
	g, e := s.g, &s.e
	s.tick(30*time.Second, 2*time.Minute)
	logical := s.parent
	e.reset()
	e.open()
	e.null("parentUuid")
	e.str("logicalParentUuid", logical)
	e.bool("isSidechain", s.side)
	if !s.ver.modern {
		s.origin(false)
	}
	e.str("type", "system")
	e.str("subtype", "compact_boundary")
	e.str("content", "Conversation compacted")
	e.bool("isMeta", false)
	e.time("timestamp", s.t)
	u := uuid4(g.r)
	e.str("uuid", u)
	s.parent = u
	e.str("level", "info")
	e.obj("compactMetadata")
	e.str("trigger", pick(g.r, []string{"auto", "auto", "manual"}))
	e.int("preTokens", int64(120000+g.r.IntN(60000)))
	if s.ver.modern {
		e.int("postTokens", int64(4000+g.r.IntN(9000)))
		e.int("durationMs", int64(20000+g.r.IntN(60000)))
	}
	e.close()
	s.post()
	s.events++
	s.compactSummary()
}

func (s *claudeSess) compactSummary() {
	g := s.g
	b := append(g.buf[:0], "This session is being continued from a previous conversation that ran out of context. "+
		"The summary below covers the earlier portion of the conversation.\n\nSummary:\n1. Primary Request and Intent:\n   "...)
	b = g.prose(b, g.between(200, 900))
	b = append(b, "\n\n2. Key Technical Concepts:\n"...)
	for range g.between(3, 7) {
		b = append(b, "   - `"+g.ident()+"`: "...)
		b = g.sentence(b)
		b = append(b, '\n')
	}
	b = append(b, "\n3. Files and Code Sections:\n"...)
	for range g.between(2, 6) {
		b = append(b, "   - "+g.rel()+"\n      - "...)
		b = g.sentence(b)
		b = append(b, '\n')
	}
	b = append(b, "\n4. Pending Tasks:\n   - "...)
	b = g.sentence(b)
	g.buf = b
	s.userMessage(b)
	s.e.bool("isVisibleInTranscriptOnly", true)
	s.e.bool("isCompactSummary", true)
	s.tick(time.Millisecond, 5*time.Millisecond)
	s.stamp()
	s.post()
	s.events++
}
