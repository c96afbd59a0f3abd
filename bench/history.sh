#!/usr/bin/env bash
# bench/history.sh [RUNS...] — do reads stay fast as the history grows? For
# each RUNS (default: 1000 1000000) a fresh store is filled through SQL (not
# the API: a million runs in a minute or two) with finished runs of every
# experiment on two devices — mostly done; what a filter looks for is rare:
# one in 10,000 failed, one in 1,000 cancelled, one in 5,000 a minplus run,
# one in 1,000 labelled "needle", five queued — the newest done one with 20
# results; then a server on it answers each read the dashboard, a script or
# Prometheus makes, one request at a time, REPEAT times (default 20). Prints
# the median and p99 (of 20: the slowest) in ms per read, and the store's size.
# BIN (default build) picks the binaries. STORE=postgres fills a schema of a
# PostgreSQL server instead: PG (a libpq URI) names one, or the script starts
# its own with tests/postgres.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(1000 1000000)
repeat=${REPEAT:-20}
bin=${BIN:-build}
store=${STORE:-sqlite}

# The SQL both engines run: a runner, two devices, $1 runs and 20 results.
# $2 is a function printing the engine's spelling of "2026-01-01 plus ARG
# seconds" as the store's time text; $3 and $4 what comes before the runs'
# INSERT and after its SELECT to count i from 1 to $1 (and j to 20 with "k").
history_sql() {
	local n=$1 at=$2
	cat <<SQL
INSERT INTO runners (id, host, pid, version, started_at, last_seen, stopped_at)
  VALUES (1, 'bench', 1, 'bench', '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z');
INSERT INTO devices (id, runner_id, ordinal, type, info) VALUES
  ('gpu-0', 1, 0, 'gpu', '{"id":"gpu-0","type":"gpu","name":"Bench GPU"}'),
  ('cpu-0', 1, 1, 'cpu', '{"id":"cpu-0","type":"cpu","name":"Bench CPU"}');
$3
INSERT INTO runs (id, experiment, label, status, request, device_req, device_id, total, done,
                  created_at, started_at, finished_at, error, attempts, change_seq)
SELECT i,
  CASE WHEN i % 5000 = 0 THEN 'minplus' ELSE CASE i % 8 WHEN 0 THEN 'copy' WHEN 1 THEN 'transpose'
    WHEN 2 THEN 'strided' WHEN 3 THEN 'offset' WHEN 4 THEN 'reduction' WHEN 5 THEN 'dot' WHEN 6 THEN 'myadd'
    ELSE 'banks' END END,
  CASE WHEN i % 1000 = 0 THEN 'needle ' || i ELSE 'run ' || i END,
  CASE WHEN i > $n - 5 THEN 'queued' WHEN i % 1000 = 3 THEN 'cancelled' WHEN i % 10000 = 7 THEN 'failed' ELSE 'done' END,
  '{"experiment":"copy","params":{"n":1024},"repeat":1,"seed":1}', 'auto',
  CASE i % 2 WHEN 0 THEN 'gpu-0' ELSE 'cpu-0' END, 20, CASE WHEN i > $n - 5 THEN 0 ELSE 20 END,
  $($at i),
  CASE WHEN i > $n - 5 THEN NULL ELSE $($at i) END,
  CASE WHEN i > $n - 5 THEN NULL ELSE $($at "(i + 1)") END,
  CASE WHEN i % 10000 = 7 THEN 'bench failure' END, 1, i
$4;
INSERT INTO results (run_id, seq, variant, params, median_ms, min_ms, max_ms, reps, bytes, verified)
SELECT $n - 5, j, 'float', '{"n":' || (1024 * j) || ',"local":256}', 0.01 * j, 0.009 * j, 0.011 * j, 10, 8192.0 * j, 1
$5;
-- The totals the store's triggers keep as runs change (migration 7), counted
-- once for runs inserted finished (every run here took 1 s).
DELETE FROM run_counts; DELETE FROM run_durations;
INSERT INTO run_counts SELECT status, count(*) FROM runs GROUP BY status;
INSERT INTO run_durations SELECT 0, count(*), count(*) FROM runs WHERE status = 'done';
SQL
}

at_sqlite() { echo "strftime('%Y-%m-%dT%H:%M:%fZ', '2026-01-01', '+' || $1 || ' seconds')"; }
at_postgres() { echo "to_char(timestamp '2026-01-01' + $1 * interval '1 second', 'YYYY-MM-DD\"T\"HH24:MI:SS.MS\"Z\"')"; }

