#!/usr/bin/env bash
# bench/turnaround.sh OUT SPEC... — run budgets before and after in one lease:
# each SPEC, in turn on a fresh lab through bench/gpu.sh, into OUT/<n>-<label>,
# then bench/turnaround.py over them all (OUT/turnaround.txt). A SPEC is
# LABEL,BIN,LANGUAGE,PLAN[,RUNNER_ARGS]: BIN the binaries' folder (.gpu/bin,
# or another build for "before"), LANGUAGE opencl or cuda, PLAN a file of
# bench/plans, RUNNER_ARGS more runner flags (e.g. --no-trace).
#   bench/turnaround.sh /tmp/t before,.gpu/before,opencl,bench/plans/catalog.json,--no-trace \
#       after,.gpu/bin,opencl,bench/plans/catalog.json,--no-trace
set -uo pipefail
cd "$(dirname "$0")/.."
out=$1
shift
mkdir -p "$out"
n=0
for spec in "$@"; do
	n=$((n + 1))
	IFS=, read -r label bin language plan args <<< "$spec"
	dir="$out/$n-$label-$language-$(basename "$plan" .json)"
	lang=""
	[ "$language" = cuda ] && lang=cuda
	BIN=$bin OUT=$dir LANGUAGE=$lang RUNNER_ARGS=$args bash bench/gpu.sh "$plan" > "$dir.log" 2>&1
	echo "$n $label $language $plan ${args:-}: exit $?"
done
for d in "$out"/*/; do python3 bench/turnaround.py "$d"; done > "$out/turnaround.txt" 2>&1
