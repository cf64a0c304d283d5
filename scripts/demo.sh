#!/usr/bin/env bash
# Import this machine's agent history into the ctx store and show a search.
# Where the machine has no Claude Code or Codex history, generate a sample
# history into a scratch home (.demo/) and use that instead, saying so.
set -euo pipefail
cd "$(dirname "$0")/.."
ctx=./bin/ctx
[ -x "$ctx" ] && [ -x bin/ctx-core ] || { go build -o bin/ctx ./cmd/ctx && go build -o bin/ctx-core ./cmd/ctx-core; }

present=$("$ctx" sources --format json | grep -c '"files": [1-9]' || true)
query="${1:-}"
if [ "$present" -eq 0 ]; then
	echo "No Claude Code or Codex history found on this machine."
	echo "Using a generated sample history in .demo/home (your real home is not touched)."
	go build -o bin/ctx-corpus ./cmd/ctx-corpus
	rm -rf .demo
	mkdir -p .demo/home
	./bin/ctx-corpus -home .demo/home -events 20000 -seed 7 >/dev/null
	# A scratch history needs no daemon watching it after the demo.
	export HOME="$PWD/.demo/home" CTX_HOME="$PWD/.demo/store" CTX_DAEMON=off
	unset CLAUDE_CONFIG_DIR CODEX_HOME XDG_DATA_HOME
	query="${query:-flaky test timeout}"
else
	query="${query:-error}"
fi

echo
echo "\$ ctx import"
"$ctx" import
echo
echo "\$ ctx status"
"$ctx" status
echo
echo "\$ ctx search \"$query\" --limit 5"
"$ctx" search "$query" --limit 5
