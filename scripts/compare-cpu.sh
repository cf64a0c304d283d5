#!/usr/bin/env bash
# CPU time (user + system) of whole ctx processes at two revisions, side
# by side and interleaved, so that both see the same machine load: the
# median of RUNS runs of each. It builds ctx at BASE and at HEAD (git
# worktrees), one generated corpus, and times for each binary the first
# import, a lexical search, show session, status and blame of a file.
# Usage: scripts/compare-cpu.sh BASE [HEAD] [EVENTS] [RUNS] (HEAD: the
# working tree's HEAD, EVENTS: 2000, RUNS: 7).
set -euo pipefail
export CTX_DAEMON=off
cd "$(dirname "$0")/.."
base=$1 head=${2:-HEAD} events=${3:-2000} runs=${4:-7}
work=$(mktemp -d)
trap 'git worktree remove --force "$work/src-base" >/dev/null 2>&1; git worktree remove --force "$work/src-head" >/dev/null 2>&1; rm -rf "$work"' EXIT
for side in base head; do
	rev=$base; [ "$side" = head ] && rev=$head
	git worktree add --detach -q "$work/src-$side" "$rev"
	# The whole CLI: cmd/ctx-core since ctx became a front that execs it.
	pkg=./cmd/ctx; [ -d "$work/src-$side/cmd/ctx-core" ] && pkg=./cmd/ctx-core
	(cd "$work/src-$side" && go build -o "$work/ctx-$side" "$pkg")
done
go build -o "$work/ctx-corpus" ./cmd/ctx-corpus
"$work/ctx-corpus" -home "$work/home" -events "$events" >/dev/null
cpu() { # binary args...: prints the CPU milliseconds of one run
	/usr/bin/time -f '%U %S' -o "$work/t" "$@" >/dev/null 2>&1 || true
	awk '{ printf "%d\n", ($1 + $2) * 1000 }' "$work/t"
}
median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
repo=$work/repo
git init -q "$repo" && cp README.md "$repo/" && git -C "$repo" add . &&
	git -C "$repo" -c user.name=bench -c user.email=bench@example.invalid commit -qm bench
printf '%-20s %12s %12s %10s\n' "process (CPU ms)" "base" "head" "head/base"
for side in base head; do # the stores both binaries read
	HOME="$work/home" CTX_HOME="$work/store-$side" "$work/ctx-$side" import >/dev/null
done
id=$(HOME="$work/home" CTX_HOME="$work/store-base" "$work/ctx-base" search "go test" --format json --limit 1 |
	grep -o 'ses_[0-9a-f]\{32\}' | head -1)
for step in import search show status blame; do
	: >"$work/base.$step"
	: >"$work/head.$step"
	for _ in $(seq "$runs"); do
		for side in base head; do
			export HOME="$work/home" CTX_HOME="$work/store-$side"
			bin=$work/ctx-$side
			case $step in
			import) rm -rf "$work/scratch" && CTX_HOME="$work/scratch" cpu "$bin" import ;;
			search) cpu "$bin" search "go test" --limit 20 ;;
			show) cpu "$bin" show session "$id" --mode log ;;
			status) cpu "$bin" status --repo "$repo" ;;
			blame) (cd "$repo" && cpu "$bin" blame README.md) ;;
			esac >>"$work/$side.$step"
		done
	done
	a=$(median <"$work/base.$step") b=$(median <"$work/head.$step")
	awk -v s="$step" -v a="$a" -v b="$b" 'BEGIN { printf "%-20s %12d %12d %10.2f\n", "ctx " s, a, b, (a ? b / a : 0) }'
done
