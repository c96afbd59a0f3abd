#!/usr/bin/env python3
"""The traced figures of runs measured by bench/gpu.sh, beside the declared
ones and the measurements: per run and variant, where it was traced, the
trace's sectors per request, conflict degree and efficiency, the declared
prediction's, whether they agree, and for a variant predicted from its trace,
the predicted GB/s beside the measured. Standard library only.

usage: bench/traced-summary.py OUT_DIR
"""
import glob
import json
import sys


def fmt(v):
    return '–' if v is None else f'{v:.4g}'


def main():
    print('| run | variant | traced at | sectors/request traced / declared | conflict traced / declared | efficiency traced / declared | agree | measured GB/s (largest point) | predicted GB/s |')
    print('|---|---|---|---|---|---|---|---|---|')
    for path in sorted(glob.glob(f'{sys.argv[1]}/run-*.json'), key=lambda p: int(p.split('-')[-1].split('.')[0])):
        run = json.load(open(path))
        for t in run.get('traces', []):
            f = t['figures']
            rs = [r for r in run['results'] if r['variant'] == t['variant']]
            last = rs[-1] if rs else {}
            # Declared beside traced where the trace was taken.
            at = next((r for r in rs if r['params'] == t['params']), {})
            p = at.get('prediction') or {}
            if 'error' in f:
                print(f"| {run['label']} | {t['variant']} | not traced: {f['error']} | | | | | | |")
                continue
            tr = f['traced']
            d = p if p.get('source') == 'declared' else {}
            agree = p.get('trace_agrees')
            rate = last.get('gbps') or last.get('gops')
            pl = last.get('prediction') or {}
            print(f"| {run['label']} | {t['variant']} | {f['point']} | {fmt(tr['sectors_per_request'])} / {fmt(d.get('sectors_per_request'))} | "
                  f"{fmt(tr['conflict_degree'])} / {fmt(d.get('conflict_degree'))} | {fmt(tr['efficiency'])} / {fmt(d.get('efficiency'))} | "
                  f"{'yes' if agree else 'no' if agree is False else 'nothing declared'} | {fmt(rate)} | {fmt(pl.get('gbps'))} ({pl.get('source')}) |")


if __name__ == '__main__':
    main()
