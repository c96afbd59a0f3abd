#!/usr/bin/env bash
# bench/cupti-batch.sh — build build/cupti-batch (bench/cupti-batch.cu with the
# runner's cupti_counters.c) on a machine with the CUDA toolkit; the device
# call then runs it with the libraries of .gpu/debs:
#   LD_LIBRARY_PATH=<unpacked debs> build/cupti-batch
set -euo pipefail
cd "$(dirname "$0")/.."
cuda=${CUDA:-/usr/local/cuda}
mkdir -p build/cupti-batch.o
for f in runner/cuda/cupti_counters.c common/log.c; do
	gcc -O2 -std=c11 -D_GNU_SOURCE -Icommon -Irunner -c "$f" -o "build/cupti-batch.o/$(basename "$f" .c).o"
done
"$cuda/bin/nvcc" -O2 -Icommon -Irunner bench/cupti-batch.cu build/cupti-batch.o/*.o -o build/cupti-batch \
	-L"$cuda/lib64/stubs" -lcuda -ljansson -ldl
