#!/usr/bin/env bash
# Figures of ctx sync on an existing store: the first push of everything to
# an empty file:// remote (wall time, peak RSS), the remote's size against
# the local object store, an incremental push after 100 appended events, and
# a pull of the whole view into an empty store (merged and indexed).
#
# Usage: scripts/bench-sync.sh HOME STORE
#   HOME:  the agent history the store was imported from (ctx-corpus -home)
#   STORE: its CTX_HOME (ctx import done). The store gains a sync directory,
#          a machine id and the 100 appended events; the remote and the
#          pulled store are scratch.
set -euo pipefail
export CTX_DAEMON=off
cd "$(dirname "$0")/.."
home=$(realpath "$1") store=$(realpath "$2")
go build -o bin/ctx ./cmd/ctx && go build -o bin/ctx-core ./cmd/ctx-core
go build -o bin/ctx-corpus ./cmd/ctx-corpus
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export HOME="$home" CTX_HOME="$store" XDG_CONFIG_HOME="$work/config"
unset CLAUDE_CONFIG_DIR CODEX_HOME XDG_DATA_HOME
mkdir -p "$XDG_CONFIG_HOME/ctx"
printf '[sync.include]\nproviders = ["claude-code", "codex"]\n' >"$XDG_CONFIG_HOME/ctx/config.toml"
git init -q --bare "$work/remote.git"
rm -rf "$store/sync"
./bin/ctx sync remote add bench "file://$work/remote.git" >/dev/null

# Runs a command under /usr/bin/time, printing wall time, CPU time (user +
# system, all threads: the figure that carries over a loaded machine) and
# peak RSS.
measure() {
	local label=$1; shift
	/usr/bin/time -f '%e %U %S %M' -o "$work/time" "$@" >"$work/out" 2>"$work/err" || { cat "$work/err"; exit 1; }
	read -r wall user sys kib <"$work/time"
	printf '%-34s %8.2f s  cpu %8.2f s  peak %5d MiB   (load %s)\n' "$label" "$wall" "$(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%.2f", u + s }')" \
		$((kib / 1024)) "$(cut -d' ' -f1-3 /proc/loadavg)"
}
bytes() { du -sb "$1" | cut -f1; }

measure "first push (everything)" ./bin/ctx sync push --format json
grep -E '"(sessions|events|objects|new_bytes|export_ms|transport_ms)"' "$work/out" | tr -d ' ,' | paste -sd' '
objects=$(bytes "$store/objects")
remote=$(bytes "$work/remote.git")
echo "local objects: $((objects / 1048576)) MiB  remote: $((remote / 1048576)) MiB  remote/local: $((remote * 100 / objects))%"

file=$(find "$home/.claude/projects" -name '*.jsonl' -not -path '*subagents*' | sort | sed -n 1p)
./bin/ctx-corpus -append "$file" -events 100 -seed 5 >/dev/null
measure "import of 100 appended events" ./bin/ctx import
measure "incremental push (100 events)" ./bin/ctx sync push --format json
grep -E '"(new_objects|new_bytes|export_ms|transport_ms)"' "$work/out" | tr -d ' ,' | paste -sd' '
remote=$(bytes "$work/remote.git")
echo "remote after: $((remote / 1048576)) MiB"

export CTX_HOME="$work/pulled" HOME="$work/empty-home"
mkdir -p "$HOME"
./bin/ctx sync remote add bench "file://$work/remote.git" >/dev/null
measure "pull + merge + index (everything)" ./bin/ctx sync pull --format json
grep -E '"(sessions_written|events_indexed)"' "$work/out" | tr -d ' ,' | paste -sd' '
