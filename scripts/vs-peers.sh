#!/usr/bin/env bash
# ctx's full import beside two peer tools' on one generated corpus, in one
# run: builds ctx and the corpus once, then for each round runs each tool's
# whole first import on a fresh data directory, in turn (ctx, deja-vu,
# agentsview, then again), so all of them see the same machine load.
#
# Usage: DEJA=path/to/deja AGENTSVIEW=path/to/agentsview scripts/vs-peers.sh [EVENTS] [ROUNDS]
#        (defaults 200000 and 3; a peer whose variable is unset is skipped)
#
# The peers are built from their public sources by the caller: deja-vu
# (`go build ./cmd/deja`) and agentsview (`CGO_ENABLED=1 go build -tags fts5
# ./cmd/agentsview`, with a stub file in internal/web/dist). What runs:
#   ctx         CTX_HOME=DATA ctx import --format json
#   deja-vu     DEJA_INDEX_DIR=DATA/index.db DEJA_INCLUDE_SUBAGENTS=1 deja index
#   agentsview  AGENT_VIEWER_DATA_DIR=DATA agentsview serve -no-browser ...
#               (it has no import-only command: its initial sync runs before it
#               listens, so its run ends at the "listening at" line, and it is
#               then stopped; its SQLite WAL is checkpointed before the size is
#               taken when sqlite3 is on PATH)
# each with HOME set to the generated history and DATA a fresh directory
# outside it (a tool that writes into the history fails the run).
#
# Prints the load before and after, one line per tool and round (wall, user +
# sys CPU, CPU µs per event, events per second, peak RSS, data directory size
# against the raw history), the median of the rounds per tool, each peer's
# rate and CPU per event as a ratio to ctx's, and a check that each tool
# indexed the corpus (sessions it reports, hits for one word). Rates use the
# event count ctx reports (events_read) for every tool, so they compare.
# Set VS_PEERS_KEEP=DIR to keep (or reuse) the corpus and the last round's
# data directories in DIR.
set -euo pipefail
export CTX_DAEMON=off
unset CLAUDE_CONFIG_DIR CODEX_HOME XDG_DATA_HOME XDG_CONFIG_HOME XDG_CACHE_HOME CTX_HOME \
	DEJA_INDEX_DIR DEJA_CLAUDE_ROOT DEJA_CODEX_ROOT AGENT_VIEWER_DATA_DIR \
	CLAUDE_PROJECTS_DIR CODEX_SESSIONS_DIR
# peer PATH-or-NAME: the absolute path of a peer's binary, or an error.
peer() {
	local p
	p=$(command -v "$1") || { echo "vs-peers: $1 is not an executable" >&2; exit 2; }
	realpath "$p"
}
deja="" av=""
if [ -n "${DEJA:-}" ]; then deja=$(peer "$DEJA"); fi
if [ -n "${AGENTSVIEW:-}" ]; then av=$(peer "$AGENTSVIEW"); fi
cd "$(dirname "$0")/.."
events="${1:-200000}"
rounds="${2:-3}"
word=flaky

tools=(ctx)
if [ -n "$deja" ]; then tools+=(deja); else echo "vs-peers: DEJA is not set, deja-vu skipped"; fi
if [ -n "$av" ]; then tools+=(agentsview); else echo "vs-peers: AGENTSVIEW is not set, agentsview skipped"; fi

go build -o bin/ctx ./cmd/ctx && go build -o bin/ctx-core ./cmd/ctx-core
go build -o bin/ctx-corpus ./cmd/ctx-corpus
avpid=""
if [ -n "${VS_PEERS_KEEP:-}" ]; then
	work=$VS_PEERS_KEEP
	mkdir -p "$work"
	trap '[ -z "$avpid" ] || kill "$avpid" 2>/dev/null || true' EXIT
else
	work=$(mktemp -d)
	trap '[ -z "$avpid" ] || kill "$avpid" 2>/dev/null || true; rm -rf "$work"' EXIT
