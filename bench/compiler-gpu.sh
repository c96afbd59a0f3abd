#!/usr/bin/env bash
# bench/compiler-gpu.sh — the compiler's account's figures on the GPU in one call (carry
# .gpu, with this build in .gpu/bin and the one before in .gpu/before):
# the compiler's account of bench/plans/compiler.json's runs (into
# $OUT/account, with compiler.md and store.jsonl), then
# bench/plans/compiler-timing.json measured by the new and the old build in
# turn, twice, untraced (into $OUT/new1, old1, new2, old2), and
# bench/side_by_side.py's comparisons of them. ACCOUNT_ONLY=1: the first
# part only.
set -uo pipefail
cd "$(dirname "$0")/.."
base=${OUT:-bench/out}
OUT=$base/account AFTER=bench/compiler-after.sh bench/gpu.sh bench/plans/compiler.json > "$base/account.txt" 2>&1
# The device tool brings back few files: the account's as one archive.
tar czf "$base/account.tgz" -C "$base" account && rm -rf "$base/account"
[ -n "${ACCOUNT_ONLY:-}" ] && exit
for round in 1 2; do
	OUT=$base/new$round RUNNER_ARGS=--no-trace bench/gpu.sh bench/plans/compiler-timing.json > /dev/null 2>&1
	OUT=$base/old$round BIN=.gpu/before RUNNER_ARGS=--no-trace bench/gpu.sh bench/plans/compiler-timing.json > /dev/null 2>&1
done
{
	echo "## new against old, round 1"; python3 bench/side_by_side.py "$base/old1" "$base/new1"
	echo "## new against old, round 2"; python3 bench/side_by_side.py "$base/old2" "$base/new2"
	echo "## old against old"; python3 bench/side_by_side.py "$base/old1" "$base/old2"
} > "$base/timing.txt" 2>&1
tail -5 "$base/account.txt"
cat "$base/timing.txt" | grep -v "^  " | head -40
