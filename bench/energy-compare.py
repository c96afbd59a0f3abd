#!/usr/bin/env python3
"""Issue 37's checks on two energy runs of the same plan (bench/gpu.sh
outputs of a plan with "energy": true, e.g. bench/plans/catalog-energy.json):
results matched by run label, variant and parameters; for each the change
in joules per launch between the two, how many agree within 3%, per run and
in all; each run's energy time (its budget's energy_ms) and wall; then the
picojoules per useful byte (the result's bytes) of the copy, transposes and
strided reads, gross and above the idle power, with average watts and
GB/s. Standard library only.

usage: energy-compare.py DIR_A DIR_B
"""
import glob
import json
import os
import sys


def runs(d):
    out = {}
    for f in sorted(glob.glob(os.path.join(d, 'run-*.json'))):
        r = json.load(open(f))
        out[r.get('label') or r['experiment']] = r
    return out


def key(res):
    return res['variant'], json.dumps(res['params'], sort_keys=True)


def main():
    a, b = runs(sys.argv[1]), runs(sys.argv[2])
    total = within = 0
    print('| run | results | within 3% | median change % | largest change % | energy s (A, B) | wall s (A) |')
    print('|---|---|---|---|---|---|---|')
    for label, ra in a.items():
        rb = b.get(label)
        if not rb:
            continue
        eb = {key(x): x for x in rb['results']}
        changes = []
        for x in ra['results']:
            y = eb.get(key(x))
            ea, ebb = (x.get('energy') or {}), (y.get('energy') or {}) if y else {}
            if 'j_per_launch' in ea and 'j_per_launch' in ebb and ea['j_per_launch'] > 0:
                changes.append(100 * (ebb['j_per_launch'] / ea['j_per_launch'] - 1))
        n = len(changes)
        w = sum(1 for c in changes if abs(c) <= 3)
        total += n
        within += w
        med = sorted(changes)[n // 2] if n else float('nan')
        big = max(changes, key=abs) if n else float('nan')
        print(f"| {label} | {n} | {w} | {med:+.2f} | {big:+.2f} | {ra['budget'].get('energy_ms', 0) / 1000:.1f}, "
              f"{rb['budget'].get('energy_ms', 0) / 1000:.1f} | {ra['budget']['total_ms'] / 1000:.1f} |")
    print(f'\nall: {total} results, {within} within 3% ({100 * within / max(total, 1):.1f}%)\n')
    print('| run | variant | params | GB/s | W | pJ per useful byte | above idle |')
    print('|---|---|---|---|---|---|---|')
    for label, ra in a.items():
        if ra['experiment'] not in ('copy', 'transpose', 'strided', 'offset'):
            continue
        for x in ra['results']:
            e = x.get('energy') or {}
            if 'j_per_launch' not in e or not x.get('bytes'):
                continue
            if ra['experiment'] == 'transpose' and x['params'].get('n') not in (4096, 8192):
                continue
            if ra['experiment'] == 'offset' and x['params'].get('offset') not in (0, 1, 16, 32):
                continue
            params = ', '.join(f'{k}={v}' for k, v in sorted(x['params'].items()) if k not in ('local', 'tile', 'rows'))
            print(f"| {label} | {x['variant']} | {params} | {x['gbps']:.0f} | {e['avg_w']:.0f} | "
                  f"{e['j_per_launch'] * 1e12 / x['bytes']:.0f} | {e['j_above_idle_per_launch'] * 1e12 / x['bytes']:.0f} |")


if __name__ == '__main__':
    main()
