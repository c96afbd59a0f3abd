#!/usr/bin/env python3
"""How well the model explains a catalog's measurements (issue 26's figures):
for every result with a prediction ratio (predicted / measured speed, or
slowdown for banks), the factor it is off by (max(r, 1/r)); counts within 2x,
1.5x and 1.25x, and the median factor, over all and per family; the points
outside 1.25x with the prediction's binding ceiling where it names one.
Reads bench/lab.py's run JSONs (OUT_DIR/run-*.json). Standard library only.

usage: model-score.py OUT_DIR [--misses]
"""
import statistics
import sys

from model import load_runs


def main():
    runs = load_runs(sys.argv[1])
    fam, misses = {}, []
    for run in runs:
        for r in run['results']:
            p = r.get('prediction') or {}
            ratio = p.get('ratio')
            if not ratio:
                continue
            off = max(ratio, 1 / ratio)
            fam.setdefault(run['experiment'], []).append(off)
            if off > 1.25:
                point = ', '.join(f'{k}={v}' for k, v in r['params'].items())
                misses.append(f"| {run['experiment']} | {r['variant']} | {point} | {ratio:.3g} | {p.get('binding') or ''} | {p.get('departure') or ''} |")
    every = [x for v in fam.values() for x in v]

    def row(name, xs):
        return (f"| {name} | {len(xs)} | {sum(x <= 2 for x in xs)} | {sum(x <= 1.5 for x in xs)} | "
                f"{sum(x <= 1.25 for x in xs)} | {statistics.median(xs):.3f} |")
    print('| family | points | within 2× | within 1.5× | within 1.25× | median factor |')
    print('|---|---|---|---|---|---|')
    for name, xs in fam.items():
        print(row(name, xs))
    print(row('**all**', every))
    if '--misses' in sys.argv:
        print('\n| family | variant | point | predicted/measured | binding | departure |')
        print('|---|---|---|---|---|---|')
        print('\n'.join(misses))


if __name__ == '__main__':
    main()
