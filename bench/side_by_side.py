#!/usr/bin/env python3
"""Compare the figures of the same plan measured twice (bench/gpu.sh outputs,
e.g. AT_ONCE's alone/ against a/ and b/): runs matched by label, points by
variant and parameters; for every verified bandwidth or throughput figure the
change in %, how many are within 3%, the median and the largest change, and
which device each run ran on; then each figure outside 3% with both medians'
95% intervals and whether they overlap. Standard library only.

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
            out[(x['variant'], json.dumps(x['params'], sort_keys=True))] = (v, x)
    return out


def interval(x):
    lo, hi, m = x.get('ci_low_ms'), x.get('ci_high_ms'), x.get('median_ms')
    return (lo, hi) if lo and hi and m else (m, m)


def outlier(label, key, a, b):
    (va, xa), (vb, xb) = a, b
    ia, ib = interval(xa), interval(xb)
    overlap = ia[0] <= ib[1] and ib[0] <= ia[1]
    width = lambda i, x: 100 * (i[1] - i[0]) / 2 / x['median_ms']
    return (f"| {label} | {key[0]} | {key[1]} | {va:.4g} | {vb:.4g} | {100 * (vb / va - 1):+.1f} | "
            f"±{width(ia, xa):.1f} | ±{width(ib, xb):.1f} | {'yes' if overlap else 'no'} |")


def main():
    base = load(sys.argv[1])
    for d in sys.argv[2:]:
        other = load(d)
        print(f'\n{d} against {sys.argv[1]}')
        print('| run | device | figures | within 3% | median change % | largest change % |')
        print('|---|---|---|---|---|---|')
        every, far = [], []
        for label, r in other.items():
            if label not in base:
                continue
            a, b = figures(base[label]), figures(r)
            changes = [100 * (b[k][0] / a[k][0] - 1) for k in a if k in b]
            far += [outlier(label, k, a[k], b[k]) for k in a
                    if k in b and abs(b[k][0] / a[k][0] - 1) > 0.03]
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
        if far:
            print('\n| run | variant | params | base | other | change % | base ±% | other ±% | intervals overlap |')
            print('|---|---|---|---|---|---|---|---|---|')
            print('\n'.join(far))


if __name__ == '__main__':
    main()
