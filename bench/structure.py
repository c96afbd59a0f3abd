#!/usr/bin/env python3
"""The shape of warplab's C, in figures: files over 600 lines, functions over
100, include circles between modules, and includes that cross the layering.

A module is a .c/.h pair (same folder and stem). Module A depends on B when a
file of A includes B's header. A header with no .c of its own (a family's
private header, the store's backend table) is not a module: an include of it
counts as an include of what it includes. A circle is a strongly connected set of modules.
The layering is the one docs/architecture.md draws; the build enforces it with
per-folder include paths, and this script says the same thing in words.

    bench/structure.py            print the report
    bench/structure.py --check    exit 1 if any limit or layer is broken
"""
import os
import re
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
FOLDERS = ["common", "store", "catalog", "server", "runner", "tools"]
FILE_LIMIT = 600
FUNCTION_LIMIT = 100
# Which folders a folder's files may include (besides their own).
ALLOWED = {
    "common": set(),
    "store": {"common"},
    "catalog": {"common"},
    "server": {"common", "store", "catalog"},
    "runner": {"common", "store", "catalog"},
    "tools": {"common", "store", "catalog"},
}
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def sources():
    for folder in FOLDERS:
        path = os.path.join(ROOT, folder)
        if not os.path.isdir(path):
            continue
        for name in sorted(os.listdir(path)):
            if name.endswith((".c", ".h")):
                yield folder, name


def header_home():
    """header file name -> folder it lives in"""
    return {name: folder for folder, name in sources() if name.endswith(".h")}


def functions(text):
    """(name, first line, lines) of each function body that opens with '{' in
    column 0, as the house style writes them."""
    lines = text.split("\n")
    out = []
    i = 0
    while i < len(lines):
        if lines[i] == "{" and i > 0:
            head = lines[i - 1]
            j = i - 1
            while j > 0 and "(" not in lines[j]:
                j -= 1
            m = re.search(r"(\w+)\s*\(", lines[j])
            name = m.group(1) if m else head.strip()
            k = i + 1
            while k < len(lines) and lines[k] != "}":
                k += 1
            out.append((name, j + 1, k - j + 1))
            i = k
        i += 1
    return out


def circles(graph):
    """Strongly connected components of more than one module (Tarjan)."""
    index, low, stack, on, result = {}, {}, [], set(), []
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                result.append(sorted(comp))

    sys.setrecursionlimit(10000)
    for v in sorted(graph):
        if v not in index:
            visit(v)
    return result


def main():
    check = "--check" in sys.argv
    homes = header_home()
    big_files, big_functions, crossings = [], [], []
    graph = {}
    total = {}
    for folder, name in sources():
        path = os.path.join(ROOT, folder, name)
        with open(path, encoding="utf-8") as f:
            text = f.read()
        n = text.count("\n")
        total[folder] = total.get(folder, 0) + n
        if name.endswith(".c") and n > FILE_LIMIT:
            big_files.append((n, f"{folder}/{name}"))
        for fn, line, length in functions(text):
            if length > FUNCTION_LIMIT:
                big_functions.append((length, f"{folder}/{name}:{line} {fn}"))
        module = f"{folder}/{name[:-2]}"
        for inc in INCLUDE.findall(text):
            base = os.path.basename(inc)
            home = homes.get(base)
            if home is None:
                continue
            target = f"{home}/{base[:-2]}"
            if target != module:
                graph.setdefault(module, set()).add(target)
            if home != folder and home not in ALLOWED.get(folder, set()):
                crossings.append(f"{folder}/{name} includes {home}/{base}")
    stems = {f"{folder}/{name[:-2]}" for folder, name in sources() if name.endswith(".c")}
    for header in sorted(set(graph) | {t for ts in graph.values() for t in ts}):
        if header in stems:
            continue
        through = graph.pop(header, set())
        for deps in graph.values():
            if header in deps:
                deps.discard(header)
                deps.update(through)
    for module, deps in graph.items():
        deps.discard(module)
    found = circles(graph)
    print("lines per folder: " + ", ".join(f"{k} {v}" for k, v in total.items()))
    print(f"C files over {FILE_LIMIT} lines: {len(big_files)}")
    for n, p in sorted(big_files, reverse=True):
        print(f"  {n:5d} {p}")
    print(f"functions over {FUNCTION_LIMIT} lines: {len(big_functions)}")
    for n, p in sorted(big_functions, reverse=True):
        print(f"  {n:5d} {p}")
    print(f"module include circles: {len(found)}")
    for c in found:
        print("  " + " <-> ".join(c))
    print(f"includes across the layering: {len(crossings)}")
    for c in crossings:
        print("  " + c)
    if check and (big_files or big_functions or found or crossings):
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
