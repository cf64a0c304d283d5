#!/usr/bin/env bash
# ctx beside rg on one generated corpus, in one run: builds the corpus once,
# imports it (CTX_DAEMON=off), then alternates `ctx search Q --limit 10` and
# `rg -l -i -F --hidden Q` over the raw history (the agents' directories are
# hidden: without --hidden rg reads none of it) for the same queries and prints the
# median of each, their ratio (ctx / rg), the import's rate and CPU per event,
# and the store's size against the raw history.
#
# Usage: scripts/vs-rg.sh [EVENTS] [ROUNDS]   (defaults 200000 and 5)
# Set VS_RG_KEEP=DIR to keep (or reuse) the corpus and store in DIR.
# Set VS_RG_DAEMON=1 to time, in the same rounds, `ctx search` while a
# daemon runs on the store (it answers over the shards it keeps open).
set -euo pipefail
export CTX_DAEMON=off
cd "$(dirname "$0")/.."
events="${1:-200000}"
rounds="${2:-5}"
command -v rg >/dev/null || { echo "vs-rg: rg (ripgrep) is not on PATH" >&2; exit 2; }
go build -o bin/ctx ./cmd/ctx && go build -o bin/ctx-core ./cmd/ctx-core
go build -o bin/ctx-corpus ./cmd/ctx-corpus
if [ -n "${VS_RG_KEEP:-}" ]; then
	work=$VS_RG_KEEP
	mkdir -p "$work"
else
	work=$(mktemp -d)
	trap 'rm -rf "$work"' EXIT
fi
export HOME="$work/home" CTX_HOME="$work/store"
unset CLAUDE_CONFIG_DIR CODEX_HOME XDG_DATA_HOME

ms() { echo $(( $(date +%s%N) / 1000000 )); }
# now: microseconds from bash's clock, read without a fork (a fork per
# reading would add about a millisecond to each timed process).
now() { t=${EPOCHREALTIME/./}; }
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

echo "load: $(cut -d' ' -f1-3 /proc/loadavg)"
if [ ! -d "$HOME/.claude" ]; then
	./bin/ctx-corpus -home "$HOME" -events "$events" -seed 42
fi
raw=$(du -sbL "$HOME" | cut -f1)
if [ ! -d "$CTX_HOME/refs" ]; then
	t0=$(ms)
	/usr/bin/time -f '%U %S %M' -o "$work/import.time" ./bin/ctx import --format json >"$work/import.json"
	t1=$(ms)
	read -r user sys rss <"$work/import.time"
	n=$(grep -o '"events_read": [0-9]*' "$work/import.json" | grep -o '[0-9]*$')
	awk -v n="$n" -v ms=$((t1 - t0)) -v u="$user" -v s="$sys" -v rss="$rss" 'BEGIN {
		printf "import: %d events in %.1f s, %d events/s, %.0f CPU-µs/event, peak %d MiB\n",
			n, ms / 1000, n * 1000 / ms, (u + s) * 1e6 / n, rss / 1024 }'
fi
store=$(du -sbL "$CTX_HOME" | cut -f1)
echo "raw history: $((raw / 1048576)) MiB  store: $((store / 1048576)) MiB  ($((store * 100 / raw))% of raw)"

queries=("flaky test timeout" "parseConfig" "connection refused" "apply_patch" "retry backoff"
	"nil pointer dereference" "go test ./..." "migration rollback")
: >"$work/ctx.us"
: >"$work/rg.us"
: >"$work/warm.us"
if [ "${VS_RG_DAEMON:-}" = 1 ]; then
	trap './bin/ctx daemon stop >/dev/null 2>&1 || true; [ -n "${VS_RG_KEEP:-}" ] || rm -rf "$work"' EXIT
fi
for ((r = 0; r < rounds; r++)); do
	for q in "${queries[@]}"; do
		now; t0=$t; ./bin/ctx search "$q" --limit 10 >/dev/null; now
		echo $((t - t0)) >>"$work/ctx.us"
		now; t0=$t; rg -l -i -F --hidden -L "$q" "$HOME" >/dev/null || true; now
		echo $((t - t0)) >>"$work/rg.us"
	done
done
if [ "${VS_RG_DAEMON:-}" = 1 ]; then
	./bin/ctx daemon start >/dev/null
	# The daemon's first pass (and the merge, vectors and gc after it) must
	# end before the clock starts: they would take the cores the searches
	# are timed on. Then one untimed round opens the shards.
	for ((i = 0; i < 600; i++)); do
		./bin/ctx --format json daemon status 2>/dev/null | grep -q '"last_import"' && break
		sleep 0.1
	done
	sleep 3
	for q in "${queries[@]}"; do ./bin/ctx search "$q" --limit 10 >/dev/null; done
	for ((r = 0; r < rounds; r++)); do
		for q in "${queries[@]}"; do
			now; t0=$t; ./bin/ctx search "$q" --limit 10 >/dev/null; now
			echo $((t - t0)) >>"$work/warm.us"
		done
	done
	./bin/ctx daemon stop >/dev/null
fi
c=$(median <"$work/ctx.us")
g=$(median <"$work/rg.us")
awk -v c="$c" -v g="$g" -v n=$((rounds * ${#queries[@]})) 'BEGIN {
	printf "search p50 over %d runs each: ctx %.1f ms, rg -l %.1f ms, ratio ctx/rg %.2f\n", n, c / 1000, g / 1000, c / (g > 0 ? g : 1) }'
if [ -s "$work/warm.us" ]; then
	w=$(median <"$work/warm.us")
	awk -v w="$w" -v g="$g" 'BEGIN {
		printf "search p50 with the daemon running: ctx %.1f ms, ratio ctx/rg %.2f\n", w / 1000, w / (g > 0 ? g : 1) }'
fi
echo "load: $(cut -d' ' -f1-3 /proc/loadavg)"
