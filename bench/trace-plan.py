#!/usr/bin/env python3
"""Trace every variant (and custom kernel) of a plan's runs as a runner would
after measuring them, at each run's smallest point (every list or range at its
least value), with warps of LANES (default 32, NVIDIA's), and print the traced
figures beside the declared ones: a markdown table, one row per variant.
Needs Oclgrind and the build (BIN, default build). Standard library only.

usage: bench/trace-plan.py PLAN [LANES]
"""
import json
import os
import subprocess
import sys

BIN = os.environ.get('BIN', 'build')


def least(spec):
    if isinstance(spec, list):
        return min(spec)
    if isinstance(spec, dict):
        return spec['from']
    return spec


def fmt(v):
    return '–' if v is None else f'{v:.4g}'


def main():
    plan = json.load(open(sys.argv[1]))
    lanes = int(sys.argv[2]) if len(sys.argv) > 2 else 32
    catalog = json.load(open('kernels/catalog.json'))
    exps = {e['id']: e for e in catalog['experiments']}
    print('| run | variant | traced at | sectors/request traced / declared | conflict traced / declared | efficiency traced / declared | agree |')
    print('|---|---|---|---|---|---|---|')
    agree_all = True
    for run in plan:
        e = exps[run['experiment']]
        params = {k: least(v) for k, v in run.get('params', {}).items()}
        kernels = []
        for k in run.get('kernels', []):
            k = dict(k)
            if 'source_file' in k:
                k['source'] = open(k.pop('source_file')).read()
            kernels.append(k)
        names = run.get('variants') or [v['id'] for v in e['variants']]
        items = [(n, {'variants': [n]}) for n in names] + [(k['name'], {'variants': [], 'kernels': [k]}) for k in kernels]
        for name, part in items:
            spec = {'experiment': e['id'], 'params': params, 'lanes': lanes, **part}
            p = subprocess.run([f'{BIN}/warplab-runner', '--kernels', 'kernels', '--trace', json.dumps(spec)],
                               capture_output=True, text=True)
            if p.returncode:
                print(f"| {run.get('label')} | {name} | not traced: {p.stderr.strip().splitlines()[-1]} | | | | |")
                agree_all = False
                continue
            o = json.loads(p.stdout)
            t, d = o['traced'], o['declared'] or {}
            same = (d != {} and all((t[k] is None) == (d.get(k) is None) for k in ('sectors_per_request', 'conflict_degree'))
                    and all(t[k] is None or abs(t[k] - d[k]) < 1e-9 for k in ('sectors_per_request', 'conflict_degree'))
                    and (t['efficiency'] is None or abs(t['efficiency'] - d['efficiency']) <= 0.01))
            if d:
                agree_all &= same
            print(f"| {run.get('label')} | {name} | {o['point']} | {fmt(t['sectors_per_request'])} / {fmt(d.get('sectors_per_request'))} | "
                  f"{fmt(t['conflict_degree'])} / {fmt(d.get('conflict_degree'))} | {fmt(t['efficiency'])} / {fmt(d.get('efficiency'))} | "
                  f"{'yes' if same else 'no' if d else 'nothing declared'} |")
    print(f'\nevery declared variant agrees with its trace: {"yes" if agree_all else "no"}')


if __name__ == '__main__':
    main()
