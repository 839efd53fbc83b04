"""The cost of an algorithm written in Python: the example study examples/custom_cc/newreno_in_python.yaml
(dumbbell, 100 Mbit/s, several flows, random loss) run with the built-in `newreno` and with its Python
re-implementation (examples/custom_cc/newreno_in_python.py), the same random numbers for both; prints
wall time of each and the slowdown (Python / compiled), and checks the metrics are identical.
    python benchmarks/custom_cc_speed.py [--duration 30] [--repeat 3]
"""
import json

from simulator import registry
from simulator.study import load_study
from timing import best_time, parse_args      # benchmarks/ is on sys.path when run as a script

STUDY = "examples/custom_cc/newreno_in_python.yaml"   # paths in it are relative to the repository root


def main():
    args = parse_args(__doc__, "--duration", type=float, default=30.0, help="simulated seconds per run")
    study = load_study(STUDY)
    runs = {p.values["algorithm"]: registry.resolve({**p.params, "duration": args.duration}) for p in study.points()}
    p0 = next(iter(runs.values()))
    key = registry.key(runs["newreno"], 1)     # one run key: the same random losses for both
    print(f"{STUDY}: {p0['flows']} flows, {p0['bottleneck_mbps']} Mbit/s, loss {p0['loss_fwd_pct']}%, "
          f"{args.duration:g} s simulated, best of {args.repeat}")
    print(f"{'algorithm':<14}{'wall s':>8}{'events/s':>14}{'ACKs/s':>12}")
    walls, metrics = {}, {}
    for name, p in runs.items():
        walls[name], out = best_time(lambda: registry.scenario("dumbbell").run(p, key), args.repeat)
        m = metrics[name] = out["metrics"]
        print(f"{name:<14}{walls[name]:>8.3f}{m['events'] / walls[name]:>14,.0f}{m['acks'] / walls[name]:>12,.0f}")
    same = len({json.dumps(m, sort_keys=True) for m in metrics.values()}) == 1
    print(f"slowdown of the Python algorithm: {walls['mynewreno'] / walls['newreno']:.2f}x; "
          f"metrics identical: {same}")


if __name__ == "__main__":
    main()
