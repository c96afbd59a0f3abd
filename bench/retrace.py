#!/usr/bin/env python3
"""Trace a SQLite store's undeclared custom kernels again with this build's
tracer (warplab-runner --trace), at every point of their runs, as the runner
would on the run's device (its warp width and compute units), and put the
traces in the store in place of those it holds. With bench/rescore.sh it
scores measurements recorded on a GPU with this build's model: the times are
the device's, the traces and the model this build's. Needs Oclgrind.

usage: retrace.py STORE [--bin build] [--kernels kernels] [--jobs N] [--runs 3,4]
Standard library only.
"""
import argparse
import concurrent.futures
import json
import sqlite3
import subprocess
import sys


def points(request):
    """The run's points as the catalog sweeps them: every combination of the
    request's parameter values (a value, a list, or a from/to/step or mul range)."""
    names, lists = [], []
    for name, spec in request['params'].items():
        if isinstance(spec, list):
            values = spec
        elif isinstance(spec, dict):
            values, v = [], spec['from']
            while v <= spec['to']:
                values.append(v)
                v = v * spec['mul'] if 'mul' in spec else v + spec.get('step', 1)
        else:
            values = [spec]
        names.append(name)
        lists.append(values)
    out = [{}]
    for name, values in zip(names, lists):
        out = [dict(p, **{name: v}) for p in out for v in values]
    return out


def trace(args, spec):
    cmd = [f'{args.bin}/warplab-runner', '--kernels', args.kernels, '--trace-seconds', str(args.seconds),
           '--trace', json.dumps(spec)]
    p = subprocess.run(cmd, capture_output=True, text=True)
    line = next((x for x in p.stdout.splitlines() if x.startswith('{')), None)
    if p.returncode == 0 and line:
        return line
    why = [x for x in p.stderr.splitlines() if '--trace: ' in x]
    return json.dumps({'error': why[-1].split('--trace: ', 1)[1] if why else 'the tracer did not finish'})


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('store')
    ap.add_argument('--bin', default='build')
    ap.add_argument('--kernels', default='kernels')
    ap.add_argument('--jobs', type=int, default=2)
    ap.add_argument('--seconds', type=int, default=60)
    ap.add_argument('--runs', default='')
    args = ap.parse_args()
    db = sqlite3.connect(args.store)
    want = {int(x) for x in args.runs.split(',') if x}
    jobs = []
    for rid, request, device in db.execute(
            'SELECT r.id, r.request, d.info FROM runs r LEFT JOIN devices d ON d.id = r.device_id'):
        if want and rid not in want:
            continue
        request = json.loads(request)
        info = json.loads(device or '{}')
        for k in request.get('kernels', []):
            if 'accesses' in k or request.get('language') == 'cuda':
                continue
            for p in points(request):
                spec = {key: request[key] for key in ('experiment', 'seed') if key in request}
                spec.update(params=p, variants=[], kernels=[k], lanes=info.get('warp_width') or 32,
                            compute_units=info.get('compute_units') or 0)
                jobs.append((rid, k['name'], p, spec))
    print(f'{len(jobs)} traces to take', file=sys.stderr)
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        done = list(pool.map(lambda j: (j, trace(args, j[3])), jobs))
    for (rid, name, p, _), figures in done:
        params = json.dumps(p, sort_keys=True, separators=(',', ':'))
        db.execute('DELETE FROM traces WHERE run_id = ? AND variant = ? AND params = ?', (rid, name, params))
        db.execute('INSERT INTO traces (run_id, variant, params, figures) VALUES (?, ?, ?, ?)',
                   (rid, name, params, figures))
        if '"error"' in figures[:20]:
            print(f'run {rid} {name} {p}: {json.loads(figures)["error"]}', file=sys.stderr)
    # Traces taken at other points by the runner that recorded them stay only
    # where no trace of this build's stands at the point.
    db.commit()
    print(f'{len(done)} traces stored', file=sys.stderr)


if __name__ == '__main__':
    main()
