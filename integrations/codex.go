package integrations

import (
	"bytes"
	"fmt"
	"maps"
	"reflect"
	"strings"

	"github.com/BurntSushi/toml"
)

// serversTable is the Codex table that holds MCP servers.
const serversTable = "mcp_servers"

// editTOML carries out op on Codex's config.toml. The file is edited as
// text: only the [mcp_servers.<name>] table and its sub-tables are added,
// replaced or deleted, so comments and everything else keep their bytes.
func editTOML(path string, data []byte, op Op, s Server, force bool) outcome {
	before, err := decodeTOML(data)
	if err != nil {
		return failed(&InvalidConfigError{Path: path, Reason: "not valid TOML", Err: err})
	}
	entry, present, err := tomlEntry(before, s.Name)
	if err != nil {
		return failed(&InvalidConfigError{Path: path, Reason: err.Error()})
	}
	res := decide(outcome{state: s.stateOf(entry, present)}, op, force,
		&ConflictError{Path: path, Name: s.Name, Command: commandOf(entry)})
	if res.change == changeNone {
		return res
	}
	lines := scanTOML(data)
	segs := entrySegments(lines, s.Name)
	switch {
	case present && len(segs) == 0:
		return failedIn(res.state, &UnsupportedLayoutError{Path: path,
			Reason: fmt.Sprintf("server %q is not written as a [%s.%s] table", s.Name, serversTable, tomlKey(s.Name))})
	case res.change == changeAdd && inlineServers(lines):
		return failedIn(res.state, &UnsupportedLayoutError{Path: path,
			Reason: serversTable + " is an inline table, which cannot take another server table"})
	}
	res.out = applyTOML(data, segs, res.change, s)
	if err := verifyTOML(path, before, res.out, s, res.change != changeRemove); err != nil {
		return failedIn(res.state, err)
	}
	return res
}

func decodeTOML(data []byte) (map[string]any, error) {
	m := map[string]any{}
	_, err := toml.Decode(string(bytes.TrimPrefix(data, utf8BOM)), &m)
	return m, err
}

// tomlEntry returns mcp_servers.<name> of a decoded file.
func tomlEntry(m map[string]any, name string) (map[string]any, bool, error) {
	raw, ok := m[serversTable]
	if !ok {
		return nil, false, nil
	}
	servers, ok := raw.(map[string]any)
	if !ok {
		return nil, false, fmt.Errorf("%s is not a table", serversTable)
	}
	raw, ok = servers[name]
	if !ok {
		return nil, false, nil
	}
	entry, _ := raw.(map[string]any)
	return entry, true, nil
}

// segment is a table of the entry: its header through its last key, and
// the blank line that separates it from what precedes it.
type segment struct {
	start, end int // the table's bytes
	cutStart   int // start of the removal range, with one separating blank line
	cutEnd     int // end of the removal range
}

// entrySegments finds the [mcp_servers.<name>] table and its sub-tables.
// Comment and blank lines that end a table are left to what follows.
func entrySegments(lines []tomlLine, name string) []segment {
	var segs []segment
	content := -1 // the last line before h that is not blank
	for h, l := range lines {
		if h > 0 && lines[h-1].kind != lineBlank {
			content = h - 1
		}
		if l.kind != lineHeader || len(l.path) < 2 || l.path[0] != serversTable || l.path[1] != name {
			continue
		}
		last := h
		for j := h + 1; j < len(lines) && lines[j].kind != lineHeader; j++ {
			if lines[j].kind == lineOther {
				last = j
			}
		}
		seg := segment{start: l.start, end: lines[last].end}
		seg.cutStart, seg.cutEnd = seg.start, seg.end
		switch {
		case h > 0 && lines[h-1].kind == lineBlank && content >= 0:
			seg.cutStart = lines[h-1].start
		case content < 0 && last+1 < len(lines) && lines[last+1].kind == lineBlank:
			seg.cutEnd = lines[last+1].end
		}
		segs = append(segs, seg)
	}
	return segs
}

// inlineServers reports whether the file sets mcp_servers = { … } at the
// top level: TOML allows no table to be added to an inline table.
func inlineServers(lines []tomlLine) bool {
	for _, l := range lines {
		if l.kind == lineHeader {
			return false
		}
		if l.kind == lineOther && len(l.path) == 1 && l.path[0] == serversTable {
			return true
		}
	}
	return false
}

// applyTOML makes the change to the text. A new table is appended after a
// blank line; removing it takes that blank line again, so install followed
// by remove gives back the original bytes.
func applyTOML(data []byte, segs []segment, ch change, s Server) []byte {
	nl := "\n"
	if bytes.Contains(data, []byte("\r\n")) {
		nl = "\r\n"
	}
	block := tomlBlock(s, nl)
	if ch == changeAdd {
		out := bytes.Clone(data)
		if len(out) > 0 && !bytes.HasSuffix(out, []byte("\n")) {
			out = append(out, nl...)
		}
		if len(bytes.TrimSpace(out)) > 0 {
			out = append(out, nl...)
		}
		return append(out, block...)
	}
	var out []byte
	prev := 0
	for i, seg := range segs {
		if ch == changeReplace && i == 0 {
			out = append(append(out, data[prev:seg.start]...), block...)
			prev = seg.end
			continue
		}
		out = append(out, data[prev:seg.cutStart]...)
		prev = seg.cutEnd
	}
	return append(out, data[prev:]...)
}

// tomlBlock is the entry as a TOML table, every line ended by nl.
func tomlBlock(s Server, nl string) string {
	args := make([]string, len(s.Args))
	for i, a := range s.Args {
		args[i] = tomlString(a)
	}
	return "[" + serversTable + "." + tomlKey(s.Name) + "]" + nl +
		"command = " + tomlString(s.Command) + nl +
		"args = [" + strings.Join(args, ", ") + "]" + nl
}

// verifyTOML checks that the edited text decodes to the same configuration
// apart from the entry, and that the entry is this server when wanted.
func verifyTOML(path string, before map[string]any, out []byte, s Server, want bool) error {
	after, err := decodeTOML(out)
	if err != nil {
		return &UnsupportedLayoutError{Path: path, Reason: "the edited file would not parse: " + err.Error()}
	}
	entry, has, _ := tomlEntry(after, s.Name)
	if has != want || (want && !s.matches(entry)) {
		return &UnsupportedLayoutError{Path: path, Reason: "the edit did not take effect"}
	}
	b := maps.Clone(before) // dropEntry edits only the copied top level and mcp_servers
	if servers, ok := b[serversTable].(map[string]any); ok {
		b[serversTable] = maps.Clone(servers)
	}
	dropEntry(b, []string{serversTable}, s.Name)
	dropEntry(after, []string{serversTable}, s.Name)
	if !reflect.DeepEqual(b, after) {
		return &UnsupportedLayoutError{Path: path, Reason: "the edit would change other settings"}
	}
	return nil
}
