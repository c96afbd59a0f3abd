#!/usr/bin/env python3
"""How well the model predicts kernels it was never tuned on: the holdout
suite's custom kernels and the variants of its own experiments
(bench/holdout/, submitted without an accesses declaration, so predicted from
their traces). For every such result with a prediction ratio (predicted ms
over measured ms) a row per kernel and point, then the summary: points,
within 2x, 1.5x and 1.25x, the median and the geometric-mean factor (factor =
max(r, 1/r)). A point without a ratio is a miss, counted per reason (no
prediction, the prediction's error, still pending, a prediction without a
time, not measured). With --by-kind the summary has a row per kind of kernel
(bench/holdout/kinds.json).
Reads bench/lab.py's run JSONs (OUT_DIR/run-*.json). Standard library only.

usage: holdout-score.py OUT_DIR [--by-kind]
"""
import glob
import itertools
import json
import math
import os
import statistics
import sys

KINDS = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'holdout', 'kinds.json')


def load_runs(out_dir):
    runs = []
    for path in glob.glob(os.path.join(out_dir, 'run-*.json')):
        with open(path) as f:
            runs.append(json.load(f))
    return sorted(runs, key=lambda r: r['id'])


def values(spec):
    """A request parameter's values: a value, a list or a range."""
    if isinstance(spec, list):
        return spec
    if isinstance(spec, dict):
        out, v = [], spec['from']
        while v <= spec['to']:
            out.append(v)
            v = v * spec['mul'] if 'mul' in spec else v + spec.get('step', 1)
        return out
    return [spec]


def expected_points(run):
    """Every point of the run's request, as sorted (name, value) tuples."""
    params = run['request'].get('params', {})
    names = list(params)
    return {tuple(sorted(zip(names, combo))) for combo in itertools.product(*(values(params[k]) for k in names))}


def miss_reason(result):
    """Why a measured custom result has no ratio (None: it has one)."""
    if result.get('median_ms') is None:
        return 'not measured: ' + (result.get('error') or 'no time')
    p = result.get('prediction')
    if p is None:
        return 'no prediction'
    if p.get('pending'):
        return 'prediction pending'
    if p.get('error'):
        return 'prediction error: ' + p['error']
    if not p.get('ratio'):
        return 'prediction without a time' if p.get('ms') is None else 'no ratio'
    return None


def fmt(v, digits=4):
    return '–' if v is None else f'{v:.{digits}g}'


def summary_row(name, factors, misses):
    if not factors:
        return f'| {name} | 0 | – | – | – | – | – | {misses} |'
    geo = math.exp(sum(math.log(f) for f in factors) / len(factors))
    return (f'| {name} | {len(factors)} | {sum(f <= 2 for f in factors)} | {sum(f <= 1.5 for f in factors)} | '
            f'{sum(f <= 1.25 for f in factors)} | {statistics.median(factors):.3f} | {geo:.3f} | {misses} |')


def main():
    args = [a for a in sys.argv[1:] if not a.startswith('--')]
    if len(args) != 1:
        sys.exit(__doc__.strip().splitlines()[-1])
    by_kind = '--by-kind' in sys.argv
    kinds = {}
    if os.path.exists(KINDS):
        with open(KINDS) as f:
            kinds = json.load(f)
    rows, factors, misses = [], {}, {}
    for run in load_runs(args[0]):
        # An own experiment's run (the request keeps its definition): every
        # variant is the suite's; otherwise only the custom kernels are.
        own = 'definition' in run['request']
        if own:
            likes = {v['id']: None for v in run['request']['definition']['variants']}
        else:
            likes = {k['name']: k['like'] for k in run['request'].get('kernels', [])}
        if not likes:
            continue
        seen = set()
        for r in run['results']:
            if not (own or r.get('custom')):
                continue
            name = r['variant']
            group = kinds.get(name, {}).get('kind', '(not in kinds.json)') if by_kind else 'all'
            seen.add((name, tuple(sorted(r['params'].items()))))
            why = miss_reason(r)
            if why:
                misses.setdefault(group, {}).setdefault(why, []).append(name)
                continue
            p = r['prediction']
            ratio = p['ratio']
            factors.setdefault(group, []).append(max(ratio, 1 / ratio))
            point = ', '.join(f'{k}={v}' for k, v in r['params'].items())
            where = f"own {run['experiment']}" if own else f"{run['experiment']}/{likes.get(name, '?')}"
            rows.append(f"| {name} | {where} | {point} | {fmt(r['median_ms'])} | "
                        f"{fmt(p.get('ms'))} | {ratio:.3g} | {p.get('model') or ''} | {p.get('binding') or ''} | "
                        f"{'yes' if r.get('verified') else '–' if r.get('verified') is None else 'no'} |")
        # Points the run never reached (it failed, was cancelled or timed out).
        for name in likes:
            for point in expected_points(run):
                if (name, point) not in seen:
                    group = kinds.get(name, {}).get('kind', '(not in kinds.json)') if by_kind else 'all'
                    why = f"not measured: run {run['id']} {run['status']}" + (f" ({run['error']})" if run.get('error') else '')
                    misses.setdefault(group, {}).setdefault(why, []).append(name)
    print('| kernel | family/like | point | measured ms | predicted ms | predicted/measured | model | binding | verified |')
    print('|---|---|---|---|---|---|---|---|---|')
    print('\n'.join(rows))
    print('\n| ' + ('kind' if by_kind else 'set') + ' | points | within 2× | within 1.5× | within 1.25× | median factor | geometric-mean factor | misses |')
    print('|---|---|---|---|---|---|---|---|')
    groups = sorted(set(factors) | set(misses))
    every = [f for g in groups for f in factors.get(g, [])]
    nmiss = {g: sum(len(v) for v in misses.get(g, {}).values()) for g in groups}
    if by_kind:
        for g in groups:
            print(summary_row(g, factors.get(g, []), nmiss[g]))
    print(summary_row('**all**', every, sum(nmiss.values())))
    reasons = {}
    for g in groups:
        for why, names in misses.get(g, {}).items():
            reasons.setdefault(why, []).extend(names)
    print(f'\nmisses (points without a ratio): {sum(len(v) for v in reasons.values())}')
    for why, names in sorted(reasons.items(), key=lambda kv: -len(kv[1])):
        shown = ', '.join(sorted(set(names)))
        print(f'- {len(names)}: {why} — {shown}')


if __name__ == '__main__':
    main()
