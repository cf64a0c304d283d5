package jsonl

import (
	"bytes"
	stdjson "encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"ctx/core"
)

func TestReadBadInput(t *testing.T) {
	var in bytes.Buffer
	in.WriteString(`{"a":1}` + "\n")
	in.WriteString(`{"a":` + "\n")               // invalid JSON
	in.WriteString("\x00\x01\xff\xfe garbage\n") // binary
	in.WriteString(`{"big":"` + strings.Repeat("x", MaxLine+10) + `"}` + "\n")
	in.WriteString("\n")
	in.WriteString(`{"a":2}` + "\n")
	in.WriteString(`{"a":3,"torn`) // torn last line
	var got []int
	problems, err := Read(&in, func(l Line) error {
		got = append(got, l.No)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if want := []int{1, 6}; len(got) != 2 || got[0] != want[0] || got[1] != want[1] {
		t.Fatalf("good lines %v, want %v", got, want)
	}
	codes := map[string]int{}
	for _, p := range problems {
		codes[p.Code] = p.Line
	}
	want := map[string]int{core.ProblemInvalidJSON: 2, core.ProblemBinaryLine: 3, core.ProblemLineTooLong: 4, core.ProblemTornLine: 7}
	for code, line := range want {
		if codes[code] != line {
			t.Errorf("problem %s at line %d, want line %d (all: %v)", code, codes[code], line, problems)
		}
	}
	if len(problems) != len(want) {
		t.Errorf("problems %v, want %d", problems, len(want))
	}
}

func TestReadLastLineWithoutNewline(t *testing.T) {
	var n int
	problems, err := Read(strings.NewReader("{\"a\":1}\n{\"b\":2}"), func(Line) error { n++; return nil })
	if err != nil || n != 2 || len(problems) != 0 {
		t.Fatalf("n=%d problems=%v err=%v", n, problems, err)
	}
}

func FuzzRead(f *testing.F) {
	f.Add([]byte("{\"a\":1}\n{\"b\"\n\x00\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		_, _ = Read(bytes.NewReader(data), func(l Line) error {
			if len(l.Data) == 0 {
				t.Fatal("empty line delivered")
			}
			return nil
		})
	})
}

// FuzzValid checks that the validator classify uses agrees with
// encoding/json's on any bytes.
func FuzzValid(f *testing.F) {
	for _, s := range []string{`{"a":1}`, `{"a":"\u00e9\t"}`, "{\"a\":\"x\x01\"}", `[1,2,]`,
		`{"a":1e5,"b":-0.1}`, `{"a":01}`, `"\ud800"`, `{"a":tru}`, " {} ", `{"a":"\x"}`,
		"{\"a\":\"\xff\"}", `{"a":[{"b":null}]}`, `1.`, `-`, `{"a":1}{}`, "\t[]\n", "\"\x17\\b\""} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if got, want := classify(b) == "", stdjson.Valid(b); got != want {
			t.Fatalf("classify says valid %v, encoding/json %v: %q", got, want, b)
		}
	})
}

// A scan stopped early leaves nothing of its file to the next scan, which
// reuses its reader and buffer.
func TestScanStoppedLeavesNothing(t *testing.T) {
	stop := errors.New("stop")
	first := strings.Repeat(`{"first":"`+strings.Repeat("x", 100)+`"}`+"\n", 50) + `{"torn":`
	err := Scan(strings.NewReader(first), MaxLine, func(l RawLine) error { return stop })
	if !errors.Is(err, stop) {
		t.Fatalf("err = %v", err)
	}
	var got []string
	err = Scan(strings.NewReader("{\"b\":1}\n{\"b\":2}"), MaxLine, func(l RawLine) error {
		got = append(got, fmt.Sprintf("%d %d %s %v", l.No, l.Offset, l.Data, l.Complete))
		return nil
	})
	want := []string{"1 0 {\"b\":1}\n true", "2 8 {\"b\":2} false"}
	if err != nil || !slices.Equal(got, want) {
		t.Fatalf("got %q (%v), want %q", got, err, want)
	}
}
