#!/usr/bin/env python3
"""Each run's time budget in OUT (run-*.json from bench/lab.py): results,
total, where it went, the points whose inputs were made, and measurements
a second over the run's own total. Standard library only.

usage: budget.py OUT_DIR [LABEL]
"""
import glob
import json
import sys

KEYS = ['build_ms', 'inputs_ms', 'transfer_ms', 'launch_ms', 'kernel_ms', 'verify_ms', 'store_ms', 'counters_ms', 'other_ms']


def main():
    label = sys.argv[2] if len(sys.argv) > 2 else ''
    for path in sorted(glob.glob(f'{sys.argv[1]}/run-*.json')):
        run = json.load(open(path))
        b = run.get('budget') or {}
        n = len(run['results'])
        ok = sum(1 for r in run['results'] if r.get('verified'))
        total = b.get('total_ms') or 0
        parts = ' '.join(f"{k[:-3]} {b.get(k, 0):.0f}" for k in KEYS)
        print(f"{label} run {run['id']} {run['request'].get('language', '')}: {n} results ({ok} verified), "
              f"total {total:.0f} ms: {parts}; inputs made {b.get('inputs_made', '–')}; "
              f"{n / total * 1000 if total else 0:.1f} measurements/s")


if __name__ == '__main__':
    main()
