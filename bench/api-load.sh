#!/usr/bin/env bash
# bench/api-load.sh — load on the API, on loopback, while the runner works.
# Starts a server (with a token file) and a runner on a fresh store with some
# history, keeps the runner busy, then runs wrk against GET /api/runs/{id},
# GET /api/runs and POST /api/runs (with the token) for DURATION seconds each,
# and reports requests/s, p99 latency and errors for each, and how many runs the
# runner finished meanwhile. Results go to $OUT (default bench/out/load.md).
#   DURATION     seconds per endpoint (default 20)
#   CONNECTIONS  open connections (default 32)
#   HISTORY      runs already in the store before the load (default 2000)
set -euo pipefail
cd "$(dirname "$0")/.."
command -v wrk >/dev/null || ./deploy/install-deps.sh --bench
duration=${DURATION:-20}
connections=${CONNECTIONS:-32}
history=${HISTORY:-2000}
out=${OUT:-bench/out}
build=${BUILD:-build}
mkdir -p "$out"
work=$(mktemp -d /tmp/warplab-load.XXXXXX)
token=$(head -c 18 /dev/urandom | base64 | tr -d '/+=')
echo "$token" > "$work/tokens"

"$build/warplab-server" --listen 127.0.0.1:0 --db "$work/warplab.db" --token-file "$work/tokens" \
	--queue-limit 1000000 2> "$work/server.log" &
server=$!
trap 'kill $server ${runner:-} 2>/dev/null; wait 2>/dev/null; rm -rf "$work"' EXIT
for _ in $(seq 50); do grep -q '(port [0-9]*)' "$work/server.log" && break; sleep 0.1; done
port=$(grep -o '(port [0-9]*)' "$work/server.log" | grep -o '[0-9]*')
base="http://127.0.0.1:$port"
post() {
	curl -sf -X POST -H 'Content-Type: application/json' -H "Authorization: Bearer $token" -d "$1" "$base/api/runs"
}

# History: a finished transpose sweep to read back, and many queued runs that
# are cancelled so the list has depth.
"$build/warplab-runner" --db "$work/warplab.db" --devices cpu 2> "$work/runner.log" &
runner=$!
id=$(post '{"experiment":"transpose","params":{"n":{"from":256,"to":1024,"step":256}},"repeat":3}' | sed 's/.*"id":\([0-9]*\).*/\1/')
until curl -sf "$base/api/runs/$id" | grep -q '"status":"done"'; do sleep 0.2; done
kill $runner; wait $runner 2>/dev/null || true
for _ in $(seq "$history"); do post '{"experiment":"copy","params":{"n":1024},"repeat":1}' > /dev/null; done
sqlite3 "$work/warplab.db" "UPDATE runs SET status = 'cancelled' WHERE status = 'queued'"
# A busy runner: a queue of real work to chew on during the whole load.
"$build/warplab-runner" --db "$work/warplab.db" --devices cpu 2>> "$work/runner.log" &
runner=$!
for _ in $(seq 200); do post '{"experiment":"transpose","params":{"n":512},"repeat":5}' > /dev/null; done
done_before=$(curl -sf "$base/api/health" | sed 's/.*"done":\([0-9]*\).*/\1/')

report="$out/load.md"
{
	echo "# API load, $(date -u +%Y-%m-%dT%H:%M:%SZ)"
	echo
	echo "$(nproc) CPUs; wrk, 2 threads, $connections connections, ${duration}s per endpoint; $history runs of history; the runner executing transpose runs throughout."
	echo
	echo "| endpoint | requests/s | p50 | p99 | errors |"
	echo "|---|---|---|---|---|"
} > "$report"
run_wrk() {
	local name=$1
	shift
	wrk -t2 -c"$connections" -d"${duration}s" --latency "$@" > "$work/wrk.txt" 2>&1 || true
	cat "$work/wrk.txt" >> "$out/wrk-raw.txt"
	local rps p50 p99 errors non2xx
	rps=$(awk '/Requests\/sec/ {print $2}' "$work/wrk.txt")
	p50=$(awk '$1 == "50%" {print $2}' "$work/wrk.txt")
	p99=$(awk '$1 == "99%" {print $2}' "$work/wrk.txt")
	errors=$(awk '/Socket errors/ {print $0}' "$work/wrk.txt" | sed 's/ *Socket errors: //')
	non2xx=$(awk '/Non-2xx/ {print $NF}' "$work/wrk.txt")
	echo "| $name | $rps | $p50 | $p99 | ${non2xx:-0} non-2xx${errors:+; $errors} |" >> "$report"
}
: > "$out/wrk-raw.txt"
run_wrk "GET /api/runs/$id (20 results)" "$base/api/runs/$id"
run_wrk "GET /api/runs (50 of $((history + 201)))" "$base/api/runs"
WARPLAB_TOKEN=$token run_wrk "POST /api/runs (token)" -s bench/wrk-post.lua "$base/api/runs"
done_after=$(curl -sf "$base/api/health" | sed 's/.*"done":\([0-9]*\).*/\1/')
{
	echo
	echo "The runner finished $((done_after - done_before)) runs during the load; runs in the store at the end: $(sqlite3 "$work/warplab.db" 'SELECT count(*) FROM runs')."
} >> "$report"
cat "$report"
