#!/bin/sh
# bench/own-builders.sh — an own experiment's exhaustive tuning run
# (bench/plans/tuning-own-tiled.json: the 600 configurations of a tiled
# transpose at n = 4096) in a fresh lab with the binaries of .gpu/before
# and then of .gpu/bin (LEGS="bin" for the latter alone), one after the
# other in one lease; each run's time
# budget by bench/budget.py. Output under $OUT (default bench/out).
out=${OUT:-bench/out}
for b in ${LEGS:-before bin}; do
	OUT="$out/$b" BIN=.gpu/$b RUNNER_ARGS=--no-catalog-traces bash bench/gpu.sh bench/plans/tuning-own-tiled.json \
		> "$out/$b.log" 2>&1
	tail -n 1 "$out/$b.log"
	python3 bench/budget.py "$out/$b" "$b"
	echo "$b: $(grep -c 'by a builder process' "$out/$b/runner.log") programs from builders"
done
