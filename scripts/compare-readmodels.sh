#!/usr/bin/env bash
# CPU time (perf stat task-clock, user + system of the whole process) and
# wall time of ctx binaries on one store, interleaved run by run so that
# every binary sees the same machine load: the median of RUNS runs of each
# binary for `ctx version`, list sessions, the timeline over 30 days and
# stats by week. STORE is the read-model benchmark store
# (scripts/bench-readmodels.sh builds it). Needs perf.
# Usage: scripts/compare-readmodels.sh STORE RUNS BIN...
set -euo pipefail
store=$1 runs=$2
shift 2
export CTX_DAEMON=off CTX_HOME="$store" HOME="$(mktemp -d)"
trap 'rm -rf "$HOME"' EXIT
median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
uptime
for cmd in "version" "list sessions" "timeline --since 2026-07-01 --until 2026-07-31 --no-commits" "stats --by week"; do
	echo "ctx $cmd"
	for b in "$@"; do : >"$HOME/$(basename "$b").t"; done
	for _ in $(seq "$runs"); do
		for b in "$@"; do
			s=$(date +%s%N)
			# shellcheck disable=SC2086 # cmd is split into arguments on purpose
			perf stat -x, -e task-clock -o "$HOME/perf" "$b" $cmd >/dev/null 2>&1
			e=$(date +%s%N)
			echo "$(grep task-clock "$HOME/perf" | cut -d, -f1) $(((e - s) / 1000000))" >>"$HOME/$(basename "$b").t"
		done
	done
	for b in "$@"; do
		f="$HOME/$(basename "$b").t"
		printf '  %-20s cpu %6.1f ms  wall %6d ms\n' "$(basename "$b")" "$(awk '{print $1}' "$f" | median)" "$(awk '{print $2}' "$f" | median)"
	done
done
uptime
