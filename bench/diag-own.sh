#!/bin/sh
# bench/diag-own.sh — the 600-configuration space of one's own measured twice
# in one lab, so the second run finds every program built: OpenCL
# (bench/plans/tuning-own-twice.json) and CUDA (tuning-own-twice-cuda.json),
# LANGS to pick; each run's time budget by bench/budget.py. Output under
# $OUT (default bench/out).
out=${OUT:-bench/out}
for l in ${LANGS:-opencl cuda}; do
	plan=bench/plans/tuning-own-twice.json
	[ "$l" = cuda ] && plan=bench/plans/tuning-own-twice-cuda.json
	mkdir -p "$out/$l"
	OUT="$out/$l" RUNNER_ARGS="--no-catalog-traces $ARGS" bash bench/gpu.sh $plan > "$out/$l.log" 2>&1
	tail -n 1 "$out/$l.log"
	grep -m3 "unverified" "$out/$l.log" | cut -c1-300
	python3 bench/budget.py "$out/$l" "$l"
	echo "$l: $(grep -c 'by a builder process' "$out/$l/runner.log") programs from builders"
	rm -f "$out/$l/table.md"
done
