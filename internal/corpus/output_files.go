package corpus

import (
	"strconv"
)

func (g *gen) branch() string {
	if g.chance(45) {
		return "main"
	}
	return pick(g.r, branchStems) + "/" + g.word() + "-" + pick(g.r, identParts)
}

func (g *gen) runGitStatus() shellRun {
	s := shellRun{cmd: pick(g.r, []string{"git status", "git status --short", "git status && git log --oneline -5"}),
		desc: "Check working tree status"}
	b := append([]byte(nil), "On branch "+g.branch()+"\n"...)
	if g.chance(25) {
		s.out = append(b, "nothing to commit, working tree clean\n"...)
		return s
	}
	b = append(b, "Changes not staged for commit:\n  (use \"git add <file>...\" to update what will be committed)\n"...)
	for range g.between(1, 6) {
		b = append(b, "\tmodified:   "+g.rel()+"\n"...)
	}
	if g.chance(40) {
		b = append(b, "\nUntracked files:\n  (use \"git add <file>...\" to include in what will be committed)\n"...)
		b = append(b, "\t"+g.rel()+"\n"...)
	}
	s.out = b
	return s
}

// commitSubject appends a conventional commit subject line.
func (g *gen) commitSubject(b []byte) []byte {
	b = append(b, pick(g.r, branchStems)...)
	b = append(b, '(')
	b = append(b, baseName(g.pkgDir())...)
	b = append(b, "): "...)
	b = append(b, g.word()...)
	b = append(b, ' ')
	b = append(b, g.ident()...)
	b = append(b, ' ')
	return append(b, g.word()...)
}

func (g *gen) runGitLog(n int) shellRun {
	s := shellRun{cmd: "git log --oneline -" + strconv.Itoa(g.between(5, 30)), desc: "Show recent commits"}
	if g.chance(30) {
		s.cmd = "git log -3 --stat"
		return g.gitLogLong(s, n)
	}
	for len(s.out) < n/2 {
		s.out = append(s.out, g.sha()...)
		s.out = append(s.out, ' ')
		s.out = g.commitSubject(s.out)
		s.out = append(s.out, '\n')
	}
	return s
}

func (g *gen) gitLogLong(s shellRun, n int) shellRun {
	for len(s.out) < n {
		s.out = append(s.out, "commit "+randHex(g.r, 40)+"\nAuthor: dev <dev@example.com>\nDate:   Mon Feb 2 10:"...)
		s.out = append(s.out, strconv.Itoa(g.between(10, 59))+":07 2026 +0100\n\n    "...)
		s.out = g.commitSubject(s.out)
		s.out = append(s.out, "\n\n    "...)
		s.out = g.sentence(s.out)
		s.out = append(s.out, "\n\n"...)
		for range g.between(1, 4) {
			s.out = append(s.out, " "+g.rel()+" | "...)
			s.out = append(s.out, strconv.Itoa(g.between(1, 80))+" ++++---\n"...)
		}
	}
	return s
}

func (g *gen) runGitDiff(n int) shellRun {
	s := shellRun{cmd: pick(g.r, []string{"git diff", "git diff --cached", "git diff HEAD~1", "git show HEAD"}),
		desc: "Show the diff"}
	for len(s.out) < n {
		s.out = g.gitDiff(s.out, g.makeEdit())
	}
	return s
}

func (g *gen) runGrep(n int) shellRun {
	id := g.ident()
	s := shellRun{cmd: pick(g.r, []string{"rg -n ", "grep -rn ", "rg -n --type go "}) + id + " " + g.pkgDir(),
		desc: "Search for " + id}
	if g.chance(10) {
		s.exit = 1
		return s
	}
	s.out = g.grepHits(nil, n, id)
	return s
}

// grepHits appends path:line:code lines mentioning id.
func (g *gen) grepHits(b []byte, n int, id string) []byte {
	for len(b) < n {
		b = append(b, g.rel()...)
		b = append(b, ':')
		b = append(b, g.number()...)
		b = append(b, ':')
		b = g.codeLine(b)
		b = append(b, ' ')
		b = append(b, id...)
		b = append(b, '\n')
	}
	return b
}

func (g *gen) runLs(n int) shellRun {
	dir := g.pkgDir()
	s := shellRun{cmd: pick(g.r, []string{"ls ", "ls -la ", "tree -L 1 "}) + dir,
		desc: "List files in " + dir}
	for len(s.out) < n/3 {
		s.out = append(s.out, baseName(g.rel())...)
		s.out = append(s.out, '\n')
	}
	return s
}

func (g *gen) runCat(n int) shellRun {
	rel := g.rel()
	from := g.between(1, 300)
	s := shellRun{desc: "Show " + baseName(rel)}
	s.cmd = pick(g.r, []string{"cat " + rel, "sed -n '" + strconv.Itoa(from) + "," + strconv.Itoa(from+120) + "p' " + rel,
		"head -n 80 " + rel})
	s.out = g.code(nil, n)
	return s
}

func (g *gen) runLogs(n int) shellRun {
	s := shellRun{cmd: pick(g.r, []string{"tail -n 100 logs/server.log", "docker compose logs --tail=80 api",
		"journalctl -u " + g.ws.name + " -n 60"}), desc: "Show recent logs"}
	s.out = g.logLines(nil, n)
	return s
}

var logLevels = []string{"INFO", "INFO", "INFO", "DEBUG", "WARN", "ERROR"}

// logLines appends structured log lines.
func (g *gen) logLines(b []byte, n int) []byte {
	start := len(b)
	for sec := 0; len(b)-start < n; sec++ {
		b = append(b, "2026-02-11T09:"...)
		b = append(b, strconv.Itoa(10+sec%50)...)
		b = append(b, ':')
		b = append(b, strconv.Itoa(10+(sec*7)%50)...)
		b = append(b, ".512Z "...)
		b = append(b, pick(g.r, logLevels)...)
		b = append(b, ' ')
		b = append(b, baseName(g.pkgDir())...)
		b = append(b, ": "...)
		b = append(b, g.word()...)
		b = append(b, ' ')
		b = append(b, g.word()...)
		b = append(b, ' ')
		b = append(b, g.ident()...)
		b = append(b, "="...)
		b = append(b, g.number()...)
		b = append(b, " request_id="...)
		b = append(b, randHex(g.r, 12)...)
		b = append(b, '\n')
	}
	return b
}
