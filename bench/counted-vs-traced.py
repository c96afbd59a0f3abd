#!/usr/bin/env python3
"""CUPTI's counts beside the trace's, for the results of bench/gpu.sh runs
whose prediction comes from a trace (a custom or own kernel that declares
nothing): per access kind (global loads, global stores, shared loads), the
sectors per request (conflict degree for shared memory) counted against the
traced, where both exist. Equal means within 5% (CUPTI counts every warp of
the launch, the trace a sample of groups). Standard library only.

usage: bench/counted-vs-traced.py OUT_DIR [--list]
"""
import glob
import json
import sys

FIGURES = [('load_sectors_per_request', 'global loads, sectors per request'),
           ('store_sectors_per_request', 'global stores, sectors per request'),
           ('local_conflict_degree', 'shared loads, conflict degree')]


def main():
    out, listing = sys.argv[1], '--list' in sys.argv
    both = equal = 0
    per = {f: [0, 0] for f, _ in FIGURES}
    rows = []
    for path in sorted(glob.glob(f'{out}/run-*.json')):
        run = json.load(open(path))
        for r in run['results']:
            p, c = r.get('prediction') or {}, r.get('counted') or {}
            if p.get('source') != 'traced' or 'predicted' not in c:
                continue
            for f, _ in FIGURES:
                a, b = c.get(f), c['predicted'].get(f)
                if a is None or b is None or a <= 0 or b <= 0:
                    continue
                same = abs(a / b - 1) <= 0.05
                both += 1
                equal += same
                per[f][0] += 1
                per[f][1] += same
                if listing or not same:
                    rows.append(f"| {run['experiment']} | {r['variant']} | {json.dumps(r['params'], sort_keys=True)} | {f} | {a:.3g} | {b:.3g} | {'yes' if same else 'no'} |")
    print(f'accesses with both counted and traced figures: {both}; equal within 5%: {equal}'
          + (f' ({100 * equal / both:.0f}%)' if both else ''))
    for f, words in FIGURES:
        print(f'  {words}: {per[f][1]} of {per[f][0]}')
    if rows:
        print('| run | kernel | point | figure | counted | traced | equal |')
        print('|---|---|---|---|---|---|---|')
        print('\n'.join(rows))


if __name__ == '__main__':
    main()
