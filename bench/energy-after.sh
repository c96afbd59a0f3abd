#!/usr/bin/env bash
# bench/energy-after.sh URL STORE OUT — after a plan with "energy": true on
# the GPU (bench/gpu.sh with AFTER=bench/energy-after.sh): the devices as
# GET /api/devices shows them (their "energy" facts: idle power, the
# counter's update period, a read's cost, and the method) into
# OUT/devices.json, and each run as the API shows it (the server's energy
# figures: pJ per useful and per moved byte) into OUT/api-run-ID.json.
set -euo pipefail
url=$1 out=$3
curl -fsS "$url/api/devices" > "$out/devices.json"
ids=$(curl -fsS "$url/api/runs?limit=200" | python3 -c 'import json, sys; print(" ".join(str(r["id"]) for r in json.load(sys.stdin)["runs"]))')
for id in $ids; do
	curl -fsS "$url/api/runs/$id" > "$out/api-run-$id.json"
done
python3 - "$out/devices.json" <<'PY'
import json, sys
for d in json.load(open(sys.argv[1]))['devices']:
    print(d['id'], json.dumps(d.get('energy')))
PY
