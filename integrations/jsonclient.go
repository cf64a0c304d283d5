package integrations

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"

	"github.com/tailscale/hujson"
)

// jsonShape is where a JSON client keeps its servers and how an entry looks.
type jsonShape struct {
	schema    string   // a schema variant worth reporting ("v1", "v2"), or ""
	container []string // object keys from the top level to the servers object
	entry     func(Server) obj
}

type shapeFunc func(root *hujson.Object) jsonShape

func fixedShape(container []string, entry func(Server) obj) shapeFunc {
	return func(*hujson.Object) jsonShape { return jsonShape{container: container, entry: entry} }
}

// opencodeShape picks OpenCode's schema from the file: v2 nests servers in
// mcp.servers, v1 (the default) puts them directly in mcp.
func opencodeShape(root *hujson.Object) jsonShape {
	v1 := jsonShape{schema: "v1", container: []string{"mcp"}, entry: opencodeEntry(true)}
	v2 := jsonShape{schema: "v2", container: []string{"mcp", "servers"}, entry: opencodeEntry(false)}
	if i, _ := memberIndex(root, "$schema"); i >= 0 {
		if lit, ok := root.Members[i].Value.Value.(hujson.Literal); ok && strings.Contains(lit.String(), "/v2") {
			return v2
		}
	}
	mcp, ok := memberObject(root, "mcp")
	if !ok {
		return v1
	}
	servers, ok := memberObject(mcp, "servers")
	if !ok {
		return v1
	}
	// A v1 server that happens to be called "servers" has a type or command.
	if t, _ := memberIndex(servers, "type"); t >= 0 {
		return v1
	}
	if c, _ := memberIndex(servers, "command"); c >= 0 {
		return v1
	}
	return v2
}

// opencodeFile returns dir/opencode.json, or dir/opencode.jsonc when only
// that one exists.
func opencodeFile(dir func(Env) string) func(Env) string {
	return func(e Env) string {
		d := dir(e)
		jsonPath, jsoncPath := filepath.Join(d, "opencode.json"), filepath.Join(d, "opencode.jsonc")
		if _, err := os.Stat(jsonPath); err != nil {
			if _, err := os.Stat(jsoncPath); err == nil {
				return jsoncPath
			}
		}
		return jsonPath
	}
}

// located is the servers object of a document, or the deepest object on the
// way to it when part of the path is missing.
type located struct {
	obj          *hujson.Object
	style        objStyle
	parentIndent string
	depth        int // container keys found; len(container) when obj is the servers object
}

func (d *jsonDoc) walk(path string, keys []string) (located, error) {
	loc := located{obj: d.rootObject()}
	loc.style = d.styleOf(loc.obj, "", true)
	for _, key := range keys {
		i, n := memberIndex(loc.obj, key)
		if n == 0 {
			return loc, nil
		}
		if n > 1 {
			return loc, &InvalidConfigError{Path: path, Reason: fmt.Sprintf("%q appears more than once", key)}
		}
		next, ok := loc.obj.Members[i].Value.Value.(*hujson.Object)
		if !ok {
			return loc, &InvalidConfigError{Path: path, Reason: fmt.Sprintf("%q is not an object", key)}
		}
		loc.parentIndent = loc.style.indent
		loc.obj, loc.style = next, d.styleOf(next, loc.style.indent, loc.style.multiline)
		loc.depth++
	}
	return loc, nil
}

// decodeMember decodes the value of member i as standard JSON.
func decodeMember(o *hujson.Object, i int) map[string]any {
	v := o.Members[i].Value.Clone()
	v.Standardize()
	var m map[string]any
	if json.Unmarshal(v.Pack(), &m) != nil {
		return nil
	}
	return m
}

// editJSON carries out op on a JSON client's file contents.
func editJSON(c *Client, path string, data []byte, op Op, s Server, force bool) outcome {
	d, err := parseJSONDoc(path, data)
	if err != nil {
		return failed(err)
	}
	shape := c.shape(d.rootObject())
	loc, err := d.walk(path, shape.container)
	if err != nil {
		return failed(err)
	}
	idx := -1
	if loc.depth == len(shape.container) {
		i, n := memberIndex(loc.obj, s.Name)
		if n > 1 {
			return failed(&InvalidConfigError{Path: path, Reason: fmt.Sprintf("server %q appears more than once", s.Name)})
		}
		idx = i
	}
	var entry map[string]any
	if idx >= 0 {
		entry = decodeMember(loc.obj, idx)
	}
	res := decide(outcome{schema: shape.schema, state: s.stateOf(entry, idx >= 0)}, op, force,
		&ConflictError{Path: path, Name: s.Name, Command: commandOf(entry)})
	if res.change == changeNone {
		return res
	}
	d.apply(res.change, loc, idx, shape, s)
	res.out = d.bytes()
	if err := verifyJSON(path, data, res.out, shape.container, s.Name, res.change != changeRemove); err != nil {
		return failedIn(res.state, err)
	}
	return res
}

// apply makes the change decide chose to the syntax tree.
func (d *jsonDoc) apply(ch change, loc located, idx int, shape jsonShape, s Server) {
	entry := shape.entry(s)
	switch {
	case ch == changeRemove:
		d.removeMember(loc.obj, idx)
	case idx >= 0:
		d.replaceValue(loc.obj, idx, entry, loc.style)
	case loc.depth == len(shape.container):
		d.insertMember(loc.obj, s.Name, entry, loc.style, loc.parentIndent)
	default: // create the missing part of the path around the entry
		var v any = obj{{s.Name, entry}}
		for j := len(shape.container) - 1; j > loc.depth; j-- {
			v = obj{{shape.container[j], v}}
		}
		d.insertMember(loc.obj, shape.container[loc.depth], v, loc.style, loc.parentIndent)
	}
}

// verifyJSON checks that before and after decode to the same configuration
// apart from the server entry, and that the entry is there when wanted.
func verifyJSON(path string, before, after []byte, container []string, name string, want bool) error {
	b, errB := decodeStandard(before)
	a, errA := decodeStandard(after)
	if errA != nil || errB != nil {
		return &UnsupportedLayoutError{Path: path, Reason: "the edited file would not decode"}
	}
	if _, has := dropEntry(a, container, name); has != want {
		return &UnsupportedLayoutError{Path: path, Reason: "the edit did not take effect"}
	}
	dropEntry(b, container, name)
	if !reflect.DeepEqual(a, b) {
		return &UnsupportedLayoutError{Path: path, Reason: "the edit would change other settings"}
	}
	return nil
}

func decodeStandard(data []byte) (map[string]any, error) {
	data = bytes.TrimPrefix(data, utf8BOM)
	if len(bytes.TrimSpace(data)) == 0 {
		return map[string]any{}, nil
	}
	std, err := hujson.Standardize(bytes.Clone(data))
	if err != nil {
		return nil, err
	}
	var m map[string]any
	return m, json.Unmarshal(std, &m)
}

// dropEntry deletes container…/name from m, and containers it leaves empty.
func dropEntry(m map[string]any, container []string, name string) (any, bool) {
	if len(container) == 0 {
		v, ok := m[name]
		delete(m, name)
		return v, ok
	}
	child, ok := m[container[0]].(map[string]any)
	if !ok {
		return nil, false
	}
	v, found := dropEntry(child, container[1:], name)
	if len(child) == 0 {
		delete(m, container[0])
	}
	return v, found
}
