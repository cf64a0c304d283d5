package codex

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"ctx/sources/jsonx"
)

// TestRecordsDecodeAsUnmarshal: every line of the real rollouts, and each
// with one field's value replaced by a value of another type, decodes
// into a record through jsonx.Decode as json.Unmarshal decodes it.
func TestRecordsDecodeAsUnmarshal(t *testing.T) {
	var lines [][]byte
	err := filepath.WalkDir(fixtureDir(t), func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".jsonl") {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		sc := bufio.NewScanner(bytes.NewReader(data))
		sc.Buffer(nil, 64<<20)
		for sc.Scan() {
			lines = append(lines, bytes.Clone(sc.Bytes()))
		}
		return sc.Err()
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(lines) < 100 {
		t.Fatalf("%d lines in the fixtures", len(lines))
	}
	same := func(line []byte) {
		t.Helper()
		var want, got record
		errWant := json.Unmarshal(line, &want)
		errGot := jsonx.Decode(line, &got)
		if (errWant == nil) != (errGot == nil) || !reflect.DeepEqual(want, got) {
			t.Fatalf("%.300s: Decode gave %v, %+v; Unmarshal %v, %+v", line, errGot, got, errWant, want)
		}
	}
	mutated := 0
	for _, line := range lines {
		same(line)
		// The payload's type as a number, its content as an object: fields
		// of unexpected types, after which encoding/json keeps decoding.
		for _, swap := range [][2]string{{`"type":"`, `"type":7,"x":"`}, {`"content":[`, `"content":{"a":[`},
			{`"arguments":"`, `"arguments":{"s":"`}} {
			if bytes.Contains(line, []byte(swap[0])) {
				m := bytes.Replace(line, []byte(swap[0]), []byte(swap[1]), 1)
				if json.Valid(m) {
					same(m)
					mutated++
				}
			}
		}
	}
	if mutated == 0 {
		t.Fatal("no line was mutated")
	}
}
