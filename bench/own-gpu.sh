#!/usr/bin/env bash
# bench/own-gpu.sh OUT — experiments of one's own on the lent GPU in one call:
# the SAXPY, CSR SpMV and tiled transpose of bench/plans/own.json in OpenCL
# (traced, so each result has the model's prediction; after a copy for the
# DRAM ceiling), their CUDA twins (bench/plans/own-cuda.json, counted), and a
# CUDA kernel that never ends (bench/plans/own-spin.json): how long it holds
# the device. Writes OUT/summary.txt (the tables, bench/model-score.py over
# the OpenCL runs, the spin's hold) and OUT/runs.tar.gz.
#   bench/own-gpu.sh $OUT      (device tool, carry: [".gpu"])
set -uo pipefail
cd "$(dirname "$0")/.."
out=$1
mkdir -p "$out"
work=$(mktemp -d /tmp/warplab-own.XXXXXX)
for plan in own own-cuda own-spin; do
	mkdir -p "$work/$plan"
	args=--no-catalog-traces
	[ "$plan" = own ] || args="--no-trace"
	OUT="$work/$plan" RUNNER_ARGS="$args" LAB_TIMEOUT=400 bash bench/gpu.sh "bench/plans/$plan.json" > "$work/$plan.log" 2>&1
	echo "== $plan: exit $?" >> "$out/summary.txt"
	cat "$work/$plan/table.md" >> "$out/summary.txt"
done
{
	echo "== the model on the OpenCL runs (bench/model-score.py)"
	python3 bench/model-score.py "$work/own" --misses
	echo "== the never-ending kernel: how long its run held the device"
	python3 - "$work/own-spin" <<'PY'
import glob, json, sys
from datetime import datetime
t = lambda s: datetime.fromisoformat(s.replace('Z', '+00:00')).timestamp()
for p in sorted(glob.glob(f'{sys.argv[1]}/run-*.json')):
    r = json.load(open(p))
    held = t(r['finished_at']) - t(r['started_at']) if r.get('finished_at') and r.get('started_at') else None
    print(f"run {r['id']} {r['status']}: held {held:.1f} s: {r.get('error')}" if held is not None else f"run {r['id']} {r['status']}")
PY
	grep -hE 'PROBE|overran|killing|timed out' "$work/own-spin/runner.log" | tail -n 8
} >> "$out/summary.txt" 2>&1
tar -czf "$out/runs.tar.gz" -C "$work" .
rm -rf "$work"
