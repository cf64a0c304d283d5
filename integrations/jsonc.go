package integrations

import (
	"bytes"
	"encoding/json"
	"strings"

	"github.com/tailscale/hujson"
)

// jsonDoc is a parsed JSON or JSONC file plus the layout facts that let an
// edit look like the rest of the file. Edits change the syntax tree only at
// the member they concern, so packing it reproduces every other byte.
type jsonDoc struct {
	root  hujson.Value
	bom   bool   // the file starts with a UTF-8 byte order mark
	nl    string // the file's line break, "\n" or "\r\n"
	unit  string // one level of indentation
	fresh bool   // the file was empty; the output is a new document
}

var utf8BOM = []byte("\xef\xbb\xbf")

// parseJSONDoc parses data; an empty or blank file is an empty object.
func parseJSONDoc(path string, data []byte) (*jsonDoc, error) {
	d := &jsonDoc{nl: "\n", unit: "  "}
	if bytes.HasPrefix(data, utf8BOM) {
		d.bom, data = true, data[len(utf8BOM):]
	}
	if bytes.Contains(data, []byte("\r\n")) {
		d.nl = "\r\n"
	}
	if len(bytes.TrimSpace(data)) == 0 {
		d.fresh = true
		d.root = hujson.Value{Value: &hujson.Object{}, AfterExtra: []byte(d.nl)}
		return d, nil
	}
	v, err := hujson.Parse(bytes.Clone(data))
	if err != nil {
		return nil, &InvalidConfigError{Path: path, Reason: "not valid JSON", Err: err}
	}
	if v.Value.Kind() != '{' {
		return nil, &InvalidConfigError{Path: path, Reason: "the top level is not an object"}
	}
	d.root = v
	if st := d.styleOf(d.rootObject(), "", true); st.multiline && st.indent != "" {
		d.unit = st.indent
	}
	return d, nil
}

func (d *jsonDoc) rootObject() *hujson.Object { return d.root.Value.(*hujson.Object) }

// bytes packs the document back into file contents.
func (d *jsonDoc) bytes() []byte {
	out := d.root.Pack()
	if d.bom {
		out = append(bytes.Clone(utf8BOM), out...)
	}
	return out
}

// objStyle is how an object lays out its members.
type objStyle struct {
	multiline bool   // one member per line
	indent    string // the members' indentation when multiline
	sep       string // what precedes a member when inline: "" (compact) or " "
}

// styleOf reads an object's style from its first member; an empty object
// takes its parent's, one level deeper.
func (d *jsonDoc) styleOf(o *hujson.Object, parentIndent string, parentMultiline bool) objStyle {
	if len(o.Members) == 0 {
		return objStyle{multiline: parentMultiline, indent: parentIndent + d.unit, sep: " "}
	}
	before := o.Members[0].Name.BeforeExtra
	i := bytes.LastIndexByte(before, '\n')
	if i < 0 { // inline: spaced when the first value is
		if len(o.Members[0].Value.BeforeExtra) == 0 {
			return objStyle{sep: ""}
		}
		return objStyle{sep: " "}
	}
	line := before[i+1:]
	n := 0
	for n < len(line) && (line[n] == ' ' || line[n] == '\t') {
		n++
	}
	return objStyle{multiline: true, indent: string(line[:n]), sep: " "}
}

// memberIndex returns the index of the first member named key and how many
// members have that name.
func memberIndex(o *hujson.Object, key string) (idx, count int) {
	idx = -1
	for i, m := range o.Members {
		if lit, ok := m.Name.Value.(hujson.Literal); ok && lit.String() == key {
			if idx < 0 {
				idx = i
			}
			count++
		}
	}
	return idx, count
}

// renderValue writes v as JSON text whose continuation lines are indented
// from indent, in the style of the object it goes into.
func (d *jsonDoc) renderValue(v any, indent string, st objStyle) string {
	switch v := v.(type) {
	case string:
		return jsonString(v)
	case bool:
		if v {
			return "true"
		}
		return "false"
	case []string:
		parts := make([]string, len(v))
		for i, s := range v {
			parts[i] = jsonString(s)
		}
		return "[" + strings.Join(parts, ","+st.sep) + "]"
	case obj:
		return d.renderObject(v, indent, st)
	}
	panic("integrations: cannot render value")
}

func (d *jsonDoc) renderObject(o obj, indent string, st objStyle) string {
	if len(o) == 0 {
		return "{}"
	}
	var b strings.Builder
	b.WriteByte('{')
	for i, f := range o {
		if i > 0 {
			b.WriteByte(',')
		}
		if st.multiline {
			b.WriteString(d.nl + indent + d.unit)
		} else if i > 0 {
			b.WriteString(st.sep)
		}
		b.WriteString(jsonString(f.key) + ":" + st.sep)
		b.WriteString(d.renderValue(f.val, indent+d.unit, st))
	}
	if st.multiline {
		b.WriteString(d.nl + indent)
	}
	b.WriteByte('}')
	return b.String()
}

func jsonString(s string) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)
	return strings.TrimSuffix(b.String(), "\n")
}

