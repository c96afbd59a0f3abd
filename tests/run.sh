#!/bin/sh
# Runs every suite against the binaries in $BUILD (default build): the C unit
# tests, the fuzz replay (every seed and past finding under AddressSanitizer
# and UBSan), then the integration tests (real server + runner on PoCL, over
# HTTP) and the browser tests (the dashboard in headless Chromium against them).
# Prints each suite's results and ends with one line: "N passed, N failed".
set -u
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
export BUILD
rm -rf tests/out
mkdir -p tests/out
passed=0
failed=0

# LeakSanitizer reports what the OpenCL ICD loader and PoCL keep for the
# process's life; those are not ours to free.
export LSAN_OPTIONS="suppressions=$(pwd)/tests/lsan.supp:print_suppressions=0"
export ASAN_OPTIONS="detect_leaks=1:abort_on_error=0"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"

# A PostgreSQL server of the suite's own (tests/postgres.sh), for the store's
# tests on the second engine; stopped and removed when the suite ends.
pgdir=$(mktemp -d /tmp/warplab-pg.XXXXXX)
trap 'tests/postgres.sh stop "$pgdir"' EXIT
if WARPLAB_TEST_PG=$(tests/postgres.sh start "$pgdir" 2>tests/out/postgres.log); then
	export WARPLAB_TEST_PG
else
	echo "PostgreSQL did not start (tests/out/postgres.log):"
	cat tests/out/postgres.log
	failed=$((failed + 1))
fi

echo "== unit tests"
"$BUILD/unit-tests" > tests/out/unit.log 2>&1
cat tests/out/unit.log
line=$(grep '^unit: ' tests/out/unit.log | tail -n 1)
if [ -n "$line" ]; then
	passed=$((passed + $(echo "$line" | sed 's/^unit: \([0-9]*\) passed.*/\1/')))
	failed=$((failed + $(echo "$line" | sed 's/.* \([0-9]*\) failed.*/\1/')))
else
	echo "unit tests did not finish"
	failed=$((failed + 1))
fi

echo "== fuzz replay (AddressSanitizer and UBSan)"
"$BUILD/fuzz-replay" > tests/out/fuzz-replay.log 2>&1
grep -E '^not ok|^fuzz replay:' tests/out/fuzz-replay.log
line=$(grep '^fuzz replay: ' tests/out/fuzz-replay.log | tail -n 1)
if [ -n "$line" ]; then
	passed=$((passed + $(echo "$line" | sed 's/^fuzz replay: \([0-9]*\) passed.*/\1/')))
	failed=$((failed + $(echo "$line" | sed 's/.* \([0-9]*\) failed.*/\1/')))
else
	echo "the fuzz replay did not finish:"
	tail -n 40 tests/out/fuzz-replay.log
	failed=$((failed + 1))
fi

echo "== integration and browser tests"
node --test --test-reporter=tap --test-concurrency=1 tests/integration/ tests/e2e/ > tests/out/integration.log 2>&1
grep -E '^# Subtest|^(not )?ok |^# (pass|fail)' tests/out/integration.log | grep -v '^# Subtest'
if grep -q '^not ok' tests/out/integration.log; then
	echo "-- failures:"
	awk '/^not ok/{show=1} show{print} /^  \.\.\./{show=0}' tests/out/integration.log | head -n 200
fi
ip=$(grep -E '^# pass ' tests/out/integration.log | tail -n 1 | awk '{print $3}')
if_=$(grep -E '^# fail ' tests/out/integration.log | tail -n 1 | awk '{print $3}')
if [ -n "$ip" ] && [ -n "$if_" ]; then
	passed=$((passed + ip))
	failed=$((failed + if_))
else
	echo "integration tests did not finish"
	failed=$((failed + 1))
fi

# A sanitizer report in a server or runner log fails the suite even when the
# HTTP-level checks passed.
for log in tests/out/*-server.log tests/out/*-runner.log tests/out/unit.log tests/out/fuzz-replay.log; do
	[ -f "$log" ] || continue
	if grep -qE 'ERROR: (AddressSanitizer|LeakSanitizer)|runtime error:' "$log"; then
		echo "sanitizer report in $log:"
		grep -E -A 20 'ERROR: (AddressSanitizer|LeakSanitizer)|runtime error:' "$log" | head -n 60
		failed=$((failed + 1))
	fi
done

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
