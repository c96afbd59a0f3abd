#!/usr/bin/env python3
"""Write the holdout suite's two plans from bench/holdout/kinds.json: the GPU
plan bench/plans/holdout.json (each family at a size that fits a 50 MB
last-level cache and one far beyond it) and bench/plans/holdout-small.json
(the same runs at the smallest legal sizes, for a CPU). Each family's kernels
go in runs of at most 8, built-ins left out but for the few named below.
Run from the repository's root after adding a kernel to kinds.json.
Standard library only.

A kernel no built-in variant can stand in for (it needs a buffer no harness
has, such as an index array) is a variant of an experiment of the suite's
own (docs/own-experiments.md): its kinds.json entry has "family": "own" and
"experiment": ID, the definition is bench/holdout/own/ID.json (its kernels'
source a "source_file", which bench/lab.py reads), and its sizes are in OWN
below. Each such experiment is one run of every variant it defines, put
before the copy runs.

With --language cuda it writes bench/plans/holdout-cuda.json instead: the GPU
plan's runs in CUDA ("language": "cuda" in every run), each custom kernel's
source its CUDA form bench/holdout/cuda/NAME.cu, and an own experiment's
bench/holdout/cuda/ID.cu. A kernel without one is left out (and a family
left with none, with it).

usage: python3 bench/holdout/make_plans.py [--language opencl|cuda]
"""
import argparse
import json
import os

KINDS = 'bench/holdout/kinds.json'
CUDA_DIR = 'bench/holdout/cuda'
OWN_DIR = 'bench/holdout/own'

# family: (GPU plan's params, small plan's params, built-in variants kept).
# The arithmetic behind the sizes is in bench/holdout/README.md. The copy
# family runs last and keeps float4: a run's ceiling is the best verified
# result of the latest copy run (custom kernels included), so a copy run of
# custom kernels before the others would become their ceiling, and without
# float4 it would be its own.
FAMILIES = [
    ('offset', {'offset': 1, 'n': [1048576, 67108864]}, {'offset': 1, 'n': 1024}, []),
    ('strided', {'stride': 4, 'n': [262144, 16777216]}, {'stride': 4, 'n': 1024}, []),
    ('transpose', {'n': [1024, 8192], 'tile': 32, 'rows': 8}, {'n': 64, 'tile': 32, 'rows': 8}, ['copy']),
    ('reduction', {'n': [2097152, 67108864], 'local': 256}, {'n': 2048, 'local': 256}, []),
    ('dot', {'n': [1048576, 67108864], 'items': 65536, 'local': 256}, {'n': 4096, 'items': 256, 'local': 256}, []),
    ('myadd', {'n': [512, 4096]}, {'n': 32}, []),
    ('minplus', {'n': [512, 2048]}, {'n': 40}, []),
    # c = 1 is banks' baseline (slowdowns are against it); c <= 7 keeps a
    # 1024-wide group's local buffer within Oclgrind's 32 KiB, so it traces.
    ('banks', {'c': [1, 4], 'local': 1024, 'groups': [2048, 65536], 'iters': 256},
     {'c': [1, 4], 'local': 128, 'groups': 4, 'iters': 32}, []),
    ('copy', {'n': [1048576, 67108864], 'local': 256}, {'n': 1024, 'local': 256}, ['float4']),
]
MOST_PER_RUN = 8

# The suite's own experiments: id: (GPU plan's params, small plan's params).
# holdout_chase's next[] is n uints: 4 MiB inside the last level, 256 MiB far
# beyond it; n = 4096 (256 work-items) on a CPU.
OWN = {
    'holdout_chase': ({'n': [1048576, 67108864]}, {'n': 4096}),
}


