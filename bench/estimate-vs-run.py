#!/usr/bin/env python3
"""What the estimate says before a device has run an experiment, against what
the run then takes: for each catalog experiment at its defaults, in a fresh
lab, one after another, POST /api/runs/estimate (its "kernels_s":
the model's least and most), then the run itself — its kernels' time (each result's median
times its timed launches) and its time from start to end. The model's
estimate times the kernels alone, so it is held against both. Standard
library only: it runs on the GPU machine (bench/estimate-after.sh).

usage: estimate-vs-run.py BASE_URL OUT_DIR [--language cuda]
"""
import argparse
import json
import os
import sys
import time
from datetime import datetime

sys.path.insert(0, os.path.dirname(__file__))
from lab import call  # noqa: E402


def seconds(run):
    """The run's time from start to end; 0 where it never started."""
    if not run.get('started_at') or not run.get('finished_at'):
        return 0
    t = [datetime.fromisoformat(run[k].replace('Z', '+00:00')) for k in ('started_at', 'finished_at')]
    return (t[1] - t[0]).total_seconds()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('base')
    ap.add_argument('out')
    ap.add_argument('--language')
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    exps = call(a.base, 'GET', '/api/experiments')[1]['experiments']
    rows = []
    for e in exps:
        body = {'experiment': e['id']}
        if a.language:
            body['language'] = a.language
        asked = time.monotonic()
        st, est = call(a.base, 'POST', '/api/runs/estimate', body)
        answer_ms = 1000 * (time.monotonic() - asked)
        if st != 200:
            rows.append((e['id'], f'estimate refused: {est}'))
            continue
        st, posted = call(a.base, 'POST', '/api/runs', body)
        if st != 201:
            rows.append((e['id'], f'run refused: {posted}'))
            continue
        while True:
            run = call(a.base, 'GET', f"/api/runs/{posted['id']}")[1]
            if run['status'] in ('done', 'failed', 'cancelled'):
                break
            time.sleep(0.1)
        with open(os.path.join(a.out, f"{e['id']}.json"), 'w') as f:
            json.dump({'estimate': est, 'run': run}, f)
        kernels = sum((r.get('median_ms') or 0) * (r.get('reps') or 0) for r in run['results']) / 1000
        reps = sorted(r.get('reps') or 0 for r in run['results'])
        k = est.get('kernels_s') or {}
        rows.append((e['id'], est['measurements'], k.get('least'), k.get('most'),
                     answer_ms, kernels, reps[len(reps) // 2] if reps else 0, seconds(run), run['status']))
    print('| experiment | measurements | kernels by the model: least – most | answered in | kernels measured '
          '| launches (median) | run, start to end | measured / least | run / least |')
    print('|---|---|---|---|---|---|---|---|---|')
    for r in rows:
        if len(r) == 2:
            print(f'| {r[0]} | {r[1]} | | | | | | | |')
            continue
        exp, n, least, most, ms, kernels, reps, run_s, status = r
        ratio = lambda x, y: f'{x / y:.2f}' if x and y else '–'
        span = '–' if least is None else f'{least:.3g} – {most:.3g} s'
        print(f"| {exp} | {n} | {span} | {ms:.0f} ms | {kernels:.3g} s | {reps} | "
              f"{run_s:.3g} s{'' if status == 'done' else ' (' + status + ')'} | {ratio(kernels, least)} | "
              f"{ratio(run_s, least)} |")


if __name__ == '__main__':
    main()
