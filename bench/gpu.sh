#!/usr/bin/env bash
# bench/gpu.sh [PLAN] — measure warplab on this machine's GPU in one go: make
# NVIDIA's OpenCL visible, start a runner and a server on a fresh store, queue
# the plan's runs (default bench/plans/catalog.json: every experiment at the
# sizes of EXPERIMENTS.md's H100 figures), wait, and write every run's JSON, the
# table and the logs under $OUT (default bench/out).
#
# On the lent GPU machine (../shared/design/GPU.md) nothing can be installed, so
# the runtime libraries travel as Debian packages in .gpu/debs and the binaries
# in .gpu/bin (built here, x86-64 on both sides). bench/prepare-gpu.sh fills
# .gpu (with Oclgrind's packages and clang 14, so the runner traces there too,
# CUDA kernels included); the device call then is:
#   bench/gpu.sh            (with carry: [".gpu"])
# and where .gpu passes a call's carry, a first call unpacks .gpu/llvm into
# .gpu/root (prepare-gpu.sh says how), which this script then takes, and the
# second carries [".gpu/bin", ".gpu/debs"].
# The packages are unpacked into a private prefix used by warplab's binaries only
# (LD_LIBRARY_PATH on their command lines), never over the machine's own files.
#   DEVICES      which devices the runner takes (default gpu; "cpu" for PoCL)
#   KERNELS      the kernels directory (default kernels)
#   RUNNER_ARGS  more flags for the runner
#   BIN          where the binaries are (default .gpu/bin, else build): another
#                build, for before-and-after figures in one call
#   AT_ONCE=1    every GPU at once: the plan alone on the first device (into
#                $OUT/alone), then the plan twice at the same time with
#                "device": "gpu" (into $OUT/a and $OUT/b), each phase's wall
#                time in $OUT/phases.txt; bench/side_by_side.py compares them
#   SHARED=1     wait for every device's worker and post the plan's runs for
#                "gpu" rather than the first device: a tuning run is then
#                measured by every GPU of the model (store_shared.c)
#   LANGUAGE     "cuda" to run the plan's catalog runs in CUDA
#   COUNTER_DUMP=1  keep each CUDA profile's counter data image and values
#                (WARPLAB_COUNTER_DUMP, in the store's folder, which the
#                confined worker may write) in $OUT/counters
#   AFTER        a script run once the plan is done, while the server still
#                runs: bash AFTER URL STORE OUT (e.g. bench/compiler-after.sh)
#   LAB_TIMEOUT  seconds bench/lab.py waits for the plan's runs (default 480)
#   EXPORT       a file to write the whole store to, as warplab-store export's
#                JSON lines, once the plan is done (to score it again with
#                another build: warplab-store import into a fresh store)
set -euo pipefail
cd "$(dirname "$0")/.."
plan=${1:-bench/plans/catalog.json}
out=${OUT:-bench/out}
devices=${DEVICES:-gpu}
kernels=${KERNELS:-kernels}
mkdir -p "$out"
work=$(mktemp -d /tmp/warplab-bench.XXXXXX)

