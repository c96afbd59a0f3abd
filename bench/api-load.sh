#!/usr/bin/env bash
# bench/api-load.sh — load on the API, on loopback, while the runner works.
# Starts a server (with a token file) and a runner on a fresh store with some
# history, keeps the runner busy, then runs wrk against GET /api/runs/{id},
# GET /api/runs and POST /api/runs (with the token) for DURATION seconds each,
# and reports requests/s, p99 latency and errors for each, and how many runs the
# runner finished meanwhile. Then, with the runner stopped, a finished run side
# by side with nginx serving its byte-identical JSON as a file: server (or
# nginx) pinned to CPU 0, wrk -t1 -c32 pinned to CPU 1, ROUNDS alternations of
# ROUND_S seconds each, for GET /api/runs/{id} and GET /runs/{id} as JSON;
# medians of the rounds. Results go to $OUT (default bench/out/load.md).
#   DURATION     seconds per endpoint (default 20)
#   CONNECTIONS  open connections (default 32)
#   HISTORY      runs already in the store before the load (default 2000)
#   ROUNDS       side-by-side rounds with nginx (default 3; 0 skips them)
#   ROUND_S      seconds per round and side (default 10)
#   STORE        sqlite (default) or postgres (bench/store.sh)
set -euo pipefail
cd "$(dirname "$0")/.."
{ command -v wrk && command -v nginx; } >/dev/null || ./deploy/install-deps.sh --bench
duration=${DURATION:-20}
connections=${CONNECTIONS:-32}
history=${HISTORY:-2000}
out=${OUT:-bench/out}
build=${BUILD:-build}
mkdir -p "$out"
work=$(mktemp -d /tmp/warplab-load.XXXXXX)
token=$(head -c 18 /dev/urandom | base64 | tr -d '/+=')
echo "$token" > "$work/tokens"
. bench/store.sh
bench_store "$work"

"$build/warplab-server" --listen 127.0.0.1:0 --db "$DB" --token-file "$work/tokens" \
	--queue-limit 1000000 2> "$work/server.log" &
server=$!
trap 'kill $server ${runner:-} 2>/dev/null; wait 2>/dev/null; bench_store_stop; rm -rf "$work"' EXIT
for _ in $(seq 50); do grep -q '(port [0-9]*)' "$work/server.log" && break; sleep 0.1; done
port=$(grep -o '(port [0-9]*)' "$work/server.log" | grep -o '[0-9]*')
base="http://127.0.0.1:$port"
post() {
	curl -sf -X POST -H 'Content-Type: application/json' -H "Authorization: Bearer $token" -d "$1" "$base/api/runs"
}

# History: a finished transpose sweep to read back, and many queued runs that
# are cancelled so the list has depth.
"$build/warplab-runner" --db "$DB" --devices cpu 2> "$work/runner.log" &
runner=$!
id=$(post '{"experiment":"transpose","params":{"n":{"from":256,"to":1024,"step":256}},"repeat":3}' | sed 's/.*"id":\([0-9]*\).*/\1/')
until curl -sf "$base/api/runs/$id" | grep -q '"status":"done"'; do sleep 0.2; done
kill $runner; wait $runner 2>/dev/null || true
for _ in $(seq "$history"); do post '{"experiment":"copy","params":{"n":1024},"repeat":1}' > /dev/null; done
bench_sql "UPDATE runs SET status = 'cancelled' WHERE status = 'queued'"
# A busy runner: a queue of real work to chew on during the whole load.
"$build/warplab-runner" --db "$DB" --devices cpu 2>> "$work/runner.log" &
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
	echo "The runner finished $((done_after - done_before)) runs during the load; runs in the store at the end: $(bench_sql 'SELECT count(*) FROM runs')."
} >> "$report"

