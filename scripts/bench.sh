#!/usr/bin/env bash
# Whole-process figures on a generated corpus: import rate, unchanged and
# append re-imports, search latency (p50/p95 over repeated processes), peak
# memory and store size. Usage: scripts/bench.sh [EVENTS] (default 200000).
set -euo pipefail
export CTX_DAEMON=off  # measure the command itself, never a daemon it would start
cd "$(dirname "$0")/.."
events="${1:-200000}"
go build -o bin/ctx ./cmd/ctx && go build -o bin/ctx-core ./cmd/ctx-core
go build -o bin/ctx-corpus ./cmd/ctx-corpus
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export HOME="$work/home" CTX_HOME="$work/store"
unset CLAUDE_CONFIG_DIR CODEX_HOME XDG_DATA_HOME

ms() { echo $(( $(date +%s%N) / 1000000 )); }
peak() { awk '/VmHWM/ {print $2}' "/proc/$1/status" 2>/dev/null || echo 0; }

# Runs a command, printing wall time in ms and peak RSS in MiB.
measure() {
	local label=$1; shift
	local t0 t1 pid hwm=0 h
	t0=$(ms)
	"$@" >"$work/out" 2>&1 &
	pid=$!
	while kill -0 "$pid" 2>/dev/null; do
		h=$(peak "$pid"); [ "${h:-0}" -gt "$hwm" ] && hwm=$h
		sleep 0.05
	done
	wait "$pid"
	t1=$(ms)
	printf '%-28s %8d ms  peak %5d MiB\n' "$label" $((t1 - t0)) $((hwm / 1024))
	echo $((t1 - t0)) >"$work/last_ms"
}

echo "corpus: $events events"
./bin/ctx-corpus -home "$HOME" -events "$events" -seed 42
raw=$(du -sb "$HOME" | cut -f1)

measure "import (full, indexed)" ./bin/ctx import --format json
total=$(grep -o '"events_read": [0-9]*' "$work/out" | grep -o '[0-9]*$')
echo "  events: $total  rate: $((total * 1000 / $(cat "$work/last_ms"))) events/s"
before=$(find "$CTX_HOME/objects" -type f -not -path '*/tmp/*' | wc -l)
measure "re-import, nothing changed" ./bin/ctx import
after=$(find "$CTX_HOME/objects" -type f -not -path '*/tmp/*' | wc -l)
echo "  new objects: $((after - before))"

file=$(find "$HOME/.claude/projects" -name '*.jsonl' -not -path '*subagents*' | sort | sed -n 1p)
./bin/ctx-corpus -append "$file" -events 100 -seed 3 >/dev/null
measure "append 100 events, re-import" ./bin/ctx import

store=$(du -sb "$CTX_HOME/objects" | cut -f1)
idx=$(du -sb "$CTX_HOME/index" | cut -f1)
echo "raw history: $((raw / 1048576)) MiB  objects: $((store / 1048576)) MiB  index: $((idx / 1048576)) MiB  ratio: $(( (store + idx) * 100 / raw ))%"

queries=("flaky test timeout" "parseConfig" "connection refused" "apply_patch" "retry backoff" "nil pointer dereference" "go test ./..." "migration rollback")
: >"$work/times"
for round in 1 2 3 4 5; do
	for q in "${queries[@]}"; do
		t0=$(ms); ./bin/ctx search "$q" --limit 10 >/dev/null; t1=$(ms)
		echo $((t1 - t0)) >>"$work/times"
	done
done
sort -n "$work/times" >"$work/sorted"
n=$(wc -l <"$work/sorted")
echo "search as a whole process ($n runs): p50 $(sed -n "$(( (n + 1) / 2 ))p" "$work/sorted") ms  p95 $(sed -n "$(( n * 95 / 100 ))p" "$work/sorted") ms"
