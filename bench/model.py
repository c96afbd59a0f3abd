#!/usr/bin/env python3
"""Predicted beside measured, per family, from the run JSONs bench/lab.py saved
(OUT_DIR/run-*.json, as GET /api/runs/{id} returns them): for each variant and
point, the model's sectors per request, conflict degree and efficiency beside
the measured share of the copy ceiling (bandwidth families), rates (min-plus)
or slowdown (banks), the ratio of measured to predicted speed, and the
departure sentence where they differ by more than 2x. Markdown on stdout.

usage: model.py OUT_DIR
"""
import glob
import json
import sys


def fmt(v, digits=3):
    return '–' if v is None else f'{v:.{digits}g}'


def load_runs(out_dir):
    """The run JSONs bench/lab.py saved in out_dir, by id."""
    runs = []
    for path in glob.glob(f'{out_dir}/run-*.json'):
        with open(path) as f:
            runs.append(json.load(f))
    return sorted(runs, key=lambda r: r['id'])


def main():
    runs = load_runs(sys.argv[1])
    for run in runs:
        if run['experiment'] == 'copy':
            continue
        rs = run['results']
        names = list(run['request']['params'].keys())
        swept = [k for k in names if len({r['params'][k] for r in rs}) > 1] or names[:1]
        banks = any(r.get('prediction') and r['prediction'].get('slowdown') is not None for r in rs)
        gops = any(r.get('gops') for r in rs)
        print(f"\n### {run['experiment']} — {run.get('label') or ''} (run {run['id']}, "
              f"{run['device']['name']}, ceiling {fmt((run.get('ceiling') or {}).get('gbps'), 4)} GB/s)\n")
        if banks:
            head = ['variant', *swept, 'conflict degree', 'predicted slowdown', 'measured slowdown', 'measured/predicted speed']
        elif gops:
            head = ['variant', *swept, 'sectors/req', 'efficiency', 'predicted Gop/s', 'measured Gop/s', 'measured/predicted speed']
        else:
            head = ['variant', *swept, 'sectors/req', 'conflict', 'predicted % of copy', 'measured % of copy', 'measured/predicted speed']
        print('| ' + ' | '.join(head) + ' |')
        print('|' + '---|' * len(head))
        notes = {}
        for r in rs:
            p = r.get('prediction') or {}
            point = [str(r['params'][k]) for k in swept]
            if banks:
                cells = [fmt(p.get('conflict_degree')), fmt(p.get('slowdown')), fmt(r.get('slowdown')), fmt(p.get('ratio'))]
            elif gops:
                cells = [fmt(p.get('sectors_per_request')), fmt(p.get('efficiency')), fmt(p.get('gops'), 4),
                         fmt(r.get('gops'), 4), fmt(p.get('ratio'))]
            else:
                cells = [fmt(p.get('sectors_per_request')), fmt(p.get('conflict_degree')), fmt(p.get('pct')),
                         fmt(r.get('ceiling_pct')), fmt(p.get('ratio'))]
            mark = '' if r.get('verified') else ' ✗'
            print('| ' + ' | '.join([r['variant'] + mark, *point, *cells]) + ' |')
            if p.get('departure'):
                notes.setdefault((r['variant'], p['ratio'] > 1), []).append((point, p['departure']))
        for (variant, _), where in notes.items():
            pts = ', '.join('/'.join(pt) for pt, _ in where)
            print(f"\n- **{variant}** at {'/'.join(swept)} = {pts}: {where[-1][1]}")


if __name__ == '__main__':
    main()
