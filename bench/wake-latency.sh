#!/usr/bin/env bash
# bench/wake-latency.sh [RUNS] — how soon an idle runner starts a queued run:
# a server and a runner (polling only every 5 s, so only a wake-up can start a
# run sooner) on a fresh store; RUNS tiny runs posted one at a time to the idle
# runner; the delay from each run's created_at to its started_at (both stamped
# by the store, in ms). Prints the median, 90th percentile and maximum.
# BIN (default build) picks other binaries, POLL_MS (default 5000) the poll,
# DEVICES (default cpu) the runner's devices ("gpu" on the lent GPU machine,
# with LD_LIBRARY_PATH naming the libraries bench/gpu.sh unpacks), STORE
# (sqlite or postgres, see bench/store.sh) the store: on PostgreSQL the runner
# is woken by the database's NOTIFY.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-30}
work=$(mktemp -d /tmp/warplab-wake.XXXXXX)
. bench/store.sh
bench_store "$work"
"${BIN:-build}"/warplab-runner --db "$DB" --kernels kernels --poll-ms "${POLL_MS:-5000}" --devices "${DEVICES:-cpu}" 2> "$work/runner.log" &
runner=$!
"${BIN:-build}"/warplab-server --listen 127.0.0.1:0 --db "$DB" --www www --catalog kernels/catalog.json 2> "$work/server.log" &
server=$!
trap 'kill $runner $server 2>/dev/null; wait 2>/dev/null; bench_store_stop; rm -rf "$work"' EXIT
for _ in $(seq 200); do
	grep -q '(port [0-9]*)' "$work/server.log" 2>/dev/null && grep -q 'ready' "$work/runner.log" 2>/dev/null && break
	sleep 0.1
done
port=$(grep -o '(port [0-9]*)' "$work/server.log" | grep -o '[0-9]*')
python3 - "http://127.0.0.1:$port" "$runs" "${POLL_MS:-5000}" <<'PY'
import json, random, statistics, sys, time, urllib.request
from datetime import datetime

base, runs = sys.argv[1], int(sys.argv[2])
def call(method, path, body=None):
    req = urllib.request.Request(base + path, data=json.dumps(body).encode() if body else None, method=method,
                                 headers={'Content-Type': 'application/json'})
    with urllib.request.urlopen(req) as r:
        return json.load(r)
def ms(t):
    return datetime.strptime(t, '%Y-%m-%dT%H:%M:%S.%fZ').timestamp() * 1000
time.sleep(1.5)   # the runner finds the queue empty and waits
delays = []
for _ in range(runs):
    rid = call('POST', '/api/runs', {'experiment': 'copy', 'params': {'n': 4096}, 'repeat': 1,
                                     'variants': ['float'], 'cache': 'hot'})['id']
    while True:
        run = call('GET', f'/api/runs/{rid}')
        if run['status'] in ('done', 'failed'):
            break
        time.sleep(0.05)
    delays.append(ms(run['started_at']) - ms(run['created_at']))
    time.sleep(random.uniform(0.3, 1.3))   # idle a while, out of step with any poll
delays.sort()
print(f"{runs} runs, queued to started (ms): median {statistics.median(delays):.1f}, "
      f"p90 {delays[int(0.9 * (len(delays) - 1))]:.1f}, max {delays[-1]:.1f} (poll every {sys.argv[3]} ms)")
PY
