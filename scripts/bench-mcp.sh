#!/usr/bin/env bash
# Figures of one warm ctx mcp serve over stdio, driven by the official MCP
# Go SDK client (cmd/ctx-mcpbench): search latency p50/p95 on a generated
# store, a mixed load at concurrency 20 that must have no error, and a
# session whose transcript is over 50 MB paged through show_session to the
# end with every response line under 1 MiB.
# Usage: scripts/bench-mcp.sh [EVENTS] [RUNS] (default 200000 events, 3 runs).
set -euo pipefail
export CTX_DAEMON=off # measure the server alone, never a daemon it would start
cd "$(dirname "$0")/.."
events="${1:-200000}"
runs="${2:-3}"
go build -o bin/ctx ./cmd/ctx && go build -o bin/ctx-core ./cmd/ctx-core
go build -o bin/ctx-mcp ./cmd/ctx-mcp
go build -o bin/ctx-corpus ./cmd/ctx-corpus
go build -o bin/ctx-mcpbench ./cmd/ctx-mcpbench
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
unset CLAUDE_CONFIG_DIR CODEX_HOME XDG_DATA_HOME

echo "== store of $events events"
export HOME="$work/home" CTX_HOME="$work/store"
./bin/ctx-corpus -home "$HOME" -events "$events" -seed 42
./bin/ctx import >/dev/null
./bin/ctx status | sed -n 2,3p
for run in $(seq "$runs"); do
	echo "-- run $run, load: $(uptime | sed 's/.*load average: //')"
	./bin/ctx-mcpbench -ctx ./bin/ctx -searches 300 -mixed 2000 -concurrency 20
done

echo "== one session of more than 50 MB"
export HOME="$work/big-home" CTX_HOME="$work/big-store"
./bin/ctx-corpus -home "$HOME" -events 500 -seed 7 -providers claude-code >/dev/null
file=$(find "$HOME/.claude/projects" -name '*.jsonl' -not -path '*subagents*' | sort | sed -n 1p)
seed=8
while [ "$(stat -c %s "$file")" -lt $((50 << 20)) ]; do
	./bin/ctx-corpus -append "$file" -events 5000 -seed "$seed" >/dev/null
	seed=$((seed + 1))
done
echo "transcript: $(($(stat -c %s "$file") >> 20)) MiB"
./bin/ctx import >/dev/null
echo "-- load: $(uptime | sed 's/.*load average: //')"
./bin/ctx-mcpbench -ctx ./bin/ctx -searches 0 -mixed 0 -page-largest
