// Command ctx imports coding agents' conversation histories into one local
// content-addressed store and searches them.
package main

import (
	"os"
)

func main() {
	os.Exit(run(os.Args[1:], systemEnv()))
}
