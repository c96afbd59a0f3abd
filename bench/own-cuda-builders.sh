#!/bin/sh
# bench/own-cuda-builders.sh — the 600-configuration space of one's own in
# CUDA (bench/plans/tuning-own-tiled-cuda.json) in a fresh lab with the
# binaries of .gpu/before, then measured twice in one lab with those of
# .gpu/bin (tuning-own-twice-cuda.json: the second run finds every module
# compiled), the same with 8 builders (eight), then the OpenCL space twice
# with .gpu/bin; catalog-before and catalog: the catalog's transpose space
# measured twice in CUDA (bench/plans/tuning-twice.json) with .gpu/before and
# .gpu/bin; own-cuda: bench/plans/own-cuda.json's experiments with .gpu/bin
# (LEGS to pick: default before bin opencl); each
# run's time budget by bench/budget.py, with the modules that came from
# builders. Output under $OUT (default bench/out).
out=${OUT:-bench/out}
for leg in ${LEGS:-before bin opencl}; do
	more="" lang=""
	case $leg in
	before) plan=bench/plans/tuning-own-tiled-cuda.json bin=.gpu/before ;;
	bin) plan=bench/plans/tuning-own-twice-cuda.json bin=.gpu/bin ;;
	eight) plan=bench/plans/tuning-own-twice-cuda.json bin=.gpu/bin more="--builders 8" ;;
	opencl) plan=bench/plans/tuning-own-twice.json bin=.gpu/bin ;;
	catalog-before) plan=bench/plans/tuning-twice.json bin=.gpu/before lang=cuda ;;
	catalog) plan=bench/plans/tuning-twice.json bin=.gpu/bin lang=cuda ;;
	own-cuda) plan=bench/plans/own-cuda.json bin=.gpu/bin ;;
	esac
	mkdir -p "$out/$leg"
	OUT="$out/$leg" BIN=$bin LANGUAGE=$lang RUNNER_ARGS="--no-catalog-traces $more $ARGS" bash bench/gpu.sh $plan \
		> "$out/$leg.log" 2>&1
	tail -n 1 "$out/$leg.log"
	grep -m3 "unverified" "$out/$leg.log" | cut -c1-300
	python3 bench/budget.py "$out/$leg" "$leg"
	echo "$leg: $(grep -c 'by a builder process' "$out/$leg/runner.log") from builders," \
		"$(grep -c 'builder process [0-9]* started' "$out/$leg/runner.log") builders started"
	rm -f "$out/$leg/table.md"
done