fi
home=$work/home
mkdir -p "$work/data" "$work/log"

# now: microseconds from bash's clock, read without a fork.
now() { t=${EPOCHREALTIME/./}; }
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
mib() { echo $(($1 / 1048576)); }
fail() { # tool status log: the run failed, say so loudly and stop
	echo "vs-peers: $1 failed (exit $2); its output:" >&2
	sed 's/\r/\n/g' "$3" | tail -n 20 >&2
	exit 1
}

echo "load: $(cut -d' ' -f1-3 /proc/loadavg)"
if [ ! -d "$home/.claude" ]; then
	./bin/ctx-corpus -home "$home" -events "$events" -seed 42 >/dev/null
fi
raw=$(du -sbL "$home" | cut -f1)
echo "corpus: $(find "$home" -type f | wc -l) files, $(mib "$raw") MiB raw"

# Each run_* leaves the wall time in µs in $wall, the output in $log and
# /usr/bin/time's "user sys maxrss" as the last line of $work/time.
run_ctx() {
	now; local t0=$t
	HOME="$home" CTX_HOME="$data" /usr/bin/time -f '%U %S %M' -o "$work/time" \
		./bin/ctx import --format json >"$log" 2>&1 || fail ctx $? "$log"
	now; wall=$((t - t0))
	n=$(grep -o '"events_read": [0-9]*' "$log" | grep -o '[0-9]*$')
}
run_deja() {
	now; local t0=$t
	HOME="$home" DEJA_INDEX_DIR="$data/index.db" DEJA_INCLUDE_SUBAGENTS=1 DEJA_EMBED=off \
		/usr/bin/time -f '%U %S %M' -o "$work/time" "$deja" index >"$log" 2>&1 || fail deja $? "$log"
	now; wall=$((t - t0))
	[ -d "$data/index.db" ] || fail deja "0 but wrote no index" "$log"
}
run_agentsview() {
	local port=$((20000 + RANDOM % 20000)) tpid rc=0
	now; local t0=$t
	# sh writes the pid agentsview will have (it execs), so it can be stopped.
	HOME="$home" AGENT_VIEWER_DATA_DIR="$data" /usr/bin/time -f '%U %S %M' -o "$work/time" \
		sh -c 'echo $$ >"$0"; exec "$@"' "$work/av.pid" \
		"$av" serve -no-browser -host 127.0.0.1 -port "$port" >"$log" 2>&1 &
	tpid=$!
	until grep -q 'listening at' "$log"; do
		if ! kill -0 "$tpid" 2>/dev/null; then
			wait "$tpid" || rc=$?
			fail agentsview "$rc" "$log"
		fi
		sleep 0.05
	done
	now; wall=$((t - t0))
	avpid=$(cat "$work/av.pid")
	kill "$avpid"
	wait "$tpid" || true
	avpid=""
	if command -v sqlite3 >/dev/null; then
		sqlite3 "$data/sessions.db" 'PRAGMA wal_checkpoint(TRUNCATE);' >/dev/null
	fi
}

for ((r = 1; r <= rounds; r++)); do
	for tool in "${tools[@]}"; do
		data=$work/data/$tool log=$work/log/$tool
		rm -rf "$data" && mkdir -p "$data"
		touch "$work/stamp"
		"run_$tool"
		if [ -n "$(find "$home" -newer "$work/stamp" -print -quit)" ]; then
			echo "vs-peers: $tool wrote into the history home" >&2
			exit 1
		fi
		read -r user sys rss < <(sed -n '$p' "$work/time")
		size=$(du -sb "$data" | cut -f1)
		cpu=$(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%d", (u + s) * 1000 }')
		echo "$wall" >>"$work/$tool.wall"
		echo "$cpu" >>"$work/$tool.cpu"
		echo "$rss" >>"$work/$tool.rss"
		echo "$size" >>"$work/$tool.size"
		awk -v r="$r" -v tool="$tool" -v n="$n" -v w="$wall" -v c="$cpu" -v rss="$rss" -v d="$size" -v raw="$raw" 'BEGIN {
			printf "round %d  %-10s wall %6.1f s  CPU %6.1f s  %4.0f µs/event  %6d events/s  peak %4d MiB  data %4d MiB, %3.0f%% of raw\n",
				r, tool, w / 1e6, c / 1000, c * 1000 / n, n * 1e6 / w, rss / 1024, d / 1048576, d * 100 / raw }'
	done
