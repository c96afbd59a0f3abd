#!/usr/bin/env python3
"""A tuning bench searched for energy (bench/plans/tuning-energy*.json): for
each run of OUT (run-*.json, model-*.json) whose request tunes for energy or
for both, its wall time and the share spent on energy, and at each size the
server's sentences, the front (objective both) and the least energy beside
the fastest. Standard library only.

usage: tune-energy.py OUT_DIR
"""
import glob
import json
import sys


def main():
    out = sys.argv[1]
    for path in sorted(glob.glob(f'{out}/run-*.json')) + sorted(glob.glob(f'{out}/model-*.json')):
        run = json.load(open(path))
        tune = run['request'].get('tune') or {}
        if tune.get('objective', 'time') == 'time':
            continue
        budget = run.get('budget') or {}
        print(f"## run {run['id']}: {run['request'].get('label', '')} ({tune['objective']}, {tune.get('strategy')})")
        print(f"results {len(run['results'])}, energy measured {sum(1 for r in run['results'] if r.get('energy'))}, "
              f"energy_ms {budget.get('energy_ms')}, started {run.get('started_at')}, finished {run.get('finished_at')}")
        for size in run['tuning']['sizes']:
            print(f"- at {size['at']}: {size['best_sentence']}")
            energy = size.get('energy') or {}
            print(f"  {energy.get('sentence')}")
            if size.get('model_sentence'):
                print(f"  {size['model_sentence']}")
            for c in energy.get('front') or []:
                print(f"  front: {c['label']} {c['variant']} {c['median_ms']:.4f} ms {c['energy_j'] * 1e3:.3f} mJ")
        print(f"summary: {run['tuning']['summary']}")


if __name__ == '__main__':
    main()
