#!/bin/sh
# `make fuzz`: run each libFuzzer target for a bounded time (FUZZ_SECONDS, 60 by
# default) from its seed corpus (tests/fuzz/corpus/<target>), growing a working
# corpus in build/fuzz/. A crash leaves its input as build/fuzz/<target>-crash-*
# and fails the run: once fixed, copy it to tests/fuzz/regressions/<target>/,
# named for the outcome the fix gives it (accepted-*, refused-*, or for http
# status-NNN-*), and the fuzz replay of make test (tests/fuzz/replay.c) holds
# it to that from then on. Prints each target's executions.
set -u
cd "$(dirname "$0")/../.."
seconds=${1:-60}
status=0
export WARPLAB_ROOT="$(pwd)"
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1"
for target in request http head source compiler; do
	work="build/fuzz/corpus-$target"
	mkdir -p "$work"
	echo "== fuzz-$target for ${seconds}s"
	if ! "build/fuzz/fuzz-$target" -max_total_time="$seconds" -print_final_stats=1 \
		-artifact_prefix="build/fuzz/$target-" -max_len=8192 -timeout=10 \
		"$work" "tests/fuzz/corpus/$target" "tests/fuzz/regressions/$target" > "build/fuzz/$target.log" 2>&1; then
		status=1
		tail -n 40 "build/fuzz/$target.log"
	fi
	grep -E '^stat::(number_of_executed_units|peak_rss_mb|new_units_added)' "build/fuzz/$target.log"
	echo "corpus: $(ls "$work" | wc -l) inputs; crashes: $(ls build/fuzz/"$target"-crash-* 2>/dev/null | wc -l)"
done
exit $status