done

echo "median of $rounds rounds, $n events (ctx's events_read), $(mib "$raw") MiB raw:"
for tool in "${tools[@]}"; do
	w=$(median <"$work/$tool.wall") c=$(median <"$work/$tool.cpu")
	rss=$(median <"$work/$tool.rss") d=$(median <"$work/$tool.size")
	echo "$w $c" >"$work/$tool.med"
	awk -v tool="$tool" -v n="$n" -v w="$w" -v c="$c" -v rss="$rss" -v d="$d" -v raw="$raw" 'BEGIN {
		printf "  %-10s wall %6.1f s  CPU %6.1f s  %4.0f µs/event  %6d events/s  peak %4d MiB  data %4d MiB, %3.0f%% of raw\n",
			tool, w / 1e6, c / 1000, c * 1000 / n, n * 1e6 / w, rss / 1024, d / 1048576, d * 100 / raw }'
done
read -r cw cc <"$work/ctx.med"
for tool in "${tools[@]:1}"; do
	read -r w c <"$work/$tool.med"
	awk -v tool="$tool" -v cw="$cw" -v cc="$cc" -v w="$w" -v c="$c" 'BEGIN {
		printf "  %-10s rate %.2f× ctx'"'"'s, CPU per event %.2f× ctx'"'"'s\n", tool, cw / w, c / cc }'
done

# Did each tool index the corpus? Sessions each says it read, and hits for
# one word in each one's own index (the last round's data directories).
data=$work/data
s=$(grep -o '"sessions_written": [0-9]*' "$work/log/ctx" | grep -o '[0-9]*$')
h=$(HOME="$home" CTX_HOME="$data/ctx" ./bin/ctx search "$word" --limit 1 --format json |
	grep -o '"total_matches": [0-9]*' | grep -o '[0-9]*$')
echo "check: ctx        $s sessions written, \"$word\" matches $h events (or more)"
if [ -n "$deja" ]; then
	s=$(grep -o ': [0-9]* sessions' "$work/log/deja" | awk '{ s += $2 } END { print s + 0 }')
	h=$(HOME="$home" DEJA_INDEX_DIR="$data/deja/index.db" DEJA_INCLUDE_SUBAGENTS=1 DEJA_EMBED=off \
		"$deja" search --json "$word" 2>"$work/deja.err" | grep -o '"total":[0-9]*' | grep -o '[0-9]*$')
	echo "check: deja       $s sessions indexed, \"$word\" matches $h sessions"
	if grep -q 'refreshing' "$work/deja.err"; then
		echo "vs-peers: deja found its index stale and refreshes it in the background" >&2
	fi
fi
if [ -n "$av" ]; then
	s=$(grep -o 'Sync complete: .*' "$work/log/agentsview" | sed 's/^Sync complete: //; s/ in [^ ]*$//')
	h="(sqlite3 is not on PATH)"
	if command -v sqlite3 >/dev/null; then
		h="matches $(sqlite3 "$data/agentsview/sessions.db" \
			"SELECT count(*) FROM messages_fts WHERE messages_fts MATCH '$word'") messages"
	fi
	echo "check: agentsview $s, \"$word\" $h"
fi
echo "load: $(cut -d' ' -f1-3 /proc/loadavg)"
