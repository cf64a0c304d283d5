package config

import (
	"errors"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/BurntSushi/toml"
)

// Line numbers of config errors: ctx status and every command that reads
// the config point at the line to fix, not only the file.

var (
	// [[source]] #2: …  (an entry of an array of tables)
	arrayEntryRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\[\[([A-Za-z0-9_.]+)\]\] #(\d+): (\w+)?`) })
	// [exclude] workspaces #1: …  or  [semantic]: …
	tableKeyRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\[([A-Za-z0-9_.]+)\](?: (\w+))?`) })
)

// entryKeys are the keys an entry's message can start with: the message
// "path is required" points at the entry's path line when it has one.
var entryKeys = map[string]bool{"root": true, "group": true, "provider": true, "path": true, "name": true,
	"command": true, "timeout": true}

// parseLine is the line of a TOML syntax error in text (0 when unknown):
// the line holding the offending byte, so that an error found at the end
// of a line (an unclosed header) names that line, not the next.
func parseLine(err error, text string) int {
	var pe toml.ParseError
	if !errors.As(err, &pe) {
		return 0
	}
	if s := pe.Position.Start; s > 0 && s <= len(text) {
		return strings.Count(text[:s], "\n") + 1
	}
	return pe.Position.Line
}

// keyLine is the line that sets key (a dotted path such as daemon.enable)
// in text, 0 when none does.
func keyLine(text string, key toml.Key) int {
	if len(key) == 0 {
		return 0
	}
	table, name := strings.Join(key[:len(key)-1], "."), key[len(key)-1]
	return findLine(text, func(cur string, _ int, k string) bool { return cur == table && k == name })
}

// messageLine is the line a validation message points at, 0 when it
// cannot tell.
func messageLine(text, msg string) int {
	if m := arrayEntryRE().FindStringSubmatch(msg); m != nil {
		nth, _ := strconv.Atoi(m[2])
		header := findLine(text, func(cur string, n int, k string) bool { return k == "" && cur == m[1] && n == nth })
		if entryKeys[m[3]] {
			if l := findLine(text, func(cur string, n int, k string) bool { return cur == m[1] && n == nth && k == m[3] }); l > 0 {
				return l
			}
		}
		return header
	}
	if m := tableKeyRE().FindStringSubmatch(msg); m != nil {
		if m[2] != "" {
			if l := findLine(text, func(cur string, _ int, k string) bool { return cur == m[1] && k == m[2] }); l > 0 {
				return l
			}
		}
		return findLine(text, func(cur string, _ int, k string) bool { return cur == m[1] && k == "" })
	}
	return 0
}

// findLine walks the lines of a TOML text, tracking the current table
// (and, for an array of tables, which entry it is), and returns the first
// line (1-based) for which match is true: on a table header with key "",
// on a key line with its bare key. Good enough for the flat files ctx
// reads; a line it cannot classify is skipped.
func findLine(text string, match func(table string, entry int, key string) bool) int {
	cur, entries := "", map[string]int{}
	for i, line := range strings.Split(text, "\n") {
		l := strings.TrimSpace(line)
		switch {
		case l == "" || strings.HasPrefix(l, "#"):
			continue
		case strings.HasPrefix(l, "[["):
			end := strings.Index(l, "]]")
			if end < 0 {
				continue
			}
			cur = strings.TrimSpace(l[2:end])
			entries[cur]++
			if match(cur, entries[cur], "") {
				return i + 1
			}
		case strings.HasPrefix(l, "["):
			end := strings.Index(l, "]")
			if end < 0 {
				continue
			}
			cur = strings.TrimSpace(l[1:end])
			if match(cur, 0, "") {
				return i + 1
			}
		default:
			k, _, ok := strings.Cut(l, "=")
			if !ok {
				continue
			}
			k = strings.Trim(strings.TrimSpace(k), `"'`)
			table, key := cur, k
			if dot := strings.LastIndex(k, "."); dot > 0 { // a dotted key: daemon.enabled = …
				table, key = strings.TrimPrefix(cur+"."+k[:dot], "."), k[dot+1:]
			}
			if match(table, entries[cur], key) {
				return i + 1
			}
		}
	}
	return 0
}
