#!/usr/bin/env python3
"""Compare the figures of the same plan measured twice (bench/gpu.sh outputs,
e.g. AT_ONCE's alone/ against a/ and b/): runs matched by label, points by
variant and parameters; for every verified bandwidth or throughput figure the
change in %, how many are within 3%, the median and the largest change, and
which device each run ran on. Standard library only.

usage: side_by_side.py BASE_DIR OTHER_DIR [OTHER_DIR ...]
"""
import glob
import json
import statistics
import sys


def load(d):
    runs = {}
    for path in glob.glob(f'{d}/run-*.json'):
        with open(path) as f:
            r = json.load(f)
        runs[r.get('label') or r['experiment']] = r
    return runs


def figures(run):
    out = {}
    for x in run['results']:
        v = x.get('gbps') or x.get('gops')
        if v and x['verified']:
            out[(x['variant'], json.dumps(x['params'], sort_keys=True))] = v
    return out


def main():
    base = load(sys.argv[1])
    for d in sys.argv[2:]:
        other = load(d)
        print(f'\n{d} against {sys.argv[1]}')
        print('| run | device | figures | within 3% | median change % | largest change % |')
        print('|---|---|---|---|---|---|')
        every = []
        for label, r in other.items():
            if label not in base:
                continue
            a, b = figures(base[label]), figures(r)
            changes = [100 * (b[k] / a[k] - 1) for k in a if k in b]
            every += changes
            if not changes:
                continue
            within = sum(1 for c in changes if abs(c) <= 3)
            worst = max(changes, key=abs)
            print(f"| {label} | {(r.get('device') or {}).get('id')} | {len(changes)} | {within} | "
                  f"{statistics.median(changes):+.2f} | {worst:+.2f} |")
        if every:
            print(f"all: {len(every)} figures, {sum(1 for c in every if abs(c) <= 3)} within 3%, "
                  f"median {statistics.median(every):+.2f}%, largest {max(every, key=abs):+.2f}%")


if __name__ == '__main__':
    main()
