// Command ctx-corpus writes a synthetic coding-agent history for benchmarks
// and demos.
//
//	ctx-corpus -home DIR -events N [-seed S] [-providers claude-code,codex]
//	ctx-corpus -append FILE -events N [-seed S]
//
// It prints what it wrote as one JSON line.
package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"ctx/internal/corpus"
)

// statsJSON is the printed result.
type statsJSON struct {
	Files    int   `json:"files"`
	Sessions int   `json:"sessions"`
	Events   int   `json:"events"`
	Bytes    int64 `json:"bytes"`
}

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("ctx-corpus", flag.ContinueOnError)
	fs.SetOutput(stderr)
	home := fs.String("home", "", "directory to write .claude and .codex into")
	appendTo := fs.String("append", "", "existing session file to continue")
	events := fs.Int("events", 2000, "approximate number of normalized events")
	seed := fs.Int64("seed", 1, "random seed; the same seed writes the same bytes")
	providers := fs.String("providers", "claude-code,codex", "comma-separated providers")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	out, err := generate(*home, *appendTo, *events, *seed, *providers)
	if err != nil {
		fmt.Fprintln(stderr, "ctx-corpus:", err)
		if errors.Is(err, corpus.ErrOptions) || errors.Is(err, errUsage) {
			return 2
		}
		return 1
	}
	line, _ := json.Marshal(out)
	fmt.Fprintf(stdout, "%s\n", line)
	return 0
}

var errUsage = errors.New("give exactly one of -home DIR or -append FILE")

func generate(home, appendTo string, events int, seed int64, providers string) (statsJSON, error) {
	if (home == "") == (appendTo == "") {
		return statsJSON{}, errUsage
	}
	if appendTo != "" {
		before, err := os.Stat(appendTo)
		if err != nil {
			return statsJSON{}, err
		}
		n, err := corpus.Append(appendTo, events, seed)
		if err != nil {
			return statsJSON{}, err
		}
		after, err := os.Stat(appendTo)
		if err != nil {
			return statsJSON{}, err
		}
		return statsJSON{Files: 1, Events: n, Bytes: after.Size() - before.Size()}, nil
	}
	st, err := corpus.Generate(home, corpus.Options{Events: events, Seed: seed,
		Providers: strings.Split(providers, ",")})
	return statsJSON{Files: st.Files, Sessions: st.Sessions, Events: st.Events, Bytes: st.Bytes}, err
}
