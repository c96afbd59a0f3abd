#!/usr/bin/env bash
# bench/tune-after.sh URL STORE OUT — after bench/plans/tuning.json on a lab
# (bench/gpu.sh with AFTER=bench/tune-after.sh): the same transpose space
# tuned by the model with a budget of 2 configurations per size (10% of its
# 20), and the banks' 1,536-configuration space ranked with a budget of 8;
# each POST's wall time (the model's ranking is made before the run is
# queued) into OUT/rank.txt, each run's JSON as OUT/model-ID.json, and
# bench/tune-score.py's comparison with the exhaustive run into
# OUT/tuning.md.
set -euo pipefail
url=$1 out=$3
post() {
	curl -sS -o "$out/post.json" -w '%{time_total}' -X POST -H 'Content-Type: application/json' -d "$1" "$url/api/runs"
}
transpose='{"experiment": "transpose", "variants": ["tiled", "padded", "diagonal"], "repeat": 20,
 "params": {"n": [4096, 8192], "tile": [8, 16, 32, 64], "rows": [1, 2, 4, 8, 16, 32]},
 "restrict": ["tile * rows <= 1024"], "tune": {"params": ["tile", "rows"], "strategy": "model", "budget": 2},
 "label": "transpose tile x rows, model"}'
banks='{"experiment": "banks", "variants": ["stride", "struct"],
 "params": {"c": {"from": 1, "to": 64}, "local": [32, 64, 128, 256, 512, 1024], "iters": [256, 512, 1024, 2048]},
 "tune": {"params": ["c", "local", "iters"], "strategy": "model", "budget": 8}, "label": "banks, model"}'
: > "$out/rank.txt"
ids=""
for body in "$transpose" "$banks"; do
	s=$(post "$body")
	id=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["id"])' "$out/post.json")
	echo "run $id: POST with the model's ranking took $s s ($(python3 -c 'import json, sys; b = json.loads(sys.argv[1]); print(b["label"])' "$body"))" >> "$out/rank.txt"
	ids="$ids $id"
done
for id in $ids; do
	for _ in $(seq 600); do
		st=$(curl -fsS "$url/api/runs/$id" | python3 -c 'import json, sys; print(json.load(sys.stdin)["status"])')
		case $st in done|failed|cancelled) break ;; esac
		sleep 0.5
	done
	curl -fsS "$url/api/runs/$id" > "$out/model-$id.json"
done
cat "$out/rank.txt"
python3 bench/tune-score.py "$out" | tee "$out/tuning.md"
