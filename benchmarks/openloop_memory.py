"""Memory per active flow of the open-loop model (simulator/models/openloop_model.pyx): flows of 2 MB arrive at
0.5x, 20x and 80x what a 100 Mbit/s dumbbell carries, for 60 s, so they pile up; each run in its own process,
its peak RSS (VmHWM) against the most flows active at once. Prints figures; not a test.

    python benchmarks/openloop_memory.py
"""
import json
import subprocess
import sys

CHILD = r'''
import json, sys
from simulator.models.openloop_config import FlowClass, OpenLoopConfig
from simulator.models.openloop_model import OpenLoopModel
from simulator.net.topology import dumbbell
from simulator.tcp.cc import catalogue
from simulator.workloads import SizeDistribution, arrival_rate
load, duration = float(sys.argv[1]), float(sys.argv[2])
sizes = SizeDistribution("fixed", mean_bytes=2e6)
cls = FlowClass("f", "s0", "d0", lambda i: catalogue.build("cubic", catalogue.Stack("ns3", sack=True))[0], "poisson",
                rate=arrival_rate(load, 1e8, sizes, 1448, 1502), sizes=sizes)
out = OpenLoopModel("memory", OpenLoopConfig(dumbbell(1, 1e8, 0.01, 1000, 1e10, 1e-5), [cls], ("R1", "R2"),
                    duration=duration, sample_interval=1.0, tcp={"init_cwnd": 10.0, "rto_min": 0.2})).run()
rss = next(int(l.split()[1]) * 1024 / 1e6 for l in open("/proc/self/status") if l.startswith("VmHWM:"))
print(json.dumps({"load": load, "peak_active": out["peak_active"], "arrived": out["arrived"], "rss_mb": rss}))
'''
LOADS, DURATION = (0.5, 20.0, 80.0), 60.0


def main():
    runs = []
    for load in LOADS:
        done = subprocess.run([sys.executable, "-c", CHILD, repr(load), repr(DURATION)], capture_output=True, text=True)
        if done.returncode:
            sys.exit(done.stderr[-2000:])
        runs.append(json.loads(done.stdout))
        print(f"load {load:>5g}: {runs[-1]['arrived']:>8,} flows arrived, at most {runs[-1]['peak_active']:>7,} at once, "
              f"peak RSS {runs[-1]['rss_mb']:.1f} MB")
    lo, hi = runs[0], runs[-1]
    per_flow = (hi["rss_mb"] - lo["rss_mb"]) * 1e6 / (hi["peak_active"] - lo["peak_active"])
    print(f"memory per active flow: {per_flow / 1e3:.1f} kB (peak RSS difference over the difference in flows active at once)")


if __name__ == "__main__":
    main()
