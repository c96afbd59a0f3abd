#!/usr/bin/env python3
"""A shared tuning run's figures (bench/gpu.sh with SHARED=1): for each run in
OUT (run-*.json), its wall time from start to finish, how many results each
device measured and how many verified. Standard library only.

usage: shared-split.py OUT_DIR [LABEL]
"""
import collections
import glob
import json
import sys
from datetime import datetime


def at(text):
    return datetime.fromisoformat(text.replace('Z', '+00:00'))


def main():
    label = sys.argv[2] if len(sys.argv) > 2 else ''
    for path in sorted(glob.glob(f'{sys.argv[1]}/run-*.json')):
        run = json.load(open(path))
        split = collections.Counter(r.get('device_id') for r in run['results'])
        wall = (at(run['finished_at']) - at(run['started_at'])).total_seconds()
        verified = sum(1 for r in run['results'] if r.get('verified'))
        print(f"{label} run {run['id']}: wall {wall:.2f} s, {dict(split)}, {verified} of {len(run['results'])} verified")


if __name__ == '__main__':
    main()
