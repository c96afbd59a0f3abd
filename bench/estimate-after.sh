#!/usr/bin/env bash
# bench/estimate-after.sh URL STORE OUT — bench/gpu.sh's AFTER hook for the
# estimate before any run (bench/estimate-vs-run.py): with an empty plan,
#   AFTER=bench/estimate-after.sh bash bench/gpu.sh bench/plans/empty.json
# every catalog experiment at its defaults is estimated in the fresh lab and
# then run, one after another; the table goes to OUT/estimate.md.
#   LANGUAGE   "cuda" to ask and run in CUDA
set -euo pipefail
cd "$(dirname "$0")/.."
python3 bench/estimate-vs-run.py "$1" "$3/estimate" ${LANGUAGE:+--language "$LANGUAGE"} | tee "$3/estimate.md"
