#!/usr/bin/env python3
"""A tuning bench's figures (bench/tune-after.sh): for each model-strategy run
(OUT/model-*.json) whose space an exhaustive run of the plan (OUT/run-*.json)
also measured, at each size: the configurations measured against the space,
the best the model's run measured against the exhaustive best (per cent
slower), and the model's rank against the measured (Spearman's rho, as the
run reports it). A run searched for energy is scored on joules per launch
(the exhaustive run's least energy the reference). Standard library only.

usage: tune-score.py OUT_DIR
"""
import glob
import json
import sys


def figure(r, by_energy):
    if by_energy:
        return (r.get('energy') or {}).get('j_per_launch')
    return r.get('median_ms')


def best_by_size(run, tuned, by_energy):
    out = {}
    for r in run['results']:
        if not r.get('verified') or not figure(r, by_energy):
            continue
        at = tuple(sorted((k, v) for k, v in r['params'].items() if k not in tuned))
        if at not in out or figure(r, by_energy) < out[at][0]:
            out[at] = (figure(r, by_energy), r['variant'], {k: r['params'][k] for k in tuned})
    return out


def main():
    out = sys.argv[1]
    exhaustive = [json.load(open(p)) for p in sorted(glob.glob(f'{out}/run-*.json'))]
    print('| run | size | measured / space | model best | exhaustive best | model slower by | rho | gap to best predicted |')
    print('|---|---|---|---|---|---|---|---|')
    for path in sorted(glob.glob(f'{out}/model-*.json')):
        run = json.load(open(path))
        tune = run['request']['tune']
        tuned = tune['params']
        by_energy = tune.get('objective') == 'energy'
        key = 'energy_j' if by_energy else 'median_ms'
        ref = next((e for e in exhaustive if e['experiment'] == run['experiment']
                    and (not by_energy or e['request'].get('energy'))), None)
        ref_best = best_by_size(ref, tuned, by_energy) if ref else {}
        for size in run['tuning']['sizes']:
            at = tuple(sorted(size['at'].items()))
            model = size['model'] or {}
            mine = size['best']
            theirs = ref_best.get(at)
            slower = f"{100 * (mine[key] / theirs[0] - 1):.1f}%" if mine and mine.get(key) and theirs else '–'
            rho = model.get('spearman')
            gap = model.get('gap')
            print(f"| {run['id']} {run['experiment']} | {dict(at)} | {size['configurations']} / {model.get('ranked')} | "
                  f"{mine['variant'] if mine else '–'} {mine['config'] if mine else ''} {mine.get(key) if mine else ''}{' J' if by_energy else ''} | "
                  f"{(theirs[1] + ' ' + str(theirs[2]) + ' ' + str(theirs[0])) if theirs else '–'} | {slower} | "
                  f"{'–' if rho is None else f'{rho:.2f}'} | {'–' if gap is None else f'{gap:.3f}'} |")


if __name__ == '__main__':
    main()
