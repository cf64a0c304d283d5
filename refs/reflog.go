package refs

import (
	"bufio"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"io/fs"
	"os"
	"strconv"
	"strings"
	"time"

	"ctx/objects"
)

// A reflog line is "<old> <new> <unix-seconds> sum:<crc> <message>": the
// sum is the CRC-32C of the line without it ("<old> <new> <unix-seconds>
// <message>"), so that a flipped byte anywhere in a line, its time and
// message included, is found by verify. Lines written before sums existed
// have none and parse as they did.
const sumPrefix = "sum:"

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// logLine formats one reflog line, newline included.
func logLine(old, next objects.ID, t int64, message string) string {
	message = strings.ReplaceAll(message, "\n", " ")
	body := fmt.Sprintf("%s %s %d %s", old, next, t, message)
	return fmt.Sprintf("%s %s %d %s%08x %s\n", old, next, t, sumPrefix, crc32.Checksum([]byte(body), castagnoli), message)
}

// lineState is what parseLogLine made of a line.
type lineState int

const (
	lineSummed   lineState = iota // parsed, and its sum matches
	lineUnsummed                  // parsed, written before sums
	lineBad                       // does not parse, or its sum does not match
)

func parseLogLine(s string) (LogEntry, lineState) {
	parts := strings.SplitN(s, " ", 4)
	if len(parts) < 3 {
		return LogEntry{}, lineBad
	}
	old, err1 := objects.ParseID(parts[0])
	next, err2 := objects.ParseID(parts[1])
	ts, err3 := strconv.ParseInt(parts[2], 10, 64)
	if err1 != nil || err2 != nil || err3 != nil {
		return LogEntry{}, lineBad
	}
	e := LogEntry{Old: old, New: next, Time: time.Unix(ts, 0).UTC()}
	if len(parts) < 4 {
		return e, lineUnsummed
	}
	rest := parts[3]
	if !strings.HasPrefix(rest, sumPrefix) {
		e.Message = rest
		return e, lineUnsummed
	}
	_, msg, _ := strings.Cut(rest, " ")
	e.Message = msg
	// The line as ctx writes it, sum included, byte for byte: a flip that
	// still parses (a sign before the time, a changed digit of the sum) is
	// caught too.
	if logLine(old, next, ts, msg) != s+"\n" {
		return LogEntry{}, lineBad
	}
	return e, lineSummed
}

// LogCheck is what CheckLog found in a reflog.
type LogCheck struct {
	Entries []LogEntry // the lines that parse (and match their sum), oldest first
	// Bad are the 1-based numbers of the lines that do not parse or do not
	// match their sum.
	Bad []int
	// Unsummed counts lines written before reflog lines carried sums.
	Unsummed int
	// Torn is true when the file does not end with a newline: its last
	// line was cut.
	Torn bool
}

// CheckLog reads the reflog of a ref line by line and says which lines are
// damaged; Log is the same read that skips them.
func (r *Refs) CheckLog(name string) (*LogCheck, error) {
	f, err := os.Open(r.log(name))
	if errors.Is(err, fs.ErrNotExist) {
		return &LogCheck{}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("refs: reflog: %w", err)
	}
	defer f.Close()
	c := &LogCheck{}
	br := bufio.NewReader(f)
	for no := 1; ; no++ {
		line, err := br.ReadString('\n')
		if line != "" {
			if !strings.HasSuffix(line, "\n") {
				c.Torn = true
			}
			switch e, st := parseLogLine(strings.TrimSuffix(line, "\n")); st {
			case lineBad:
				c.Bad = append(c.Bad, no)
			case lineUnsummed:
				c.Unsummed++
				c.Entries = append(c.Entries, e)
			default:
				c.Entries = append(c.Entries, e)
			}
		}
		if errors.Is(err, io.EOF) {
			return c, nil
		}
		if err != nil {
			return nil, fmt.Errorf("refs: reflog: %w", err)
		}
	}
}

// lastLogEntry returns the newest entry of a ref's log, the last line that
// Log would return, reading the file back from its end. Every writer asks
// for it as it starts (RepairLog), and a daemon publishes on every change
// an agent makes: its log grows by thousands of lines a day, which were all
// read and checked for the one line wanted.
func (r *Refs) lastLogEntry(name string) (LogEntry, bool, error) {
	f, err := os.Open(r.log(name))
	if errors.Is(err, fs.ErrNotExist) {
		return LogEntry{}, false, nil
	}
	if err != nil {
		return LogEntry{}, false, fmt.Errorf("refs: reflog: %w", err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return LogEntry{}, false, fmt.Errorf("refs: reflog: %w", err)
	}
	end := fi.Size()
	for window := int64(4 << 10); ; window *= 4 {
		start := max(0, end-window)
		buf := make([]byte, end-start)
		if _, err := f.ReadAt(buf, start); err != nil && !errors.Is(err, io.EOF) {
			return LogEntry{}, false, fmt.Errorf("refs: reflog: %w", err)
		}
		lines := strings.Split(string(buf), "\n")
		if start > 0 {
			lines = lines[1:] // the first may begin before the window
		}
		for i := len(lines) - 1; i >= 0; i-- {
			if lines[i] == "" {
				continue // after the last newline; or a line that is only one, which is bad
			}
			if e, st := parseLogLine(lines[i]); st != lineBad {
				return e, true, nil
			}
		}
		if start == 0 {
			return LogEntry{}, false, nil
		}
	}
}

// CheckRef checks that a ref's file is exactly what Update writes: a
// generation id in hex and a newline. Get is lenient about the rest; a
// verify is not (a cut newline or a flipped one is damage too).
func (r *Refs) CheckRef(name string) error {
	b, err := os.ReadFile(r.path(name))
	if err != nil {
		return err
	}
	id, err := objects.ParseID(strings.TrimSuffix(string(b), "\n"))
	if err != nil || id.String()+"\n" != string(b) {
		return fmt.Errorf("refs: %s is not one generation id and a newline", name)
	}
	return nil
}
