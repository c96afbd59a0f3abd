#!/usr/bin/env bash
# bench/cache-starts.sh [N] — start the runner N times (default 5), each on a
# fresh store, on this machine's GPU (carry .gpu, see bench/gpu.sh), and print
# the last-level cache each start recorded and where it came from. The size
# must be the same every time.
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-5}
work=$(mktemp -d /tmp/warplab-starts.XXXXXX)
trap 'rm -rf "$work"' EXIT
for f in .gpu/debs/*.deb; do dpkg -x "$f" "$work/root"; done
ld="$work/root/usr/lib/x86_64-linux-gnu"
mkdir -p /etc/OpenCL/vendors
[ -f /etc/OpenCL/vendors/nvidia.icd ] || [ ! -f /usr/local/nvidia/lib64/libnvidia-opencl.so.1 ] ||
	echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
for i in $(seq "$n"); do
	mkdir -p "$work/$i"
	LD_LIBRARY_PATH="$ld" .gpu/bin/warplab-runner --db "$work/$i/w.db" --kernels kernels --devices "${DEVICES:-gpu}" 2> "$work/$i/log" &
	pid=$!
	for _ in $(seq 300); do grep -q 'ready' "$work/$i/log" && break; sleep 0.1; done
	kill "$pid"; wait "$pid" 2>/dev/null || true
	echo "start $i: $(grep -E 'last-level cache' "$work/$i/log" | sed 's/.*: last-level/last-level/')"
done
