#!/usr/bin/env bash
# bench/fact-probes.sh [OUT] — build bench/fact-probes.c (candidate device
# facts, each a microbenchmark: see its top comment) and run it on this
# machine's first GPU, else its first device, writing under OUT (default $OUT,
# else bench/out):
#   fact-probes.md     the device and the table (probe, parameter, value, unit,
#                      method)
#   fact-probes.jsonl  the same rows as JSON lines, after a line on the device
#   fact-probes.log    stderr: each probe's wall time, and why one was skipped
#
# Where cc and OpenCL's headers are (here), it builds with cc into
# .gpu/bin/fact-probes when a .gpu folder exists (bench/prepare-gpu.sh makes
# it), else into build/fact-probes. On the lent GPU machine nothing can be
# installed, so the binary travels in .gpu/bin and the runtime libraries as
# Debian packages in .gpu/debs: as bench/gpu.sh does, they are unpacked into a
# private prefix used by this binary only (LD_LIBRARY_PATH on its command
# line), and NVIDIA's ICD file is written where it is missing. Build here,
# then make the device call:
#   BUILD_ONLY=1 bench/fact-probes.sh      (here, after bench/prepare-gpu.sh)
#   bench/fact-probes.sh "$OUT"            (device call, with carry: [".gpu"])
#   BUILD_ONLY=1   build, do not run
#   FACT_ARGS      more flags for the program (--quick, --cpu): e.g.
#                  FACT_ARGS=--quick bench/fact-probes.sh /tmp/fp checks it
#                  on PoCL here in seconds
#   LIMIT          seconds before the run is stopped (default 300; the program
#                  takes seconds on an H100); what it wrote stays in OUT
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-${OUT:-bench/out}}
bin=build
[ -d .gpu ] && bin=.gpu/bin

# Into a new file first: a failed link removes its output, and the binary
# carried to the GPU machine must survive a build that fails there.
if command -v cc >/dev/null && [ -f /usr/include/CL/cl.h ]; then
	mkdir -p "$bin"
	if cc -std=c11 -O2 -Wall -Wextra -Werror bench/fact-probes.c -o "$bin/fact-probes.new" -lOpenCL -lm; then
		mv "$bin/fact-probes.new" "$bin/fact-probes"
	else
		rm -f "$bin/fact-probes.new"
		[ -x "$bin/fact-probes" ] && echo "fact-probes.sh: the build failed; running the $bin/fact-probes there was" >&2
	fi
fi
if [ ! -x "$bin/fact-probes" ]; then
	echo "fact-probes.sh: no $bin/fact-probes: build it where cc and OpenCL's headers are (BUILD_ONLY=1 $0)" >&2
	exit 1
fi
if [ -n "${BUILD_ONLY:-}" ]; then
	echo "built $bin/fact-probes"
	exit 0
fi

mkdir -p "$out"
work=$(mktemp -d /tmp/fact-probes.XXXXXX)
trap 'rm -rf "$work"' EXIT

libs=""
if [ -d .gpu/debs ]; then
	for f in .gpu/debs/*.deb; do dpkg -x "$f" "$work/root"; done
	libs="$work/root/usr/lib/x86_64-linux-gnu"
	mkdir -p /etc/OpenCL/vendors
	if [ ! -f /etc/OpenCL/vendors/nvidia.icd ] && [ -f /usr/local/nvidia/lib64/libnvidia-opencl.so.1 ]; then
		echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
	fi
fi
# As bench/gpu.sh, but with no empty entry (the current folder) where either
# side is empty.
ld="$libs${libs:+${LD_LIBRARY_PATH:+:}}${LD_LIBRARY_PATH:-}"

{
	echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
	if command -v nvidia-smi >/dev/null; then
		nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.max.sm,clocks.mem --format=csv || true
	fi
} > "$out/fact-probes.log" 2>&1

status=0
# shellcheck disable=SC2086 # FACT_ARGS is a list of flags
LD_LIBRARY_PATH="$ld" timeout "${LIMIT:-300}" "$bin/fact-probes" --json "$out/fact-probes.jsonl" ${FACT_ARGS:-} \
	2>> "$out/fact-probes.log" | tee "$out/fact-probes.md" || status=$?
cat "$out/fact-probes.log" >&2
echo "fact-probes.sh: exit status $status; wrote $out/fact-probes.md, $out/fact-probes.jsonl and $out/fact-probes.log" >&2
exit "$status"