libs=""
if [ -d .gpu/debs ]; then
	for f in .gpu/debs/*.deb .gpu/llvm/*.deb; do [ -f "$f" ] && dpkg -x "$f" "$work/root"; done
	# The LLVM family unpacked by an earlier call (prepare-gpu.sh says why).
	[ -d .gpu/root ] && cp -a .gpu/root/. "$work/root/"
	libs="$work/root/usr/lib/x86_64-linux-gnu"
	# clang 14, for tracing CUDA kernels (warplab-cuda-ir and the runner
	# find it here rather than under /usr).
	if [ -x "$work/root/usr/lib/llvm-14/bin/clang" ]; then
		export WARPLAB_CLANG="$work/root/usr/lib/llvm-14/bin/clang"
	fi
	# Oclgrind, where its packages came along: the runner traces with it (the
	# store's folder, which the worker may read, holds the unpacked prefix).
	if [ -f "$work/root/usr/lib/oclgrind/liboclgrind-rt.so" ]; then
		export WARPLAB_OCLGRIND_RT="$work/root/usr/lib/oclgrind/liboclgrind-rt.so"
	fi
	mkdir -p /etc/OpenCL/vendors
	if [ ! -f /etc/OpenCL/vendors/nvidia.icd ] && [ -f /usr/local/nvidia/lib64/libnvidia-opencl.so.1 ]; then
		echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
	fi
fi
bin=${BIN:-build}
[ -z "${BIN:-}" ] && [ -x .gpu/bin/warplab-runner ] && bin=.gpu/bin
ld="$libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"

{
	echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
	command -v nvidia-smi >/dev/null && nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.max.sm,clocks.mem --format=csv
	if [ -x "$work/root/usr/bin/clinfo" ]; then LD_LIBRARY_PATH="$ld" "$work/root/usr/bin/clinfo" -l; elif command -v clinfo >/dev/null; then clinfo -l; fi
} 2>&1 | tee "$out/machine.txt"

if [ -n "${COUNTER_DUMP:-}" ]; then
	mkdir -p "$work/counters"
	export WARPLAB_COUNTER_DUMP="$work/counters"
fi

# Plain commands in the background, so $! is the binary itself and the trap
# stops it.
# shellcheck disable=SC2086 # RUNNER_ARGS is a list of flags
LD_LIBRARY_PATH="$ld" "$bin/warplab-runner" --db "$work/warplab.db" --kernels "$kernels" --devices "$devices" ${RUNNER_ARGS:-} 2> "$out/runner.log" &
runner=$!
LD_LIBRARY_PATH="$ld" "$bin/warplab-server" --listen 127.0.0.1:0 --db "$work/warplab.db" --www www --catalog "$kernels/catalog.json" 2> "$out/server.log" &
server=$!
trap 'kill $runner $server 2>/dev/null; wait 2>/dev/null; rm -rf "$work"' EXIT

for _ in $(seq 100); do
	grep -q '(port [0-9]*)' "$out/server.log" 2>/dev/null && grep -q 'ready' "$out/runner.log" 2>/dev/null && break
	if ! kill -0 $runner 2>/dev/null || ! kill -0 $server 2>/dev/null; then
		cat "$out/runner.log" "$out/server.log"
		exit 1
	fi
	sleep 0.2
done
port=$(grep -o '(port [0-9]*)' "$out/server.log" | grep -o '[0-9]*')
device=$(grep -o 'ready: device [^ ]*' "$out/runner.log" | head -n 1 | sed 's/ready: device //')
echo "runner on $device, server on port $port"
if [ -n "${SHARED:-}" ]; then
	# Every worker ready, and the runs posted for "gpu": a tuning run is
	# then shared by every GPU of the runner's model.
	want=$(grep -o 'ready: device [^ ]* ([0-9]* of [0-9]*)' "$out/runner.log" | head -n 1 | sed 's/.* of \([0-9]*\))/\1/')
	until [ "$(grep -c 'ready: device' "$out/runner.log")" -ge "$want" ]; do sleep 0.2; done
	device=gpu
fi
if [ -z "${AT_ONCE:-}" ]; then
	# A plan with failed points still has a store worth keeping: the
	# status is said last.
	status=0
	python3 bench/lab.py "http://127.0.0.1:$port" "$plan" "$out" --device "$device" ${LANGUAGE:+--language "$LANGUAGE"} \
		${LAB_TIMEOUT:+--timeout "$LAB_TIMEOUT"} | tee "$out/table.md" || status=$?
	if [ -n "${AFTER:-}" ]; then
		LD_LIBRARY_PATH="$ld" BIN="$bin" bash "$AFTER" "http://127.0.0.1:$port" "$work/warplab.db" "$out"
	fi
	if [ -n "${COUNTER_DUMP:-}" ]; then
		cp -r "$work/counters" "$out/"
	fi
	if [ -n "${EXPORT:-}" ]; then
		LD_LIBRARY_PATH="$ld" "$bin/warplab-store" export --from "$work/warplab.db" > "$EXPORT"
	fi
	exit "$status"
fi
# Every device's worker must be ready before the timing starts.
want=$(grep -o 'ready: device [^ ]* ([0-9]* of [0-9]*)' "$out/runner.log" | head -n 1 | sed 's/.* of \([0-9]*\))/\1/')
until [ "$(grep -c 'ready: device' "$out/runner.log")" -ge "$want" ]; do sleep 0.2; done
mkdir -p "$out/alone" "$out/a" "$out/b"
t0=$(date +%s.%N)
python3 bench/lab.py "http://127.0.0.1:$port" "$plan" "$out/alone" --device "$device" > "$out/alone/table.md"
t1=$(date +%s.%N)
python3 bench/lab.py "http://127.0.0.1:$port" "$plan" "$out/a" --device gpu > "$out/a/table.md" &
a=$!
python3 bench/lab.py "http://127.0.0.1:$port" "$plan" "$out/b" --device gpu > "$out/b/table.md" &
b=$!
wait $a $b
t2=$(date +%s.%N)
python3 -c "import sys; a, b, c = map(float, sys.argv[1:]); print(f'devices: $want\nalone: {b - a:.1f} s\ntwo at once: {c - b:.1f} s\nratio: {(c - b) / (b - a):.2f}')" "$t0" "$t1" "$t2" | tee "$out/phases.txt"