// trimmed parses rendered JSON text into a syntax-tree value.
func trimmed(text string) hujson.ValueTrimmed {
	v, err := hujson.Parse([]byte(text))
	if err != nil {
		panic("integrations: rendered invalid JSON: " + err.Error())
	}
	return v.Value
}

// insertMember appends key: v to o. In a multiline object the new member
// goes on its own line after the last one; whatever followed the last member
// on its line (a comment) stays on that line.
func (d *jsonDoc) insertMember(o *hujson.Object, key string, v any, st objStyle, parentIndent string) {
	valueBefore := []byte(" ")
	if st.sep == "" {
		valueBefore = nil
	}
	m := hujson.ObjectMember{
		Name:  hujson.Value{Value: hujson.String(key)},
		Value: hujson.Value{BeforeExtra: valueBefore, Value: trimmed(d.renderValue(v, st.indent, st))},
	}
	trailingComma := len(o.Members) > 0 && o.Members[len(o.Members)-1].Value.AfterExtra != nil
	switch {
	case st.multiline:
		head, tail := splitFirstLine(o.AfterExtra)
		switch {
		case tail != nil:
		case len(o.Members) > 0: // the closing brace follows the last member on its line
			head, tail = nil, o.AfterExtra
		default:
			head, tail = bytes.TrimRight(o.AfterExtra, " \t"), []byte(d.nl+parentIndent)
		}
		m.Name.BeforeExtra = append(append(bytes.Clone(head), d.nl...), st.indent...)
		o.AfterExtra = bytes.Clone(tail)
	case len(o.Members) > 0:
		m.Name.BeforeExtra = []byte(st.sep)
	}
	if trailingComma {
		m.Value.AfterExtra = []byte{}
	}
	o.Members = append(o.Members, m)
}

// replaceValue replaces the value of member i, keeping what surrounds it.
func (d *jsonDoc) replaceValue(o *hujson.Object, i int, v any, st objStyle) {
	o.Members[i].Value.Value = trimmed(d.renderValue(v, st.indent, st))
}

// removeMember deletes member i. Text that shared the line of the member
// before it (a comment after the preceding comma) is kept, so removing a
// member that insertMember added restores the original bytes.
func (d *jsonDoc) removeMember(o *hujson.Object, i int) {
	rm := o.Members[i]
	var keep []byte
	if head, tail := splitFirstLine(rm.Name.BeforeExtra); tail != nil {
		keep = head
	}
	last := i == len(o.Members)-1
	switch {
	case !last:
		next := &o.Members[i+1].Name
		next.BeforeExtra = d.joinExtra(keep, next.BeforeExtra)
	case i == 0:
		o.AfterExtra = d.joinExtra(keep, o.AfterExtra)
		if len(bytes.TrimSpace(o.AfterExtra)) == 0 {
			o.AfterExtra = nil
		}
	case rm.Value.AfterExtra != nil: // trailing comma: the previous member keeps it
		prev := &o.Members[i-1].Value
		if prev.AfterExtra == nil {
			prev.AfterExtra = []byte{}
		}
		o.AfterExtra = d.joinExtra(keep, o.AfterExtra)
	default:
		prev := &o.Members[i-1].Value
		o.AfterExtra = append(bytes.Clone(prev.AfterExtra), d.joinExtra(keep, o.AfterExtra)...)
		prev.AfterExtra = nil
	}
	o.Members = append(o.Members[:i:i], o.Members[i+1:]...)
}

// joinExtra puts kept text before rest, ending a line comment with a line
// break when rest does not start with one.
func (d *jsonDoc) joinExtra(keep, rest []byte) []byte {
	out := bytes.Clone(keep)
	if len(keep) > 0 && bytes.Contains(keep, []byte("//")) && !startsWithBreak(rest) {
		out = append(out, d.nl...)
	}
	return append(out, rest...)
}

func startsWithBreak(b []byte) bool {
	return bytes.HasPrefix(b, []byte("\n")) || bytes.HasPrefix(b, []byte("\r\n"))
}

// splitFirstLine splits whitespace-and-comments at its first line break
// outside a block comment: head is the text before it, tail starts with it.
// tail is nil when there is no such line break.
func splitFirstLine(extra []byte) (head, tail []byte) {
	for i := 0; i < len(extra); i++ {
		switch {
		case extra[i] == '\n':
			if i > 0 && extra[i-1] == '\r' {
				i--
			}
			return extra[:i], extra[i:]
		case bytes.HasPrefix(extra[i:], []byte("//")):
			if j := bytes.IndexByte(extra[i:], '\n'); j >= 0 {
				i += j - 1
			} else {
				return extra, nil
			}
		case bytes.HasPrefix(extra[i:], []byte("/*")):
			j := bytes.Index(extra[i+2:], []byte("*/"))
			if j < 0 {
				return extra, nil
			}
			i += 2 + j + 1
		}
	}
	return extra, nil
}

// memberObject returns the object value of the first member named key;
// false when there is none or its value is not an object.
func memberObject(o *hujson.Object, key string) (*hujson.Object, bool) {
	i, _ := memberIndex(o, key)
	if i < 0 {
		return nil, false
	}
	v, ok := o.Members[i].Value.Value.(*hujson.Object)
	return v, ok
}
