package main

import (
	"math"
	"runtime/debug"
	"testing"
)

func TestShortCommandsRunWithALargerGCTarget(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(math.MaxInt64))
	cases := []struct {
		args    []string
		env     map[string]string
		percent int
		limit   int64
	}{
		{[]string{"list", "sessions"}, nil, shortGCPercent, shortGCLimit},
		{[]string{"hooks", "run", "post-commit"}, nil, 100, math.MaxInt64},
		{[]string{"timeline"}, map[string]string{"GOMEMLIMIT": "1GiB"}, shortGCPercent, math.MaxInt64},
		{[]string{"list", "sessions"}, map[string]string{"GOGC": "50"}, 100, math.MaxInt64},
		{[]string{"import"}, nil, 100, math.MaxInt64},
		{[]string{"search", "x"}, nil, 100, math.MaxInt64},
	}
	for _, c := range cases {
		debug.SetGCPercent(100)
		debug.SetMemoryLimit(math.MaxInt64)
		env := map[string]string(c.env)
		root := newRootCmd(&Env{Getenv: func(k string) string { return env[k] }}, &format{value: "text"})
		cmd, _, err := root.Find(c.args)
		if err != nil {
			t.Fatal(err)
		}
		root.PersistentPreRun(cmd, nil)
		if p, l := debug.SetGCPercent(100), debug.SetMemoryLimit(-1); p != c.percent || l != c.limit {
			t.Errorf("%v %v: GC percent %d, limit %d; want %d, %d", c.args, c.env, p, l, c.percent, c.limit)
		}
	}
}
