#!/bin/sh
# bench/cl-build-procs.sh — runs bench/cl-build-procs (built into .gpu/bin) on the
# GPU machine with 1, 2, 4, 8 and 16 processes building 120 programs of the
# tiled transpose of bench/plans/tuning-own.json, each round with a fresh
# driver cache. Build the probe first: cc -std=c11 -D_GNU_SOURCE -O2
# bench/cl-build-procs.c -o .gpu/bin/cl-build-procs -lOpenCL
work=$(mktemp -d)
for f in .gpu/debs/*.deb; do dpkg -x "$f" "$work/root"; done
export LD_LIBRARY_PATH=$work/root/usr/lib/x86_64-linux-gnu
mkdir -p /etc/OpenCL/vendors
[ -f /etc/OpenCL/vendors/nvidia.icd ] || echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
python3 -c "import json;p=json.load(open('bench/plans/tuning-own.json'));open('/tmp/tiled.cl','w').write(p[0]['experiment']['source'])"
nproc
for p in 1 2 4 8 16; do
  d=$(mktemp -d); c=$(mktemp -d)
  CUDA_CACHE_PATH=$c .gpu/bin/cl-build-procs /tmp/tiled.cl $p 120 $d
done
