package main

import (
	"os"
	"path/filepath"
	"testing"
)

func TestAbsDir(t *testing.T) {
	env := &Env{Getenv: func(k string) string {
		if k == "HOME" {
			return "/home/u"
		}
		return ""
	}}
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for in, want := range map[string]string{
		"":                   "",
		"~":                  "/home/u",
		"~/src/api":          "/home/u/src/api",
		`C:\Github\poule_v2`: `C:\Github\poule_v2`,
		"c:/Apps/Repo":       "c:/Apps/Repo",
		`\\host\share`:       `\\host\share`,
		"/abs/path/":         "/abs/path",
		"rel":                filepath.Join(wd, "rel"),
	} {
		if got := absDir(env, in); got != want {
			t.Errorf("absDir(%q) = %q, want %q", in, got, want)
		}
	}
}