fill_sqlite() {	# $1 store, $2 runs
	{
		echo "PRAGMA journal_mode = WAL; PRAGMA synchronous = OFF; BEGIN;"
		history_sql "$2" at_sqlite "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < $2)" \
			"FROM n" "FROM (WITH RECURSIVE k(j) AS (SELECT 1 UNION ALL SELECT j + 1 FROM k WHERE j < 20) SELECT j FROM k)"
		echo "COMMIT;"
	} | sqlite3 "$1"
}

fill_postgres() {	# $1 store, $2 runs
	{
		# As warplab-store import does: the triggers neither count nor announce.
		echo "BEGIN; SET LOCAL warplab.importing = 'on';"
		history_sql "$2" at_postgres "" "FROM generate_series(1, $2) AS i" "FROM generate_series(1, 20) AS j"
		echo "SELECT setval(pg_get_serial_sequence('runs', 'id'), $2 + 1, false); COMMIT; ANALYZE;"
	} | psql "$1" -q -v ON_ERROR_STOP=1
}

. bench/store.sh
trap bench_store_stop EXIT

size_mb() {
	if [ "$store" = postgres ]; then
		psql "$PG" -At -c "SELECT round(sum(pg_total_relation_size(c.oid)) / 1048576.0) FROM pg_class c
			JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = '$BENCH_SCHEMA' AND c.relkind IN ('r', 'm')"
	else
		du -m "$DB" | cut -f1
	fi
}

measure() {	# $1 base URL, $2 name, $3 path: "name | median | p99"
	local t
	t=$(for _ in $(seq "$repeat"); do
		curl -s -o /dev/null -w '%{time_total}\n' -H 'Accept: application/json' "$1$3"
	done | sort -n)
	awk -v name="$2" -v n="$repeat" '{ v[NR] = $1 * 1000 } END {
		printf "| %s | %.1f | %.1f |\n", name, v[int((n + 1) / 2)], v[int(n * 0.99 + 0.999)] }' <<< "$t"
}

for size in "${sizes[@]}"; do
	work=$(mktemp -d /tmp/warplab-history.XXXXXX)
	bench_store "$work" "bench_$size"
	db=$DB
	"$bin"/warplab-server --listen 127.0.0.1:0 --db "$db" --www www --catalog kernels/catalog.json 2> "$work/server.log" &
	server=$!
	for _ in $(seq 100); do grep -q '(port [0-9]*)' "$work/server.log" && break; sleep 0.1; done
	kill "$server"; wait "$server" 2>/dev/null || true
	start=$(date +%s)
	if [ "$store" = postgres ]; then fill_postgres "$db" "$size" > /dev/null; else fill_sqlite "$db" "$size" > /dev/null; fi
	filled=$(( $(date +%s) - start ))
	"$bin"/warplab-server --listen 127.0.0.1:0 --db "$db" --www www --catalog kernels/catalog.json 2> "$work/server.log" &
	server=$!
	for _ in $(seq 100); do grep -q '(port [0-9]*)' "$work/server.log" && break; sleep 0.1; done
	base="http://127.0.0.1:$(grep -o '(port [0-9]*)' "$work/server.log" | grep -o '[0-9]*')"
	echo
	echo "$store: $size runs of history ($(size_mb) MB, filled in ${filled} s), $repeat requests each, one at a time:"
	echo
	echo "| read | median ms | p99 ms |"
	echo "|---|---|---|"
	measure "$base" "GET /api/runs?limit=50" "/api/runs?limit=50"
	measure "$base" "GET /api/runs?status=queued" "/api/runs?status=queued"
	measure "$base" "GET /api/runs?status=failed" "/api/runs?status=failed"
	measure "$base" "GET /api/runs?experiment=minplus" "/api/runs?experiment=minplus"
	measure "$base" "GET /api/runs?device=gpu-0" "/api/runs?device=gpu-0"
	measure "$base" "GET /api/runs?label=needle (1 run in 1000)" "/api/runs?label=needle"
	measure "$base" "GET /api/runs?label=needle $((size / 2)) (1 run)" "/api/runs?label=needle%20$((size / 2))"
	measure "$base" "GET /api/runs?before=(half)&limit=50" "/api/runs?before=$((size / 2))&limit=50"
	measure "$base" "GET /api/runs/{id} (20 results)" "/api/runs/$((size - 5))"
	measure "$base" "GET /metrics" "/metrics"
	measure "$base" "GET /api/health" "/api/health"
	kill "$server"; wait "$server" 2>/dev/null || true
	rm -rf "$work"
done
