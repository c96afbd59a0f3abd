#!/usr/bin/env bash
# bench/before-after.sh OUT — a build against another on the lent GPU in one
# lease: the catalog in OpenCL and in CUDA on a fresh lab each, "before"
# (.gpu/before, built from an earlier commit by bench/prepare-gpu.sh BEFORE=,
# with that commit's kernels/)
# then "after" (.gpu/bin), each plan's store exported; then the CUDA failure
# plan on the after build (a kernel that does not fit, a wild pointer, a
# lost context). Writes OUT/summary.txt (bench/side_by_side.py for each
# language, the failure plan's table, the run budgets) and OUT/runs.tar.gz
# (every run's JSON, table, log and export, for bench/rescore.sh here).
#   LANGS      the languages to run (default "opencl cuda"; one per call
#              where a call's time is short)
#   FAILURES   0 to skip the failure plan
#   bench/before-after.sh $OUT      (device tool, carry: [".gpu"])
set -uo pipefail
cd "$(dirname "$0")/.."
out=$1
mkdir -p "$out"
work=$(mktemp -d /tmp/warplab-ba.XXXXXX)
for spec in before,.gpu/before after,.gpu/bin; do
	IFS=, read -r label bin <<< "$spec"
	for lang in ${LANGS:-opencl cuda}; do
		dir="$work/$label-$lang"
		mkdir -p "$dir"
		language=""
		[ "$lang" = cuda ] && language=cuda
		# Each build with its own catalog where it brought one.
		kernels=kernels
		[ -d "$bin/kernels" ] && kernels=$bin/kernels
		BIN=$bin KERNELS=$kernels OUT=$dir LANGUAGE=$language RUNNER_ARGS=--no-trace EXPORT="$dir/export.jsonl" \
			bash bench/gpu.sh bench/plans/catalog.json > "$dir.log" 2>&1
		echo "$label $lang: exit $?" | tee -a "$out/summary.txt"
	done
done
dir="$work/after-cuda-failures"
if [ "${FAILURES:-1}" != 0 ]; then
	mkdir -p "$dir"
	BIN=.gpu/bin OUT=$dir RUNNER_ARGS=--no-trace bash bench/gpu.sh bench/plans/cuda-failures.json > "$dir.log" 2>&1
	echo "after cuda-failures: exit $?" | tee -a "$out/summary.txt"
fi
{
	for lang in ${LANGS:-opencl cuda}; do
		echo "== $lang: after against before (bench/side_by_side.py)"
		python3 bench/side_by_side.py "$work/before-$lang" "$work/after-$lang" 2>&1 | head -n 60
		for label in before after; do
			echo "-- $label $lang run budgets"
			python3 bench/turnaround.py "$work/$label-$lang" 2>&1 | tail -n 4
		done
	done
	if [ -d "$dir" ]; then
		echo "== the CUDA failure plan on the after build"
		cat "$dir/table.md"
		grep -hE 'error|lost|restart' "$dir/runner.log" | tail -n 20
	fi
} >> "$out/summary.txt" 2>&1
tar -czf "$out/runs.tar.gz" -C "$work" .
rm -rf "$work"
