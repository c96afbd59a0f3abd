#!/usr/bin/env bash
# bench/tune-after.sh URL STORE OUT — after a tuning plan on a lab
# (bench/gpu.sh with AFTER=bench/tune-after.sh): the model-strategy runs of
# MODEL_PLAN (default bench/plans/tuning-model.json: the transpose space of
# bench/plans/tuning.json with a budget of 2 configurations per size, 10% of
# its 20, and the banks' 1,536-configuration space with a budget of 8;
# bench/plans/tuning-own-model.json: the three experiments of one's own of
# bench/plans/tuning-own.json at 10%), each POST's wall time (the model's
# ranking is made before the run is queued) into OUT/rank.txt, each run's
# JSON as OUT/model-ID.json, and bench/tune-score.py's comparison with the
# plan's exhaustive runs into OUT/tuning.md.
set -euo pipefail
url=$1 out=$3
plan=${MODEL_PLAN:-bench/plans/tuning-model.json}
: > "$out/rank.txt"
ids=""
count=$(python3 -c 'import json, sys; print(len(json.load(open(sys.argv[1]))))' "$plan")
for i in $(seq 0 $((count - 1))); do
	python3 -c 'import json, sys; json.dump(json.load(open(sys.argv[1]))[int(sys.argv[2])], sys.stdout)' "$plan" "$i" > "$out/body.json"
	s=$(curl -sS -o "$out/post.json" -w '%{time_total}' -X POST -H 'Content-Type: application/json' \
		--data-binary "@$out/body.json" "$url/api/runs")
	id=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["id"])' "$out/post.json")
	echo "run $id: POST with the model's ranking took $s s ($(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["label"])' "$out/body.json"))" >> "$out/rank.txt"
	ids="$ids $id"
done
for id in $ids; do
	for _ in $(seq 1200); do
		st=$(curl -fsS "$url/api/runs/$id" | python3 -c 'import json, sys; print(json.load(sys.stdin)["status"])')
		case $st in done|failed|cancelled) break ;; esac
		sleep 0.5
	done
	curl -fsS "$url/api/runs/$id" > "$out/model-$id.json"
done
cat "$out/rank.txt"
python3 bench/tune-score.py "$out" | tee "$out/tuning.md"
