#!/usr/bin/env python3
"""bench/turnaround.py OUT [OUT...] — where a plan's time went, from the run
JSONs bench/lab.py wrote (OUT/run-*.json, as bench/gpu.sh leaves them): per
run, queued to done, its wall (started to finished) beside its budget, the
kernels, the hardware counters counted inside it, and when what explains it
(traces, or a CUDA run's counters taken after it) arrived; then the plan's
wall (first start to last finish), the sum of the budgets, kernel, counter
and trace time, and the GPU busy share (kernel time over the plan's wall); last,
each run's budget by phase.
Issue 35's figures."""
import glob
import json
import sys
from datetime import datetime


def at(text):
    return datetime.fromisoformat(text.replace('Z', '+00:00')).timestamp() if text else None


def phase(run, key):
    return (run.get('budget') or {}).get(key) or 0.0


def report(out):
    runs = [json.load(open(p)) for p in glob.glob(f'{out}/run-*.json')]
    runs.sort(key=lambda r: r['id'])
    if not runs:
        print(f'{out}: no run-*.json')
        return
    print(f'\n## {out}\n')
    print('| run | experiment | queued→done s | wall s | budget s | kernels s | counters s | explain s | explained after done s |')
    print('| --- | --- | --- | --- | --- | --- | --- | --- | --- |')
    for r in runs:
        start, end, queued = at(r.get('started_at')), at(r.get('finished_at')), at(r.get('created_at'))
        explained = at(r.get('explained_at'))
        wall = end - start if start and end else None
        cells = [
            f"{end - queued:.2f}" if end and queued else '–',
            f'{wall:.2f}' if wall is not None else '–',
            f"{phase(r, 'total_ms') / 1000:.2f}",
            f"{phase(r, 'kernel_ms') / 1000:.3f}",
            f"{phase(r, 'counters_ms') / 1000:.2f}",
            f"{(r.get('explain_ms') or 0) / 1000:.2f}",
            f'{explained - end:.1f}' if explained and end else (r.get('explain') or '–'),
        ]
        print(f"| {r['id']} | {r['experiment']} {r.get('label') or ''} | " + ' | '.join(cells) + ' |')
    starts = [at(r['started_at']) for r in runs if r.get('started_at')]
    ends = [at(r['finished_at']) for r in runs if r.get('finished_at')]
    explained = [at(r['explained_at']) for r in runs if r.get('explained_at')]
    wall = max(ends) - min(starts)
    budget = sum(phase(r, 'total_ms') for r in runs) / 1000
    kernels = sum(phase(r, 'kernel_ms') for r in runs) / 1000
    counters = sum(phase(r, 'counters_ms') for r in runs) / 1000
    traces = sum((r.get('explain_ms') or 0) for r in runs) / 1000
    print(f'\nwall {wall:.2f} s (first start to last finish); budgets {budget:.2f} s; kernels {kernels:.2f} s; '
          f'counters {counters:.2f} s; explained {traces:.2f} s (traces or counters, after the runs); '
          f'GPU busy {100 * kernels / wall:.1f}% of the wall')
    if explained:
        print(f'everything explained in {max(explained) - min(starts):.1f} s from the first start')
    split = {}
    for r in runs:
        for k, v in (r.get('budget') or {}).items():
            if k.endswith('_ms') and k not in ('total_ms', 'kernel_ms'):
                split[k] = split.get(k, 0) + v
    print('budget split: ' + ', '.join(f'{k[:-3]} {v / 1000:.2f} s' for k, v in sorted(split.items(), key=lambda kv: -kv[1])))
    # Per run, where its budget went: the phase to win back is run-specific.
    phases = sorted(split, key=lambda k: -split[k])
    print('\n| run | ' + ' | '.join(k[:-3] for k in phases) + ' | kernels |')
    print('| --- |' + ' --- |' * (len(phases) + 1))
    for r in runs:
        b = r.get('budget') or {}
        print(f"| {r['id']} {r['experiment']} | " + ' | '.join(f"{(b.get(k) or 0) / 1000:.3f}" for k in phases)
              + f" | {(b.get('kernel_ms') or 0) / 1000:.3f} |")


if __name__ == '__main__':
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    for d in sys.argv[1:]:
        report(d)
