#!/usr/bin/env bash
# The store a running daemon keeps while an agent writes: imports a
# generated corpus, starts the daemon, appends one event every PERIOD
# seconds to the largest Claude Code session for MINUTES minutes, and
# prints each minute the index, object and vector sizes (MB), the index
# shard directories and the reflog's entries. With BASE_BIN=DIR (a
# directory holding another build's ctx-core), a second daemon of that
# build runs beside it on a copy of the same store, watching the same
# history, and its sizes are printed on the line after.
#
# Usage: scripts/bench-daemon-store.sh [EVENTS] [MINUTES] [PERIOD]
#        (defaults 200000 events, 30 minutes, 2 seconds)
set -euo pipefail
cd "$(dirname "$0")/.."
events="${1:-200000}" minutes="${2:-30}" period="${3:-2}"
go build -o bin/ctx ./cmd/ctx && go build -o bin/ctx-core ./cmd/ctx-core
go build -o bin/ctx-corpus ./cmd/ctx-corpus
work=$(mktemp -d)
stores=("$work/store")
bins=("$PWD/bin")
if [ -n "${BASE_BIN:-}" ]; then
	stores+=("$work/base-store")
	bins+=("$(cd "$BASE_BIN" && pwd)")
fi
stop() {
	for i in "${!stores[@]}"; do
		CTX_HOME="${stores[$i]}" "${bins[$i]}/ctx-core" daemon stop >/dev/null 2>&1 || true
	done
	rm -rf "$work"
}
trap stop EXIT
export HOME="$work/home"
unset CLAUDE_CONFIG_DIR CODEX_HOME XDG_DATA_HOME

./bin/ctx-corpus -home "$HOME" -events "$events" -seed 42 >/dev/null
CTX_DAEMON=off CTX_HOME="$work/store" ./bin/ctx-core import >/dev/null
[ -n "${BASE_BIN:-}" ] && cp -a "$work/store" "$work/base-store"
for i in "${!stores[@]}"; do
	CTX_HOME="${stores[$i]}" "${bins[$i]}/ctx-core" daemon start >/dev/null
done
session=$(find "$HOME/.claude/projects" -name '*.jsonl' -printf '%s %p\n' | sort -n | tail -1 | cut -d' ' -f2)

sizes() { # store: index MB, objects MB, vectors MB, shard directories, reflog entries
	local s=$1
	printf '%s %s %s %s %s' "$(du -sm "$s/index" | cut -f1)" "$(du -sm "$s/objects" | cut -f1)" \
		"$(du -sm "$s/vectors" 2>/dev/null | cut -f1 || echo 0)" "$(find "$s/index" -mindepth 1 -maxdepth 1 -type d | wc -l)" \
		"$(wc -l <"$s/logs/refs/active")"
}
echo "time     build  index_MB objects_MB vectors_MB shard_dirs reflog  load"
report() {
	for i in "${!stores[@]}"; do
		printf '%s %-6s %s  %s\n' "$(date +%H:%M:%S)" "$([ "$i" = 0 ] && echo head || echo base)" \
			"$(sizes "${stores[$i]}")" "$(cut -d' ' -f1 /proc/loadavg)"
	done
}
report
end=$(($(date +%s) + minutes * 60)) next=$(($(date +%s) + 60)) n=0
while [ "$(date +%s)" -lt "$end" ]; do
	n=$((n + 1))
	./bin/ctx-corpus -append "$session" -events 1 -seed "$n" >/dev/null
	sleep "$period"
	if [ "$(date +%s)" -ge "$next" ]; then
		report
		next=$((next + 60))
	fi
done
report
echo "appended $n events"
for i in "${!stores[@]}"; do
	CTX_HOME="${stores[$i]}" "${bins[$i]}/ctx-core" daemon status | grep -E '^(Daemon|GC):' || true
done
