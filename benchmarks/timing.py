"""Shared by the benchmark scripts: best-of-n wall-clock timing and the common command line."""
import argparse
import time


def best_time(fn, repeat):
    """Smallest wall-clock time of `repeat` calls of fn, and the last call's result."""
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        out = fn()
        best = min(best, time.perf_counter() - t0)
    return best, out


def parse_args(doc, option, **kw):
    """Command line of a benchmark script: its one size option (`option`, add_argument keywords
    kw) and --repeat; the description is the first line of the script's docstring `doc`."""
    ap = argparse.ArgumentParser(description=doc.splitlines()[0])
    ap.add_argument(option, **kw)
    ap.add_argument("--repeat", type=int, default=3, help="best of this many runs")
    return ap.parse_args()
