#!/usr/bin/env bash
# bench/confine-check.sh — on a GPU machine (carry .gpu, see bench/gpu.sh), check
# that a custom kernel cannot read a host file on NVIDIA's OpenCL even when the
# server's directive check is bypassed: a run is queued with a harmless kernel,
# its source is swapped in the store for one that includes /etc/hostname, and
# the runner (confined with Landlock) must fail its build without the file's
# text. Prints the runner's confinement line and the result's error; writes the
# logs under $OUT (default bench/out).
set -euo pipefail
cd "$(dirname "$0")/.."
out=${OUT:-bench/out}
mkdir -p "$out"
work=$(mktemp -d /tmp/warplab-confine.XXXXXX)
for f in .gpu/debs/*.deb; do dpkg -x "$f" "$work/root"; done
ld="$work/root/usr/lib/x86_64-linux-gnu"
sqlite="$work/root/usr/bin/sqlite3"
mkdir -p /etc/OpenCL/vendors
[ -f /etc/OpenCL/vendors/nvidia.icd ] || [ ! -f /usr/local/nvidia/lib64/libnvidia-opencl.so.1 ] || echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
bin=.gpu/bin
LD_LIBRARY_PATH="$ld" "$bin/warplab-server" --listen 127.0.0.1:0 --db "$work/w.db" --www www --catalog kernels/catalog.json 2> "$out/confine-server.log" &
server=$!
trap 'kill $server ${runner:-} 2>/dev/null; wait 2>/dev/null; rm -rf "$work"' EXIT
until grep -q '(port [0-9]*)' "$out/confine-server.log"; do sleep 0.2; done
port=$(grep -o '(port [0-9]*)' "$out/confine-server.log" | grep -o '[0-9]*')
base="http://127.0.0.1:$port"
source=$(curl -s "$base/api/experiments/transpose/variants/naive/source" | python3 -c 'import json,sys; print(json.load(sys.stdin)["template"])')
id=$(python3 -c 'import json,sys; print(json.dumps({"experiment": "transpose", "params": {"n": 256}, "variants": ["naive"], "repeat": 2,
  "kernels": [{"name": "reader", "like": "naive", "source": sys.argv[1]}]}))' "$source" |
	curl -s -X POST -H 'Content-Type: application/json' -d @- "$base/api/runs" | python3 -c 'import json,sys; print(json.load(sys.stdin)["id"])')
evil=$(printf '#include "/etc/hostname"\n%s' "$source" | python3 -c 'import sys; print("'"'"'" + sys.stdin.read().replace("'"'"'", "'"'"''"'"'") + "'"'"'")')
LD_LIBRARY_PATH="$ld" "$sqlite" -cmd ".timeout 10000" "$work/w.db" "UPDATE runs SET request = json_set(request, '\$.kernels[0].source', $evil) WHERE id = $id"
LD_LIBRARY_PATH="$ld" "$bin/warplab-runner" --db "$work/w.db" --kernels kernels --devices "${DEVICES:-gpu}" 2> "$out/confine-runner.log" &
runner=$!
for _ in $(seq 300); do
	status=$(curl -s "$base/api/runs/$id" | python3 -c 'import json,sys; print(json.load(sys.stdin)["status"])')
	case "$status" in done|failed|cancelled) break ;; esac
	sleep 0.2
done
grep -E 'confined|not confined' "$out/confine-runner.log" | head -n 1
curl -s "$base/api/runs/$id" | tee "$out/confine-run.json" | python3 -c '
import json, sys
run = json.load(sys.stdin)
host = open("/etc/hostname").read().strip()
print("run", run["status"], run["device"]["id"], "confinement:", run["device"].get("confinement"))
for r in run["results"]:
    print(" ", r["variant"], "verified" if r["verified"] else "NOT verified", (r["error"] or "")[:300].replace("\n", " | "))
text = json.dumps(run["results"])
print("host name in the results:", "YES (leak)" if host and host in text else "no")'
