#!/usr/bin/env bash
# Instructions executed by whole ctx processes, counted by callgrind, for
# two revisions side by side: a figure that does not move with the
# machine's load. It builds ctx at BASE and at HEAD (git worktrees), builds
# one generated corpus, and counts, for each binary: the first import, a
# lexical search, show session, status and blame of a file.
# Usage: scripts/compare-instructions.sh BASE [HEAD] [EVENTS] (HEAD: the
# working tree's HEAD, EVENTS: 2000).
set -euo pipefail
export CTX_DAEMON=off
cd "$(dirname "$0")/.."
base=$1 head=${2:-HEAD} events=${3:-2000}
work=$(mktemp -d)
trap 'git worktree remove --force "$work/src-base" >/dev/null 2>&1; git worktree remove --force "$work/src-head" >/dev/null 2>&1; rm -rf "$work"' EXIT
for side in base head; do
	rev=$base; [ "$side" = head ] && rev=$head
	git worktree add --detach -q "$work/src-$side" "$rev"
	(cd "$work/src-$side" && go build -o "$work/ctx-$side" ./cmd/ctx)
done
go build -o "$work/ctx-corpus" ./cmd/ctx-corpus
"$work/ctx-corpus" -home "$work/home" -events "$events" >/dev/null
count() { # label binary args...: prints the instruction count
	local out=$work/cg.$RANDOM
	valgrind --tool=callgrind --callgrind-out-file="$out" --trace-children=no "${@:2}" >/dev/null 2>&1 || true
	awk '/^summary:/ {print $2}' "$out"
	rm -f "$out"
}
repo=$work/repo
git init -q "$repo" && cp README.md "$repo/" && git -C "$repo" add . &&
	git -C "$repo" -c user.name=bench -c user.email=bench@example.invalid commit -qm bench
printf '%-28s %16s %16s %8s\n' "process" "base" "head" "head/base"
for step in import search show status blame; do
	row=()
	for side in base head; do
		export HOME="$work/home" CTX_HOME="$work/store-$side"
		bin=$work/ctx-$side
		case $step in
		import) n=$(count "$step" "$bin" import) ;;
		search) n=$(count "$step" "$bin" search "go test" --limit 20) ;;
		show)
			id=$("$bin" search "go test" --format json --limit 1 | grep -o 'ses_[0-9a-f]\{32\}' | head -1)
			n=$(count "$step" "$bin" show session "$id" --mode log) ;;
		status) n=$(count "$step" "$bin" status --repo "$repo") ;;
		blame) n=$(cd "$repo" && count "$step" "$bin" blame README.md) ;;
		esac
		row+=("$n")
	done
	awk -v s="$step" -v a="${row[0]}" -v b="${row[1]}" 'BEGIN { printf "%-28s %16d %16d %8.3f\n", "ctx " s, a, b, b / a }'
done
