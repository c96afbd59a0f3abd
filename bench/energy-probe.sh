#!/usr/bin/env bash
# bench/energy-probe.sh [OUT] — build bench/energy-probe.c (what NVML's
# total-energy counter can tell of a kernel: its resolution, idle power, the
# energy of bursts of a 256 MiB float4 copy; see its top comment) and run it on
# this machine's first GPU, writing under OUT (default /tmp):
#   energy-probe         the binary
#   energy-probe.txt     its output: "key value" lines, then a summary after
#                        "# ", then its stderr and exit status
#
# NVML and the CUDA driver are opened with dlopen, so cc and libdl are all the
# build needs: it builds on the lent GPU machine itself, where
# libnvidia-ml.so.1 and libcuda.so.1 are in /usr/local/nvidia/lib64 on the
# loader's path. Where cc is missing or the build fails there, a binary built
# here and carried in .gpu/bin/energy-probe is run instead. Device call:
#   bench/energy-probe.sh "$OUT"
#   LIMIT   seconds before the run is stopped (default 120; the program takes
#           about 30 s)
# The exit status is the program's: 2 where NVML, the driver, a GPU or the
# energy counter is missing (as on this project's machines, which have none).
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-/tmp}
mkdir -p "$out"
bin="$out/energy-probe"

# Into a new file first: a failed build must not leave a broken binary behind.
if command -v cc >/dev/null && cc -std=c11 -O2 -Wall -Wextra -o "$bin.new" bench/energy-probe.c -ldl; then
	mv "$bin.new" "$bin"
else
	rm -f "$bin.new"
	if [ -x .gpu/bin/energy-probe ]; then
		echo "energy-probe.sh: no build here; running .gpu/bin/energy-probe" >&2
		bin=.gpu/bin/energy-probe
	else
		echo "energy-probe.sh: could not build bench/energy-probe.c (is cc installed?)" >&2
		exit 1
	fi
fi

{
	echo "# date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
	if command -v nvidia-smi >/dev/null; then
		nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.sm,clocks.max.sm,clocks.mem,temperature.gpu \
			--format=csv 2>&1 | sed 's/^/# /' || true
	fi
} > "$out/energy-probe.txt"

status=0
timeout "${LIMIT:-120}" "$bin" >> "$out/energy-probe.txt" 2> "$out/energy-probe.err" || status=$?
sed 's/^/# stderr: /' "$out/energy-probe.err" >> "$out/energy-probe.txt"
rm -f "$out/energy-probe.err"
echo "# exit status: $status" >> "$out/energy-probe.txt"
cat "$out/energy-probe.txt"
echo "energy-probe.sh: exit status $status; wrote $out/energy-probe.txt" >&2
exit "$status"
