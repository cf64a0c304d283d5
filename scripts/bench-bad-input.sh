#!/usr/bin/env bash
# The import issue's bad inputs, each one Claude Code session imported into
# an empty store (CTX_DAEMON=off), then searched:
#   repeat:  100,000 records carrying the same 1 KB tool output, each with
#            one word of its own
#   unique:  100,000 records with no word in common
#   long:    one session of 500,000 small records
#   codex:   the same long session as a Codex rollout
# For each: CPU per event, peak RSS, store against the raw history, and two
# answers checked: a word of one record finds that record first, and a word
# every record holds is reported with its count (a lower bound when the
# search did not read every group). A wrong answer exits 1. For long, the
# daemon then runs on the store (for long and codex): six records are appended one at a time,
# and each is timed from its write until `ctx search` returns it (the first
# pass after the daemon starts parses the session whole; the next ones go
# on with its parse held open).
#
# Usage: scripts/bench-bad-input.sh [repeat|unique|long|codex]...  (default: all)
set -euo pipefail
export CTX_DAEMON=off
cd "$(dirname "$0")/.."
go build -o bin/ctx ./cmd/ctx && go build -o bin/ctx-core ./cmd/ctx-core
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
sid=0d0d0d0d-1111-2222-3333-444444444444

# history KIND FILE writes the session's JSONL. Record i holds the word
# mark<i>q, which no other record holds.
history() {
	awk -v kind="$1" -v sid="$sid" 'BEGIN {
		srand(7)
		n = (kind == "long") ? 500000 : 100000
		out = ""
		for (k = 0; k < 12; k++) out = out "--- FAIL: TestParseConfig/case_" k " (0.01s) config_test.go:42: unexpected zebrafish token\\n"
		if (kind == "codex") {
			printf "{\"timestamp\":\"2026-03-01T00:00:00Z\",\"type\":\"session_meta\",\"payload\":{\"id\":\"%s\",\"cwd\":\"/w\",\"timestamp\":\"2026-03-01T00:00:00Z\"}}\n", sid
			for (i = 0; i < 500000; i++)
				printf "{\"timestamp\":\"2026-03-01T%02d:%02d:%02dZ\",\"type\":\"response_item\",\"payload\":{\"type\":\"message\",\"role\":\"user\",\"content\":[{\"type\":\"input_text\",\"text\":\"mark%dq zebrafish step %d of the long session\"}]}}\n",
					int(i / 3600) % 24, int(i / 60) % 60, i % 60, i, i % 97
			exit
		}
		for (i = 0; i < n; i++) {
			if (kind == "repeat") text = out "mark" i "q"
			else if (kind == "unique") text = sprintf("mark%dq zebrafish w%x%x v%x", i, int(rand() * 2^30), i, int(rand() * 2^30))
			else text = sprintf("mark%dq zebrafish step %d of the long session", i, i % 97)
			printf "{\"type\":\"user\",\"uuid\":\"u%d\",\"sessionId\":\"%s\",\"timestamp\":\"2026-03-01T%02d:%02d:%02dZ\",%s\"message\":{\"role\":\"user\",\"content\":\"%s\"}}\n",
				i, sid, int(i / 3600) % 24, int(i / 60) % 60, i % 60, (i == 0) ? "\"cwd\":\"/w\"," : "", text
		}
	}' >"$2"
}

json() { python3 -c "import json,sys; d=json.load(sys.stdin); print($1)"; }

# fresh HOME STORE appends records to the session under a running daemon
# and prints, for each, the milliseconds from its write until ctx search
# returns it.
fresh() {
	local d=(env -i PATH="$PATH" HOME="$1" CTX_HOME="$2" ./bin/ctx) file times=""
	file=$(transcript "$3" "$1")
	"${d[@]}" daemon start >/dev/null
	for k in 1 2 3 4 5 6; do
		sleep 1
		local tok="fresh${k}x$RANDOM" t0 t1
		t0=$(date +%s%N)
		if [ "$3" = codex ]; then
			printf '{"timestamp":"2026-03-02T00:00:0%sZ","type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"%s appended"}]}}\n' \
				"$k" "$tok" >>"$file"
		else
			printf '{"type":"user","uuid":"f%s","sessionId":"%s","timestamp":"2026-03-02T00:00:0%sZ","message":{"role":"user","content":"%s appended"}}\n' \
				"$tok" "$sid" "$k" "$tok" >>"$file"
		fi
		until "${d[@]}" search "$tok" --format json 2>/dev/null | grep -q "$tok"; do sleep 0.02; done
		t1=$(date +%s%N)
		times="$times $(((t1 - t0) / 1000000))"
	done
	"${d[@]}" daemon stop >/dev/null
	echo "  append -> found by ctx search under the daemon (ms):$times"
}

# transcript KIND HOME prints the path of the session's file.
transcript() {
	if [ "$1" = codex ]; then
		echo "$2/.codex/sessions/2026/03/01/rollout-2026-03-01T00-00-00-$sid.jsonl"
	else
		echo "$2/.claude/projects/-w/$sid.jsonl"
	fi
}

fail=0
for kind in ${@:-repeat unique long codex}; do
	home="$work/$kind/home" store="$work/$kind/store" file=$(transcript "$kind" "$work/$kind/home")
	mkdir -p "$(dirname "$file")"
	history "$kind" "$file"
	raw=$(stat -c %s "$file")
	run() { env -i PATH="$PATH" HOME="$home" CTX_HOME="$store" CTX_DAEMON=off ./bin/ctx "$@"; }
	/usr/bin/time -f '%U %S %M' -o "$work/$kind.time" \
		env -i PATH="$PATH" HOME="$home" CTX_HOME="$store" CTX_DAEMON=off ./bin/ctx import --format json >"$work/$kind.json"
	read -r user sys rss <"$work/$kind.time"
	n=$(json "d['events_read']" <"$work/$kind.json")
	size=$(du -sb "$store" | cut -f1)
	parts=$(for d in objects index vectors; do du -sb "$store/$d" 2>/dev/null | awk -v d="$d" '{printf "%s %.1f MB  ", d, $1 / 1e6}'; done)
	awk -v k="$kind" -v n="$n" -v u="$user" -v s="$sys" -v rss="$rss" -v raw="$raw" -v size="$size" 'BEGIN {
		printf "%-6s %7d events, raw %6.1f MB: %4.0f CPU-µs/event, peak %4d MiB, store %5.1f%% of raw\n",
			k, n, raw / 1e6, (u + s) * 1e6 / n, rss / 1024, size * 100 / raw }'
	echo "  $parts"
	last=$((n - 1))
	[ "$kind" = codex ] && last=$((n - 2)) # its first event is the session_meta record
	for i in 0 $((n / 2)) "$last"; do
		first=$(run search "mark${i}q" --limit 1 --format json | json "d['results'][0]['snippet'] if d['results'] else ''")
		case "$first" in
		*"mark${i}q"*) ;;
		*) echo "  mark${i}q: the record holding it is not first (got: ${first:0:80})"; fail=1 ;;
		esac
	done
	run search zebrafish --limit 10 --format json |
		json "'  zebrafish: %d results, total_matches %d (%s)' % (len(d['results']), d['metadata']['total_matches'], d['metadata']['total_relation'])"
	case "$kind" in long | codex) fresh "$home" "$store" "$kind" ;; esac
done
echo "load: $(cut -d' ' -f1-3 /proc/loadavg)"
exit $fail
