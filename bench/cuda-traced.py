#!/usr/bin/env python3
"""A catalog measured in CUDA beside the same catalog in OpenCL, both by
bench/gpu.sh on one machine (the CUDA one with AFTER=bench/compiler-after.sh):
how many CUDA results carry a trace of their own CUDA kernel and whether it
agrees with the declaration, the model within 2x, the CUDA prediction against
its OpenCL twin's, each variant's traced sites against its OpenCL twin's, and
the compiler's account of every CUDA variant. Standard library only.

usage: bench/cuda-traced.py CUDA_OUT OPENCL_OUT
"""
import glob
import json
import sys


def runs(out):
    for path in sorted(glob.glob(f'{out}/run-*.json')):
        yield json.load(open(path))


def key(run, r):
    return (run['experiment'], r['variant'], json.dumps(r['params'], sort_keys=True))


def sites(trace):
    t = (trace.get('figures') or {}).get('traced') or {}
    return [(s['op'], s['space'], s.get('sectors_per_request'), s.get('conflict_degree'), round(s['requests'], 3))
            for s in t.get('sites', [])]


def main():
    cuda_out, opencl_out = sys.argv[1], sys.argv[2]
    twin = {}
    twin_sites = {}
    for run in runs(opencl_out):
        for r in run['results']:
            twin[key(run, r)] = r.get('prediction') or {}
        for t in run.get('traces', []):
            twin_sites[(run['experiment'], t['variant'])] = sites(t)
    n = with_trace = agrees = disagrees = within2 = scored = near_twin = compared = 0
    far = []
    variants_traced = variants_same = 0
    trace_errors = []
    for run in runs(cuda_out):
        for t in run.get('traces', []):
            if 'error' in (t.get('figures') or {}):
                trace_errors.append(f"{run['experiment']}/{t['variant']}: {t['figures']['error']}")
                continue
            variants_traced += 1
            if sites(t) == twin_sites.get((run['experiment'], t['variant'])):
                variants_same += 1
            else:
                far.append(f"sites {run['experiment']}/{t['variant']}: {sites(t)} vs {twin_sites.get((run['experiment'], t['variant']))}")
        for r in run['results']:
            p = r.get('prediction') or {}
            n += 1
            if p.get('traced') or p.get('source') == 'traced':
                with_trace += 1
            if p.get('trace_agrees') is True:
                agrees += 1
            elif p.get('trace_agrees') is False:
                disagrees += 1
            # The model's ratio as bench/model-score.py reads it.
            if p.get('ratio'):
                scored += 1
                within2 += max(p['ratio'], 1 / p['ratio']) <= 2
            # Predicted time, or slowdown where the family predicts one.
            o = twin.get(key(run, r))
            what = 'ms' if p.get('ms') else 'slowdown'
            if o and o.get(what) and p.get(what):
                compared += 1
                if abs(p[what] / o[what] - 1) <= 0.10:
                    near_twin += 1
                else:
                    far.append(f"prediction {key(run, r)}: {p[what]:.4g} vs OpenCL {o[what]:.4g} ({what})")
    accounted = total_variants = 0
    missing = []
    for path in glob.glob(f'{cuda_out}/compiler-*.json'):
        c = json.load(open(path))
        for v in c.get('variants', []):
            total_variants += 1
            builds = v.get('builds', [])
            if builds and all(b['figures'].get('registers') is not None and b.get('ptx') for b in builds):
                accounted += 1
            else:
                missing.append(f"run {c['run']} {v['id']}")
    print(f'CUDA results: {n}; with a trace of their own CUDA kernel: {with_trace}; '
          f'trace agrees with the declaration at its point: {agrees}, disagrees: {disagrees}')
    print(f'model within 2x: {within2} of {scored}')
    print(f'prediction within 10% of the OpenCL twin\'s: {near_twin} of {compared}')
    print(f'variants traced in CUDA: {variants_traced}, their sites equal to the OpenCL twin\'s: {variants_same}')
    print(f'compiler\'s account (registers and PTX) on CUDA variants: {accounted} of {total_variants}')
    for line in trace_errors + far[:20] + missing[:20]:
        print('  ' + line)


if __name__ == '__main__':
    main()
