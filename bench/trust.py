#!/usr/bin/env python3
"""How far the figures of a bench/gpu.sh output can be trusted: for each run its
wall time, samples, the widest interval of its bandwidth points and how many
reached the noise target; the cold transpose sweep against the copy ceiling;
the hot sweep's "in cache" points; % of the NVML peak; and for runs measured
twice, the verdicts against the previous run. Standard library only.

usage: trust.py OUT_DIR [OUT_DIR ...]
"""
import glob
import json
import sys
from datetime import datetime


def seconds(a, b):
    f = '%Y-%m-%dT%H:%M:%S.%fZ'
    return (datetime.strptime(b, f) - datetime.strptime(a, f)).total_seconds()


def main():
    runs = []
    for d in sys.argv[1:]:
        for path in glob.glob(f'{d}/run-*.json'):
            with open(path) as f:
                runs.append(json.load(f))
    runs.sort(key=lambda r: r['id'])
    ceiling = None
    print('| run | label | status | points | wall s | samples | widest ±% (bandwidth) | within ±1% | budget stops | discarded |')
    print('|---|---|---|---|---|---|---|---|---|---|')
    for r in runs:
        res = r['results']
        bw = [x for x in res if x.get('gbps') is not None and x.get('ci_pct') is not None]
        within = sum(1 for x in bw if x['ci_pct'] <= 100 * r['request'].get('noise', 0.01))
        widest = max((x['ci_pct'] for x in bw), default=None)
        wall = seconds(r['started_at'], r['finished_at']) if r.get('finished_at') and r.get('started_at') else None
        print(f"| {r['id']} | {r.get('label')} | {r['status']} | {len(res)} | {wall:.1f} | "
              f"{sum(x['reps'] for x in res)} | {'–' if widest is None else f'{widest:.2f}'} | "
              f"{within}/{len(bw)} | {sum(1 for x in res if x.get('stopped') == 'budget')} | "
              f"{sum(x.get('discarded', 0) for x in res)} |")
        if r['experiment'] == 'copy' and ceiling is None:
            best = max((x for x in res if x['verified']), key=lambda x: x['gbps'])
            ceiling = best['gbps']
            clocks = r.get('clocks') or {}
            print(f"\ncopy ceiling {ceiling:.0f} GB/s ({best['variant']}, ±{best['ci_pct']:.2f}%), "
                  f"{best.get('peak_pct') or 0:.1f}% of the NVML peak {clocks.get('peak_gbps', 0):.0f} GB/s; "
                  f"clocks at start {json.dumps(clocks.get('start'))}, end {json.dumps(clocks.get('end'))}\n")
    for r in runs:
        if r['experiment'] != 'transpose' or len(r['results']) < 50:
            continue
        mode = r['request'].get('cache')
        over = [x for x in r['results'] if ceiling and x['verified'] and x['gbps'] > ceiling]
        print(f"\nrun {r['id']} ({mode}): {len(over)} points above the copy ceiling {ceiling:.0f} GB/s"
              + ''.join(f"\n  {x['variant']} n={x['params']['n']}: {x['gbps']:.0f} GB/s" for x in over[:12]))
        cached = sorted({x['params']['n'] for x in r['results'] if x.get('in_cache')})
        if mode == 'hot':
            print(f"  in cache: n = {cached[0] if cached else '–'} … {cached[-1] if cached else '–'} ({len(cached)} sizes)")
    keys = ['total_ms', 'kernel_ms', 'launch_ms', 'inputs_ms', 'transfer_ms', 'verify_ms', 'build_ms',
            'store_ms', 'other_ms']
    budgets = [(r, r.get('budget')) for r in runs if r.get('budget')]
    if budgets:
        print('\nwhere the time went (ms):\n')
        print('| run | experiment | ' + ' | '.join(k[:-3] for k in keys) + ' |')
        print('|---|---|' + '---|' * len(keys))
        for r, b in budgets:
            print(f"| {r['id']} | {r['experiment']} | " + ' | '.join(f"{b[k]:.0f}" for k in keys) + ' |')
        tot = {k: sum(b[k] for _, b in budgets) for k in keys}
        print('| all | | ' + ' | '.join(f"{tot[k]:.0f}" for k in keys) + ' |')
        print('| share | | ' + ' | '.join(f"{100 * tot[k] / tot['total_ms']:.1f}%" for k in keys) + ' |')
    verdicts = {}
    moved = []
    for r in runs:
        for x in r['results']:
            p = x.get('previous')
            if p:
                verdicts[p['verdict']] = verdicts.get(p['verdict'], 0) + 1
                if p['verdict'] != 'same':
                    moved.append((r['id'], r['experiment'], x['variant'], x['params'], p['verdict'], p['change_pct'], x.get('ci_pct')))
    if verdicts:
        print(f"\nagainst the previous run: {verdicts}")
        for m in moved[:40]:
            print(f"  run {m[0]} {m[1]} {m[2]} {m[3]}: {m[4]} {m[5]:+.2f}% (±{m[6]:.2f}%)")
    return 0


if __name__ == '__main__':
    sys.exit(main())
