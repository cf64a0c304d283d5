package aider

import (
	"strings"
)

// headerPrefix starts every session: "# aider chat started at <time>".
const headerPrefix = "# aider chat started at "

// blockKind is what produced a run of lines.
type blockKind uint8

const (
	blockUser      blockKind = iota + 1 // "#### " lines: the user's input
	blockTool                           // "> " lines: aider's own output
	blockAssistant                      // anything else: the model's reply
)

// block is a run of lines of one kind. Tool lines have lost their "> "
// prefix, user lines their "#### " prefix; both their trailing break.
type block struct {
	kind  blockKind
	line  int // 1-based line number of the first line
	lines []string
}

// rawSession is one "aider chat started at" section of the file.
type rawSession struct {
	header string // the time text after the header prefix ("" before any header)
	line   int    // line number of the header (0 before any header)
	blocks []block
}

// splitter turns lines into sessions of blocks. Each decision depends only
// on the lines before it, so a file that grows keeps its earlier blocks.
type splitter struct {
	sessions   []rawSession
	cur        *rawSession
	open       bool // the last block of cur is still open
	prevBlank  bool
	convention bool // the file's aider lines end with the two-space break
	cont       bool // inside a multi-line tool message
}

// hardBreak is the markdown line break aider appends to user and tool lines.
const hardBreak = "  "

func (s *splitter) line(no int, line string) {
	if rest, ok := strings.CutPrefix(line, headerPrefix); ok {
		s.start(strings.TrimSpace(rest), no)
		return
	}
	if s.cur == nil {
		s.start("", 0) // lines before any header
	}
	blank := strings.TrimSpace(line) == ""
	defer func() { s.prevBlank = blank }()
	if s.cont && s.prevBlank && isUserLine(line) && strings.HasSuffix(line, hardBreak) {
		s.cont = false // an unterminated tool message ends at the next prompt
	}
	if s.cont {
		s.appendLine(line)
		if strings.HasSuffix(line, hardBreak) {
			s.cont = false
			s.trimLast()
		}
		return
	}
	kind := s.classify(line, blank)
	switch {
	case kind == blockUser:
		s.add(blockUser, no, strings.TrimRight(strings.TrimPrefix(strings.TrimPrefix(line, "####"), " "), " "))
	case kind == blockTool:
		s.add(blockTool, no, strings.TrimRight(strings.TrimPrefix(strings.TrimPrefix(line, ">"), " "), " "))
		// A multi-line tool message gets "> " on its first line only and
		// the break after its last.
		s.cont = s.convention && !strings.HasSuffix(line, hardBreak)
	case blank:
		if k := s.kind(); k == blockAssistant {
			s.appendLine("")
		} else {
			s.open = false
		}
	default:
		if s.kind() == blockAssistant {
			s.appendLine(line)
		} else {
			s.add(blockAssistant, no, line)
		}
	}
}

// start opens a session.
func (s *splitter) start(header string, no int) {
	s.sessions = append(s.sessions, rawSession{header: header, line: no})
	s.cur = &s.sessions[len(s.sessions)-1]
	s.open, s.prevBlank, s.cont = false, true, false
}

// classify says whether a line is a user or tool line. Inside an assistant
// reply such lines are markdown (a "> " quote, a "####" heading) unless they
// follow a blank line and end with aider's two-space break, as aider's own
// writes always do.
func (s *splitter) classify(line string, blank bool) blockKind {
	var kind blockKind
	switch {
	case blank:
		return 0
	case isUserLine(line):
		kind = blockUser
	case line == ">" || strings.HasPrefix(line, "> "):
		kind = blockTool
	default:
		return 0
	}
	broken := strings.HasSuffix(line, hardBreak)
	if s.kind() == blockAssistant && !(s.prevBlank && (broken || !s.convention)) {
		return 0
	}
	if broken {
		s.convention = true
	}
	return kind
}

// kind is the kind of the open block, 0 when none is open.
func (s *splitter) kind() blockKind {
	if !s.open {
		return 0
	}
	return s.cur.blocks[len(s.cur.blocks)-1].kind
}

// add appends a line to the open block of that kind, or opens one.
func (s *splitter) add(kind blockKind, no int, text string) {
	if s.kind() == kind {
		s.appendLine(text)
		return
	}
	s.cur.blocks = append(s.cur.blocks, block{kind: kind, line: no, lines: []string{text}})
	s.open = true
}

func (s *splitter) appendLine(text string) {
	b := &s.cur.blocks[len(s.cur.blocks)-1]
	b.lines = append(b.lines, text)
}

// trimLast removes the break from the last line of a multi-line message.
func (s *splitter) trimLast() {
	b := &s.cur.blocks[len(s.cur.blocks)-1]
	b.lines[len(b.lines)-1] = strings.TrimRight(b.lines[len(b.lines)-1], " ")
}

func isUserLine(line string) bool { return line == "####" || strings.HasPrefix(line, "#### ") }