def even_runs(names):
    """names cut into the fewest runs of at most MOST_PER_RUN, evenly."""
    runs = -(-len(names) // MOST_PER_RUN)
    size = -(-len(names) // runs)
    return [names[i:i + size] for i in range(0, len(names), size)]


def cuda_source(name):
    """The path of the kernel's CUDA form, or None where it has none."""
    path = f'{CUDA_DIR}/{name}.cu'
    return path if os.path.isfile(path) else None


def own_runs(kinds, small, cuda):
    """One run per own experiment named in kinds.json, every variant of its
    definition, each of which must have its kinds.json entry."""
    runs = []
    for exp in sorted({k['experiment'] for k in kinds.values() if k['family'] == 'own'}):
        with open(f'{OWN_DIR}/{exp}.json') as f:
            definition = json.load(f)
        missing = [v['id'] for v in definition['variants'] if kinds.get(v['id'], {}).get('experiment') != exp]
        if missing:
            raise SystemExit(f'{OWN_DIR}/{exp}.json: variants without a kinds.json entry: {", ".join(missing)}')
        if cuda:
            source = cuda_source(exp)
            if not source:
                continue
            definition['source_file'] = source
        big_params, small_params = OWN[exp]
        runs.append({'experiment': definition, **({'language': 'cuda'} if cuda else {}),
                     'params': small_params if small else big_params, 'repeat': 20,
                     'label': f'holdout cuda own {exp}' if cuda else f'holdout own {exp}'})
    return runs


def plan(kinds, small, ceiling_n, language='opencl'):
    cuda = language == 'cuda'
    # The request's language right after its experiment (absent in OpenCL,
    # the default, so those plans stay as they were).
    lang = {'language': 'cuda'} if cuda else {}
    runs = [{'experiment': 'copy', **lang, 'params': {'n': ceiling_n}, 'repeat': 20,
             'label': 'copy ceiling, CUDA' if cuda else 'copy ceiling'}]
    for family, big_params, small_params, keep in FAMILIES:
        if family == 'copy':  # the copy runs stay last (see FAMILIES)
            runs += own_runs(kinds, small, cuda)
        names = [n for n, k in kinds.items() if k['family'] == family and (not cuda or cuda_source(n))]
        if not names:
            continue
        for i, part in enumerate(even_runs(names), 1):
            runs.append({'experiment': family, **lang, 'variants': keep,
                         'params': small_params if small else big_params, 'repeat': 20,
                         'label': f'holdout cuda {family} {i}' if cuda else f'holdout {family} {i}',
                         'kernels': [{'name': n, 'like': kinds[n]['like'],
                                      'source_file': cuda_source(n) if cuda else f'bench/holdout/{n}.cl'}
                                     for n in part]})
    return runs


def write(runs, path):
    """One line per run and per kernel, as the other plans are laid out (an
    own experiment's definition on a line of its own)."""
    lines = []
    for run in runs:
        kernels = run.pop('kernels', None)
        if isinstance(run['experiment'], dict):
            rest = {k: v for k, v in run.items() if k != 'experiment'}
            lines.append('  {"experiment":\n    ' + json.dumps(run['experiment']) + ',\n   ' + json.dumps(rest)[1:])
            continue
        text = json.dumps(run)
        if kernels:
            text = (text[:-1] + ',\n   "kernels": [\n' + ',\n'.join('     ' + json.dumps(k) for k in kernels)
                    + '\n   ]}')
        lines.append('  ' + text)
    with open(path, 'w') as f:
        f.write('[\n' + ',\n'.join(lines) + '\n]\n')


def main():
    ap = argparse.ArgumentParser(description='Write the holdout suite\'s plans.')
    ap.add_argument('--language', choices=['opencl', 'cuda'], default='opencl',
                    help='opencl (default): holdout.json and holdout-small.json; '
                         'cuda: holdout-cuda.json, the GPU plan with the CUDA forms')
    args = ap.parse_args()
    with open(KINDS) as f:
        kinds = json.load(f)
    if args.language == 'cuda':
        write(plan(kinds, False, 67108864, 'cuda'), 'bench/plans/holdout-cuda.json')
        return
    write(plan(kinds, False, 67108864), 'bench/plans/holdout.json')
    write(plan(kinds, True, 131072), 'bench/plans/holdout-small.json')


if __name__ == '__main__':
    main()
