#!/usr/bin/env bash
# bench/shared-tuning.sh [PLAN] — one tuning plan (default bench/plans/tuning.json)
# in a fresh lab on the first GPU alone and on every GPU of the host sharing
# it, with the build in .gpu/before and the one in .gpu/bin, interleaved
# (before, after, before, after) so that a drifting machine shows; each
# lab's wall time and split (bench/shared-split.py) and how many programs
# its workers loaded from disk. On a lent machine of two GPUs or more, with
# carry [".gpu/bin", ".gpu/before", ".gpu/debs"] (bench/prepare-gpu.sh with
# BEFORE=<commit>).
#   LANGUAGE   "cuda" (default) or "" for OpenCL
#   ROUNDS     rounds of the two-GPU pair (default 2)
set -u
cd "$(dirname "$0")/.."
plan=${1:-bench/plans/tuning.json}
root=$(mktemp -d /tmp/warplab-shared.XXXXXX)
one() { # label build devices
	local o=$root/$1
	env OUT="$o" BIN=".gpu/$2" SHARED=1 DEVICES="$3" RUNNER_ARGS=--no-catalog-traces \
		LANGUAGE="${LANGUAGE-cuda}" LAB_TIMEOUT=200 bash bench/gpu.sh "$plan" > "$o.out" 2>&1 ||
		{ echo "$1: bench/gpu.sh failed"; tail -n 20 "$o.out"; return; }
	python3 bench/shared-split.py "$o" "$1"
	# "programs ready ahead (built, or loaded from disk)" is one line a worker.
	echo "$1: $(grep -c 'loaded from disk' "$o/runner.log") log lines saying 'loaded from disk'"
}
one before-one-gpu before nvidia-h200-0
one after-one-gpu bin nvidia-h200-0
for i in $(seq "${ROUNDS:-2}"); do
	one "before-every-gpu-$i" before gpu
	one "after-every-gpu-$i" bin gpu
done
one after-one-gpu-again bin nvidia-h200-0
