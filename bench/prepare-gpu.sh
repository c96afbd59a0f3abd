#!/bin/sh
# Fill .gpu/ (ignored by git) with what bench/gpu.sh needs on the lent GPU
# machine, where nothing can be installed: the Debian runtime packages of the
# binaries' libraries and the binaries themselves, built here. With
# BEFORE=<commit>, that commit's binaries and kernels too, in .gpu/before, for
# before-and-after figures in one lease (bench/before-after.sh).
set -eu
cd "$(dirname "$0")/.."
make build
mkdir -p .gpu/debs .gpu/llvm .gpu/bin
(cd .gpu/debs && apt-get download ocl-icd-libopencl1 libjansson4 libsqlite3-0 libmicrohttpd12 \
	libgnutls30 libp11-kit0 libidn2-0 libunistring2 libtasn1-6 libnettle8 libhogweed6 libgmp10 \
	libffi8 libgomp1 zlib1g clinfo \
	libpq5 libssl3 libgssapi-krb5-2 libkrb5-3 libk5crypto3 libkrb5support0 libkeyutils1 libcom-err2 \
	libldap-2.5-0 libsasl2-2 oclgrind clang-14)
# The tracer's LLVM family (Oclgrind, and clang 14 for CUDA kernels), apart:
# with the rest they pass a device call's 64 MiB carry. A first call
# carrying only .gpu/llvm unpacks them into .gpu/root, which a warm machine
# keeps for the next call (carrying .gpu/bin and .gpu/debs), where gpu.sh
# finds them:
#   mkdir -p .gpu/root && for f in .gpu/llvm/*.deb; do dpkg -x "$f" .gpu/root; done
(cd .gpu/llvm && apt-get download liboclgrind-21.10 libllvm14 libz3-4 libclang-cpp14)
cp build/warplab-runner build/warplab-server build/warplab-store build/libwarplab-trace.so \
	build/warplab-cuda-ir .gpu/bin/
if [ -n "${BEFORE:-}" ]; then
	tree=$(mktemp -d /tmp/warplab-before.XXXXXX)
	git worktree add --detach "$tree" "$BEFORE" >/dev/null
	make -C "$tree" build/warplab-runner build/warplab-server build/warplab-store build/libwarplab-trace.so
	mkdir -p .gpu/before
	cp "$tree"/build/warplab-runner "$tree"/build/warplab-server "$tree"/build/warplab-store \
		"$tree"/build/libwarplab-trace.so .gpu/before/
	[ -x "$tree"/build/warplab-cuda-ir ] && cp "$tree"/build/warplab-cuda-ir .gpu/before/
	# Its catalog too: a catalog's format may have moved on since.
	rm -rf .gpu/before/kernels
	cp -r "$tree"/kernels .gpu/before/kernels
	git worktree remove --force "$tree"
fi
du -sh .gpu
