#!/usr/bin/env bash
# bench/compiler-after.sh URL STORE OUT — after a plan on the GPU (bench/gpu.sh
# with AFTER=bench/compiler-after.sh): each run's compiler account
# (GET /api/runs/{id}/compiler) as compiler-ID.json, a table of every
# variant's figures as compiler.md, and the whole store as store.jsonl (to
# look at the runs' pages here: warplab-store import, then a local server).
set -euo pipefail
url=$1 store=$2 out=$3
ids=$(curl -fsS "$url/api/runs?limit=200" | python3 -c 'import json, sys; print(" ".join(str(r["id"]) for r in json.load(sys.stdin)["runs"]))')
for id in $ids; do
	curl -fsS "$url/api/runs/$id/compiler" > "$out/compiler-$id.json"
done
python3 - "$out" $ids > "$out/compiler.md" <<'PY'
import json, sys
out, ids = sys.argv[1], sys.argv[2:]
print("| run | variant | kernel | options | work-group | registers | local B | private B | stack/spill st/ld B | groups/SM | warps/SM | limited by | PTX memory |")
print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
for i in sorted(ids, key=int):
    c = json.load(open(f"{out}/compiler-{i}.json"))
    for v in c["variants"]:
        for b in v["builds"]:
            f, o = b["figures"], b["occupancy"]
            mem = ", ".join(f"{k} {n}" for k, n in sorted((b.get("ptx") or {}).get("counts", {}).items()))
            print(f"| {i} | {v['id']} | {b['kernel']} | `{b['options']}` | {b['work_group']} | {f['registers']} | {f['local_bytes']} | "
                  f"{f['private_bytes']} | {f['stack_bytes']}/{f['spill_store_bytes']}/{f['spill_load_bytes']} | {o.get('groups')} | "
                  f"{o.get('warps')} | {', '.join(o.get('limited_by', [])) or o.get('unknown_why')} | {mem} |")
PY
"$BIN/warplab-store" export --from "$store" > "$out/store.jsonl"
cat "$out/compiler.md"
