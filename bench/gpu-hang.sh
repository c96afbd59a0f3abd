#!/usr/bin/env bash
# bench/gpu-hang.sh — on a real GPU, a kernel that never ends: the test-only
# test_spin experiment (tests/fixtures/) runs with --run-timeout 5; its run must
# fail "timed out after 5 s" and the copy queued behind it must then run on a
# fresh worker. Killing the worker ends the kernel with its context; the GPU is
# not reset. Same set-up as bench/gpu.sh (carry .gpu).
set -euo pipefail
cd "$(dirname "$0")/.."
out=${OUT:-bench/out}
mkdir -p "$out"
k=$(mktemp -d /tmp/warplab-hang.XXXXXX)
cp kernels/* "$k/"
cp tests/fixtures/test_spin.cl "$k/"
python3 - "$k/catalog.json" tests/fixtures/test_spin.json <<'PY'
import json, sys
cat = json.load(open(sys.argv[1]))
cat["experiments"].append(json.load(open(sys.argv[2])))
json.dump(cat, open(sys.argv[1], "w"))
PY
echo '[{"experiment":"test_spin","repeat":1,"label":"a kernel that never ends"},
       {"experiment":"copy","params":{"n":67108864},"repeat":10,"label":"the next run"}]' > "$k/plan.json"
KERNELS=$k RUNNER_ARGS="--test-kernels --run-timeout 5" bench/gpu.sh "$k/plan.json" || true
grep -E "overran|ready|timed out" "$out/runner.log" || true
rm -rf "$k"
