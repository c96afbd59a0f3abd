#!/usr/bin/env bash
# bench/rescore.sh EXPORT OUT — score recorded measurements again with this
# build's model: import a store's export (warplab-store export's JSON lines,
# as bench/gpu.sh writes with EXPORT=) into a fresh local store, start this
# build's server on it, and write every run's JSON (its predictions made by
# this build) to OUT/run-N.json, as bench/lab.py does; then bench/model-score.py
# OUT or bench/holdout-score.py OUT score it. The measurements are the
# device's; only the model is this build's. Before it, bench/retrace.py can
# trace the runs' undeclared kernels again with this build's tracer.
#   BIN      where the binaries are (default build)
#   CATALOG  the catalog its server reads (default kernels/catalog.json; an
#            earlier build's own, where its format has moved on since)
#   STORE    keep the imported store at this path (default: a temporary one)
set -euo pipefail
cd "$(dirname "$0")/.."
export_file=$1
out=$2
bin=${BIN:-build}
work=$(mktemp -d /tmp/warplab-rescore.XXXXXX)
store=${STORE:-$work/warplab.db}
mkdir -p "$out"
trap 'kill $server 2>/dev/null; wait 2>/dev/null; rm -rf "$work"' EXIT
if [ ! -f "$store" ]; then
	"$bin/warplab-store" import --to "$store" < "$export_file"
fi
"$bin/warplab-server" --listen 127.0.0.1:0 --db "$store" --www www --catalog "${CATALOG:-kernels/catalog.json}" 2> "$work/server.log" &
server=$!
for _ in $(seq 100); do
	grep -q '(port [0-9]*)' "$work/server.log" 2>/dev/null && break
	sleep 0.1
done
port=$(grep -o '(port [0-9]*)' "$work/server.log" | grep -o '[0-9]*')
python3 - "http://127.0.0.1:$port" "$out" <<'EOF'
import json, sys, time, urllib.request
base, out = sys.argv[1], sys.argv[2]
def get(path):
    with urllib.request.urlopen(base + path, timeout=120) as r:
        return json.load(r)
ids, path = [], '/api/runs?limit=200'
while path:
    page = get(path)
    ids += [r['id'] for r in page.get('runs', [])]
    path = page.get('next')
for rid in sorted(ids):
    for _ in range(200):
        run = get(f'/api/runs/{rid}')
        if not run.get('predictions_pending'):
            break
        time.sleep(0.2)
    with open(f'{out}/run-{rid}.json', 'w') as f:
        json.dump(run, f, indent=1)
print(f'{len(ids)} runs scored again into {out}')
EOF
