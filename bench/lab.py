#!/usr/bin/env python3
"""Queue a plan of runs on a running warplab server, wait for them, save each run's
JSON and print a table of the results (median ms and GB/s or Gop/s per variant and
point, with the verified mark). Standard library only: it runs on the GPU machine.

A plan's custom kernel, or its own experiment (an "experiment" object), may
name its code with "source_file" (a path from the repository's root) instead
of "source"; the file's text is sent.

usage: lab.py BASE_URL PLAN.json OUT_DIR [--device ID] [--timeout SECONDS]
"""
import argparse
import json
import sys
import time
import urllib.error
import urllib.request


def call(base, method, path, body=None):
    data = json.dumps(body).encode() if body is not None else None
    req = urllib.request.Request(base + path, data=data, method=method,
                                 headers={'Content-Type': 'application/json'})
    try:
        with urllib.request.urlopen(req, timeout=60) as res:
            return res.status, json.load(res)
    except urllib.error.HTTPError as e:
        return e.code, json.load(e)


def fmt(v, digits=4):
    return '–' if v is None else f'{v:.{digits}g}'


def table(run):
    """Markdown: one row per variant, one column per point."""
    metric = 'gops' if any(r.get('gops') for r in run['results']) else 'gbps'
    unit = 'Gop/s' if metric == 'gops' else 'GB/s'
    names = list(run['request']['params'].keys())
    varying = [k for k in names if len({r['params'][k] for r in run['results']}) > 1] or names[:1]
    points, seen = [], set()
    for r in run['results']:
        key = tuple(r['params'][k] for k in varying)
        if key not in seen:
            seen.add(key)
            points.append(key)
    head = ', '.join(varying)
    lines = [f"| variant \\ {head} | " + ' | '.join(', '.join(map(str, p)) for p in points) + ' |',
             '|---|' + '---|' * len(points)]
    variants = [v['id'] for v in run['variants']] if 'variants' in run else run['request']['variants']
    for v in variants:
        cells = []
        for p in points:
            r = next((x for x in run['results'] if x['variant'] == v and
                      tuple(x['params'][k] for k in varying) == p), None)
            if r is None:
                cells.append('')
            elif r['median_ms'] is None:
                cells.append('failed')
            else:
                mark = '' if r['verified'] or r['verified'] is None else ' ✗'
                cells.append(f"{fmt(r[metric])} {unit} ({fmt(r['median_ms'])} ms){mark}")
        lines.append(f'| {v} | ' + ' | '.join(cells) + ' |')
    return '\n'.join(lines)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('base')
    ap.add_argument('plan')
    ap.add_argument('out')
    ap.add_argument('--device', default=None)
    ap.add_argument('--language', default=None, help='"cuda" or "opencl" for every run that names none')
    ap.add_argument('--timeout', type=float, default=480)
    args = ap.parse_args()
    with open(args.plan) as f:
        plan = json.load(f)
    ids = []
    for req in plan:
        if args.device and 'device' not in req:
            req = dict(req, device=args.device)
        if args.language and 'language' not in req and 'kernels' not in req:
            req = dict(req, language=args.language)
        if isinstance(req.get('experiment'), dict) and 'source_file' in req['experiment']:
            own = dict(req['experiment'])
            with open(own.pop('source_file')) as f:
                own['source'] = f.read()
            req = dict(req, experiment=own)
        if 'kernels' in req:
            kernels = []
            for k in req['kernels']:
                k = dict(k)
                if 'source_file' in k:
                    with open(k.pop('source_file')) as f:
                        k['source'] = f.read()
                kernels.append(k)
            req = dict(req, kernels=kernels)
        status, body = call(args.base, 'POST', '/api/runs', req)
        if status != 201:
            print(f'refused ({status}): {json.dumps(req)}: {body}', file=sys.stderr)
            continue
        ids.append(body['id'])
    deadline = time.time() + args.timeout
    runs = []
    for rid in ids:
        while True:
            _, run = call(args.base, 'GET', f'/api/runs/{rid}')
            # A finished run's traces follow it (explain), and its
            # predictions are made on the server's own thread: read again
            # until neither is pending.
            finished = run['status'] in ('done', 'failed', 'cancelled')
            if (finished and run.get('explain') != 'pending' and not run.get('predictions_pending')) \
                    or time.time() > deadline:
                break
            time.sleep(0.5 if not finished else 0.2)
        runs.append(run)
        with open(f'{args.out}/run-{rid}.json', 'w') as f:
            json.dump(run, f, indent=1)
    bad = 0
    for run in runs:
        dev = run.get('device') or {}
        print(f"\n### run {run['id']}: {run['experiment']} — {run.get('label') or ''}")
        print(f"device {dev.get('name')} ({dev.get('platform')}, driver {dev.get('driver')}), "
              f"status {run['status']}, {run['progress']['done']}/{run['progress']['total']}, "
              f"repeat {run['request']['repeat']}")
        if run.get('error'):
            print(f"error: {run['error']}")
        b = run.get('budget')
        if b:
            print('time: ' + ', '.join(f"{k[:-3]} {b.get(k, 0):.0f} ms" for k in
                                      ('total_ms', 'kernel_ms', 'launch_ms', 'inputs_ms', 'transfer_ms',
                                       'verify_ms', 'build_ms', 'store_ms', 'counters_ms', 'other_ms')))
        if run['results']:
            print(table(run))
        # A result of a check of "none" is not checked (null), not wrong.
        unverified = [r for r in run['results'] if r['verified'] is False]
        bad += len(unverified) + (run['status'] != 'done')
        for r in unverified[:5]:
            print(f"  unverified: {r['variant']} {r['params']}: {r['error']}")
    print(f"\n{len(runs)} runs, {sum(len(r['results']) for r in runs)} points, {bad} problems")
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
