#!/usr/bin/env bash
# Peak memory of `ctx import` against the size of what it reads (issue 15's
# target: at most 4x the largest record plus a constant). Three histories of
# one Claude Code session each, imported into empty stores:
#   tiny:  3 small lines (the constant: what an import costs at all)
#   big:   one 30 MB message between two small ones
#   lines: 1,000,000 small lines (about 175 MB; CTX_MEM_LINES=N for N of them)
#
# Usage: scripts/bench-import-memory.sh [tiny|big|lines]...  (default: all)
set -euo pipefail
export CTX_DAEMON=off
cd "$(dirname "$0")/.."
go build -o bin/ctx ./cmd/ctx && go build -o bin/ctx-core ./cmd/ctx-core
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
sid=0b0b0b0b-1111-2222-3333-444444444444

# history KIND FILE writes the session's JSONL.
history() {
  awk -v kind="$1" -v sid="$sid" -v lines="${CTX_MEM_LINES:-1000000}" 'BEGIN {
    srand(1); split("alpha beta gamma delta widget flaky parser buffer thread index query token", w, " ")
    n = (kind == "lines") ? lines : 3
    for (i = 0; i < n; i++) {
      printf "{\"type\":\"user\",\"uuid\":\"x%d\",\"sessionId\":\"%s\",\"timestamp\":\"2026-03-01T%02d:%02d:%02dZ\",%s\"message\":{\"role\":\"user\",\"content\":\"",
        i, sid, int(i/3600)%24, int(i/60)%60, i%60, (i == 0) ? "\"cwd\":\"/w\"," : ""
      if (kind == "big" && i == 1) { # 30 MB of words, written as they are drawn
        for (m = 0; m < 30 * 1024 * 1024; m += length(x) + 1) { x = w[int(rand()*12)+1] int(rand()*100000); printf "%s ", x }
      } else {
        printf "%s%d %s%d", w[int(rand()*12)+1], int(rand()*1000), w[int(rand()*12)+1], int(rand()*1000)
      }
      printf "\"}}\n"
    }
  }' >"$2"
}

for kind in "${@:-tiny big lines}"; do
  for k in $kind; do
    home="$work/$k/home" store="$work/$k/store"
    mkdir -p "$home/.claude/projects/-w"
    history "$k" "$home/.claude/projects/-w/$sid.jsonl"
    size=$(stat -c %s "$home/.claude/projects/-w/$sid.jsonl")
    env -i PATH="$PATH" HOME="$home" CTX_HOME="$store" CTX_DAEMON=off \
      /usr/bin/time -v ./bin/ctx import >/dev/null 2>"$work/$k.time"
    rss=$(awk -F': ' '/Maximum resident/ {print $2}' "$work/$k.time")
    wall=$(awk -F': ' '/Elapsed/ {print $2}' "$work/$k.time")
    printf '%-6s input %6.1f MB  peak RSS %7.1f MiB  wall %s\n' "$k" "$(echo "$size / 1000000" | bc -l)" \
      "$(echo "$rss / 1024" | bc -l)" "$wall"
  done
done
echo "load: $(uptime | sed 's/.*load average: //')"
