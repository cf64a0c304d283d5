#!/usr/bin/env bash
# `ctx search` through a running daemon, timed as a whole process, beside
# two references timed the same way in the same rounds: `/bin/true` and an
# empty Go program (what any process, and any Go process, costs to start
# on this machine). Uses the history HOME and the store STORE (imported
# from it) as they are: starts a daemon on them, waits for its first pass,
# runs one untimed round, then ROUNDS rounds of the eight queries of
# scripts/bench.sh, and stops the daemon.
#
# Usage: scripts/warm-search.sh HOME STORE [ROUNDS]   (default 9)
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -ge 2 ] || { echo "usage: scripts/warm-search.sh HOME STORE [ROUNDS]" >&2; exit 2; }
home=$(realpath "$1") store=$(realpath "$2") rounds="${3:-9}"
[ -d "$store/refs" ] || { echo "warm-search: $store holds no store" >&2; exit 2; }
go build -o bin/ctx ./cmd/ctx && go build -o bin/ctx-core ./cmd/ctx-core
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
printf 'package main\n\nfunc main() {}\n' >"$work/main.go"
printf 'module empty\n\ngo 1.26\n' >"$work/go.mod"
(cd "$work" && go build -o empty .)
# Built: from here on the history and store are the ones given.
export HOME="$home" CTX_HOME="$store"
unset CLAUDE_CONFIG_DIR CODEX_HOME XDG_DATA_HOME CTX_DAEMON
ctx() { ./bin/ctx "$@"; }
trap 'ctx daemon stop >/dev/null 2>&1 || true; rm -rf "$work"' EXIT

now() { t=${EPOCHREALTIME/./}; }
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
queries=("flaky test timeout" "parseConfig" "connection refused" "apply_patch" "retry backoff"
	"nil pointer dereference" "go test ./..." "migration rollback")

echo "load: $(cut -d' ' -f1-3 /proc/loadavg)"
ctx daemon start >/dev/null
for ((i = 0; i < 600; i++)); do
	ctx --format json daemon status 2>/dev/null | grep -q '"last_import"' && break
	sleep 0.1
done
sleep 3 # the maintenance after the first pass
for q in "${queries[@]}"; do ctx search "$q" --limit 10 >/dev/null; done
: >"$work/ctx.us"
: >"$work/true.us"
: >"$work/go.us"
for ((r = 0; r < rounds; r++)); do
	for q in "${queries[@]}"; do
		now; t0=$t; ctx search "$q" --limit 10 >/dev/null; now
		echo $((t - t0)) >>"$work/ctx.us"
		now; t0=$t; /bin/true; now
		echo $((t - t0)) >>"$work/true.us"
		now; t0=$t; "$work/empty"; now
		echo $((t - t0)) >>"$work/go.us"
	done
done
awk -v c="$(median <"$work/ctx.us")" -v g="$(median <"$work/go.us")" -v t="$(median <"$work/true.us")" -v n=$((rounds * 8)) 'BEGIN {
	printf "p50 over %d runs: ctx search %.2f ms, an empty Go program %.2f ms, /bin/true %.2f ms\n", n, c / 1000, g / 1000, t / 1000 }'
echo "load: $(cut -d' ' -f1-3 /proc/loadavg)"