# Side by side with nginx, which serves the finished run's exact bytes.
rounds=${ROUNDS:-3}
round_s=${ROUND_S:-10}
if [ "$rounds" -gt 0 ] && command -v nginx >/dev/null && command -v taskset >/dev/null; then
	kill $runner 2>/dev/null; wait $runner 2>/dev/null || true
	mkdir -p "$work/nginx/www" "$work/nginx/tmp"
	curl -sf -H 'Accept-Encoding: identity' "$base/api/runs/$id" > "$work/nginx/www/run.json"
	# nginx's worker drops to an unprivileged user when started as root.
	chmod 711 "$work"
	chmod -R a+rX "$work/nginx/www"
	nport=$((port + 1))
	cat > "$work/nginx/nginx.conf" <<-EOF
	worker_processes 1;
	daemon off;
	pid $work/nginx/nginx.pid;
	error_log $work/nginx/error.log;
	events { worker_connections 1024; }
	http {
		access_log off;
		sendfile on;
		keepalive_requests 1000000;
		client_body_temp_path $work/nginx/tmp;
		proxy_temp_path $work/nginx/tmp;
		fastcgi_temp_path $work/nginx/tmp;
		uwsgi_temp_path $work/nginx/tmp;
		scgi_temp_path $work/nginx/tmp;
		types { application/json json; }
		server { listen 127.0.0.1:$nport; root $work/nginx/www; }
	}
	EOF
	taskset -c 0 nginx -p "$work/nginx" -c "$work/nginx/nginx.conf" 2> "$work/nginx/stderr" &
	nginx=$!
	trap 'kill $server ${runner:-} ${nginx:-} 2>/dev/null; wait 2>/dev/null; rm -rf "$work"' EXIT
	taskset -a -p -c 0 $server > /dev/null
	for _ in $(seq 50); do curl -sf "http://127.0.0.1:$nport/run.json" > /dev/null && break; sleep 0.1; done
	cmp <(curl -sf "http://127.0.0.1:$nport/run.json") <(curl -sf -H 'Accept-Encoding: identity' "$base/api/runs/$id")
	side() {	# name url [wrk args]: one round, "rps p99"
		taskset -c 1 wrk -t1 -c32 -d"${round_s}s" --latency "${@:2}" > "$work/side.txt" 2>&1 || true
		cat "$work/side.txt" >> "$out/wrk-raw.txt"
		echo "$(awk '/Requests\/sec/ {print $2}' "$work/side.txt") $(awk '$1 == "99%" {print $2}' "$work/side.txt") $(awk '/Non-2xx/ {print $NF}' "$work/side.txt")"
	}
	: > "$work/rounds.txt"
	for r in $(seq "$rounds"); do
		echo "api $(side api "$base/api/runs/$id")" >> "$work/rounds.txt"
		echo "short $(side short -H 'Accept: application/json' "$base/runs/$id")" >> "$work/rounds.txt"
		echo "nginx $(side nginx "http://127.0.0.1:$nport/run.json")" >> "$work/rounds.txt"
	done
	median() { awk -v k="$1" '$1 == k {print $2}' "$work/rounds.txt" | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
	p99s() { awk -v k="$1" '$1 == k {printf "%s%s", sep, $3; sep=", "}' "$work/rounds.txt"; }
	n=$(median nginx)
	{
		echo
		echo "Side by side with nginx $(nginx -v 2>&1 | sed 's/.*nginx\///'), the finished run's $(wc -c < "$work/nginx/www/run.json") bytes; server or nginx on CPU 0, wrk -t1 -c32 on CPU 1; $rounds rounds of ${round_s}s each, median requests/s (p99 of each round):"
		echo
		echo "| endpoint | requests/s | of nginx | p99 |"
		echo "|---|---|---|---|"
		for k in api short nginx; do
			name=$([ $k = api ] && echo "warplab GET /api/runs/$id" || ([ $k = short ] && echo "warplab GET /runs/$id (Accept: application/json)" || echo "nginx, the same bytes as a file"))
			m=$(median $k)
			echo "| $name | $m | $(awk -v a="$m" -v b="$n" 'BEGIN {printf "%.0f%%", 100 * a / b}') | $(p99s $k) |"
		done
	} >> "$report"
fi
cat "$report"
