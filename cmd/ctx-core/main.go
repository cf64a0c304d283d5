// Command ctx-core is every command of ctx, which imports coding agents'
// conversation histories into one local content-addressed store and
// searches them. Users run it through the ctx front (cmd/ctx), which
// becomes it by exec, keeping the name it was run by.
package main

import (
	"os"
)

func main() {
	os.Exit(run(os.Args[1:], systemEnv()))
}
