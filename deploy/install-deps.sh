#!/bin/sh
# Installs the Debian packages warplab needs to build, run and test, and only
# those that are missing, so `make run` and `make test` work on a fresh Debian 12
# machine and cost nothing on a prepared one. Uses sudo when not run as root.
set -eu

# Build and runtime: the HTTP server, JSON, the store, zlib (gzip for the
# server's responses), OpenCL (ICD loader, headers, PoCL as the CPU device),
# and clinfo to see what OpenCL finds.
# libpq: the PostgreSQL client, for a lab's shared store.
# Tests: Debian's Chromium (driven headless by playwright-core from npm) and a
# font for it to render text with; systemd-analyze to check the units; a
# PostgreSQL 15 server, which the tests start in a temporary folder of their own;
# Debian's clang, whose preprocessor the custom-kernel directive check is tested
# against.
# Oclgrind, the OpenCL simulator the tracer runs kernels in (its headers and
# g++ for the plugin warplab loads into it); LLVM 14, Oclgrind's, whose
# headers warplab-cuda-ir is built against and whose clang 14 compiles a
# CUDA kernel for the simulator.
pkgs="make gcc g++ oclgrind liboclgrind-dev llvm-14-dev clang-14 pkg-config libmicrohttpd-dev libjansson-dev libsqlite3-dev sqlite3 libpq-dev zlib1g-dev
ocl-icd-opencl-dev opencl-c-headers pocl-opencl-icd clinfo curl ca-certificates
chromium fonts-dejavu-core systemd postgresql-15 clang"

# The dashboard's Chart.js and the browser tests come from npm; use Debian's Node
# only where the machine has none of its own.
# `make fuzz` (deploy/install-deps.sh --fuzz): clang and its libFuzzer runtime.
[ "${1:-}" = "--fuzz" ] && pkgs="$pkgs libclang-rt-dev"
# `make bench` (--bench): wrk for the API load test, nginx beside it.
[ "${1:-}" = "--bench" ] && pkgs="$pkgs wrk nginx-light"

command -v node >/dev/null 2>&1 || pkgs="$pkgs nodejs"
command -v npm >/dev/null 2>&1 || pkgs="$pkgs npm"

missing=""
for p in $pkgs; do
	status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
	case "$status" in
	*"ok installed"*) ;;
	*) missing="$missing $p" ;;
	esac
done

[ -z "$missing" ] && exit 0

if [ "$(id -u)" -eq 0 ]; then
	sudo=""
elif command -v sudo >/dev/null 2>&1; then
	sudo="sudo"
else
	echo "install-deps: missing packages:$missing" >&2
	echo "install-deps: run this script as root (or install sudo) to install them" >&2
	exit 1
fi

echo "install-deps: installing$missing"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -q
# shellcheck disable=SC2086 # word splitting of the package list is intended
$sudo apt-get install -y -q --no-install-recommends $missing
