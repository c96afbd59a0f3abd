#!/usr/bin/env python3
"""bench/hostile-read.py SERVER_BIN RUNNER_BIN — what a custom kernel whose
declared accesses take seconds to simulate costs the server that reads its run:
the first read, a later read, and /api/health while eight clients read the
run's event stream at once. Starts its own server and runner on a fresh SQLite
store (PoCL), prints one line per figure (medians of a few tries)."""
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request

server_bin, runner_bin = sys.argv[1], sys.argv[2]
work = tempfile.mkdtemp(prefix="warplab-hostile-")
db = os.path.join(work, "w.db")
server = subprocess.Popen([server_bin, "--listen", "127.0.0.1:0", "--db", db, "--www", "www",
                           "--catalog", "kernels/catalog.json"], stderr=subprocess.PIPE, text=True)
port = None
for line in server.stderr:
    if "(port " in line:
        port = int(line.split("(port ")[1].split(")")[0])
        break
runner = subprocess.Popen([runner_bin, "--db", db, "--devices", "cpu", "--poll-ms", "100"],
                          stderr=subprocess.DEVNULL)
base = f"http://127.0.0.1:{port}"


def get(path, timeout=120):
    t = time.monotonic()
    with urllib.request.urlopen(base + path, timeout=timeout) as r:
        body = r.read()
    return time.monotonic() - t, body


def post(body):
    req = urllib.request.Request(base + "/api/runs", json.dumps(body).encode(), {"Content-Type": "application/json"})
    with urllib.request.urlopen(req) as r:
        return json.load(r)["id"]


try:
    source = json.loads(get("/api/experiments/transpose/variants/naive/source")[1])["template"].replace("mtran_naive", "slow")
    cond = lambda v: f"{v} < 160 + 0*({' + '.join([v] * 10)})"
    access = {"array": "idata", "space": "global", "op": "load", "bytes": 4, "index": "i + j + k + lid0",
              "loops": [{"var": v, "from": "0", "while": cond(v), "next": f"{v} + 1"} for v in "ijk"]}
    run = post({"experiment": "transpose", "params": {"n": 256}, "variants": [], "repeat": 1,
                "kernels": [{"name": "slow", "like": "naive", "source": source, "accesses": [access] * 8}]})
    while json.loads(get(f"/api/health")[1])["runs"]["done"] < 1:
        time.sleep(0.2)
    # Eight clients open the run's event stream at once (each reads its first
    # chunk and hangs up) while one asks for /api/health.
    firsts = []

    def stream():
        t = time.monotonic()
        with urllib.request.urlopen(base + f"/api/runs/{run}/events", timeout=120) as r:
            r.read1(65536)
        firsts.append(time.monotonic() - t)

    readers = [threading.Thread(target=stream) for _ in range(8)]
    for t in readers:
        t.start()
    time.sleep(0.05)
    health = get("/api/health")[0]
    for t in readers:
        t.join()
    print(f"/api/health while 8 streams of the run open: {health * 1000:.0f} ms")
    print(f"slowest of the 8 streams' first bytes: {max(firsts) * 1000:.0f} ms")
    reads = [get(f"/api/runs/{run}")[0] for _ in range(5)]
    print(f"reads of the run afterwards (median of 5): {statistics.median(reads) * 1000:.1f} ms")
finally:
    runner.terminate()
    server.terminate()
    runner.wait()
    server.wait()
