#!/usr/bin/env bash
# bench/predict-cost.sh — what the predictions cost a read: a runner on PoCL
# measures a banks run of 256 results (c = 1..64, four variants; every result's
# prediction simulates its group over 1024 loop iterations, the most the
# catalog's runs ask of the model) and a transpose run; then a server with no
# response cache (--response-cache 0, so every read derives the run afresh)
# answers GET /api/runs/{id} and the CSV REPEAT times each (default 50), one at
# a time. Prints the median and the slowest in ms. BIN (default build) picks
# the binaries and KERNELS (default kernels) the catalog: run it once with a
# build and catalog from before the model for the "before".
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${BIN:-build}
kernels=${KERNELS:-kernels}
repeat=${REPEAT:-50}
work=$(mktemp -d /tmp/warplab-predict.XXXXXX)
"$bin/warplab-runner" --db "$work/db" --kernels "$kernels" --devices cpu 2> "$work/runner.log" &
runner=$!
"$bin/warplab-server" --listen 127.0.0.1:0 --db "$work/db" --www www --catalog "$kernels/catalog.json" \
	--response-cache 0 2> "$work/server.log" &
server=$!
trap 'kill $runner $server 2>/dev/null; wait 2>/dev/null; rm -rf "$work"' EXIT
until grep -q '(port [0-9]*)' "$work/server.log" 2>/dev/null; do sleep 0.1; done
base="http://127.0.0.1:$(grep -o '(port [0-9]*)' "$work/server.log" | grep -o '[0-9]*')"
queue() { curl -sf -X POST "$base/api/runs" -H 'Content-Type: application/json' -d "$1" | python3 -c 'import json,sys; print(json.load(sys.stdin)["id"])'; }
banks=$(queue '{"experiment":"banks","params":{"c":{"from":1,"to":64,"step":1},"local":32,"groups":1,"iters":1024},"repeat":1}')
transpose=$(queue '{"experiment":"transpose","params":{"n":{"from":64,"to":512,"step":64}},"repeat":1}')
for id in "$banks" "$transpose"; do
	until curl -sf "$base/api/runs/$id" | grep -q '"status":"done"'; do
		kill -0 $runner || { cat "$work/runner.log"; exit 1; }
		sleep 0.5
	done
done
for path in "/api/runs/$banks" "/api/runs/$banks/results.csv" "/api/runs/$transpose"; do
	for _ in $(seq "$repeat"); do curl -s -o /dev/null -w '%{time_total}\n' "$base$path"; done |
		sort -n | awk -v p="$path" '{ t[NR] = $1 * 1000 } END { printf "%-32s median %.2f ms, slowest %.2f ms (%d reads)\n", p, t[int((NR + 1) / 2)], t[NR], NR }'
done
