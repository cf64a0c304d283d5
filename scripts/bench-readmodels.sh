#!/usr/bin/env bash
# Whole-process figures of the read models on a ~1,000,000-event store:
# ctx list sessions, ctx timeline over 30 days, ctx stats, and ctx export of
# a 50,000-event session (wall, CPU and peak RSS of each process, median of
# RUNS). The store is built once by the query package's benchmark helper
# (no index: these commands never open one) and kept in STORE.
# Usage: scripts/bench-readmodels.sh [STORE] [RUNS]   (default: a temp dir, 5)
set -euo pipefail
export CTX_DAEMON=off
cd "$(dirname "$0")/.."
store="${1:-$(mktemp -d)/store}"
runs="${2:-5}"
go build -o bin/ctx ./cmd/ctx && go build -o bin/ctx-core ./cmd/ctx-core
CTX_READMODEL_BENCH_STORE="$store" go test ./query/ -run '^$' -bench ReadModelListSessions -benchtime 1x >/dev/null
export CTX_HOME="$store" HOME="$(mktemp -d)"
uptime

# measure LABEL CMD...: median wall ms, median user+sys ms, max peak RSS MiB.
measure() {
	local label=$1; shift
	local walls=() cpus=() rss=0
	for _ in $(seq "$runs"); do
		/usr/bin/time -f '%e %U %S %M' -o "$HOME/t" "$@" >/dev/null
		read -r e u s m <"$HOME/t"
		walls+=("$(awk -v e="$e" 'BEGIN{printf "%d", e*1000}')")
		cpus+=("$(awk -v u="$u" -v s="$s" 'BEGIN{printf "%d", (u+s)*1000}')")
		[ "$m" -gt "$rss" ] && rss=$m
	done
	med() { printf '%s\n' "$@" | sort -n | awk '{a[NR]=$1} END{print a[int((NR+1)/2)]}'; }
	printf '%-34s wall %6d ms  cpu %6d ms  peak %5d MiB\n' "$label" "$(med "${walls[@]}")" "$(med "${cpus[@]}")" $((rss / 1024))
}

measure "ctx version (start, no read)" ./bin/ctx version
measure "ctx list sessions" ./bin/ctx list sessions
measure "ctx list sessions --format json" ./bin/ctx list sessions --format json
measure "ctx timeline (30 days)" ./bin/ctx timeline --since 2026-07-01 --until 2026-07-31 --no-commits
measure "ctx stats --by week" ./bin/ctx stats --since '' --by week
measure "ctx export 50k markdown" ./bin/ctx export long-session --format markdown
measure "ctx export 50k html" ./bin/ctx export long-session --format html
measure "ctx export 50k jsonl" ./bin/ctx export long-session --format jsonl

# What a process initialises before any command runs (GODEBUG=inittrace):
# the clock time of every package init, summed, and the five costliest
# packages, median of RUNS.
inits="$HOME/inits"
: >"$inits"
for r in $(seq "$runs"); do
	GODEBUG=inittrace=1 ./bin/ctx version 2>&1 >/dev/null | awk -v r="$r" '/^init /{print r, $2, $5}' >>"$inits"
done
median() { sort -n | awk '{a[NR]=$1} END{print a[int((NR+1)/2)]}'; }
printf '%-34s %6s ms clock (median of %d)\n' "package init, all packages" \
	"$(awk '{s[$1]+=$3} END{for (r in s) print s[r]}' "$inits" | median)" "$runs"
for p in $(awk '{print $2}' "$inits" | sort -u); do
	printf '%s %s\n' "$(awk -v p="$p" '$2==p{print $3}' "$inits" | median)" "$p"
done | sort -rn | head -5 | awk '{printf "  %-60s %6s ms\n", $2, $1}'
