"""Simulated packets per wall-clock second: compiled (Cython) vs interpreted (pure Python) path.

Same model (as_published M/M/1/K), same parameters, same seeds, measured in one run:
    python benchmarks/speed.py [--packets 200000] [--repeat 3]
Also prints the compiled standard-TCP model's rate.  Not a test: it only prints figures.
"""
import platform

import simulator
from simulator.interpreted import mm1_published as interpreted
from simulator.registry import key as run_key, resolve
from timing import best_time, parse_args      # benchmarks/ is on sys.path when run as a script


def main():
    args = parse_args(__doc__, "--packets", type=int, default=200_000, help="N per run")
    print(f"python {platform.python_version()}, simulator {simulator.__version__}, "
          f"N={args.packets}, best of {args.repeat}")
    print(f"{'model':<36}{'compiled pkt/s':>16}{'interpreted pkt/s':>19}{'ratio':>8}")
    ratios = []
    for alg in ["none", "published_tahoe", "published_reno", "published_cubic"]:
        p = {"model": "mm1", "variant": "as_published", "algorithm": alg, "lambda": 10, "mu": 10,
             "K": 5, "theta": 1, "N": args.packets}
        t_c, out = best_time(lambda: simulator.run(p, 0), args.repeat)
        key = run_key(resolve(p), 0)
        t_i, ref = best_time(lambda: interpreted.run(key, 10.0, 10.0, 5, 1.0, args.packets, alg),
                             args.repeat)
        assert ref["throughput"] == out["metrics"]["throughput"], "paths disagree"
        ratios.append(t_i / t_c)
        print(f"{'as_published/' + alg:<36}{args.packets / t_c:>16,.0f}{args.packets / t_i:>19,.0f}"
              f"{t_i / t_c:>7.1f}x")
    for alg in ["newreno", "cubic"]:
        p = {"model": "mm1", "variant": "standard", "algorithm": alg, "lambda": 10, "mu": 10,
             "K": 5, "theta": 1, "N": args.packets}
        t_c, out = best_time(lambda: simulator.run(p, 0), args.repeat)
        pk = out["metrics"]["sent"] + out["metrics"]["delivered_unique"]   # data + ACKs
        print(f"{'standard/' + alg:<36}{pk / t_c:>16,.0f}{'-':>19}{'':>8}  "
              f"(data+ACK packets; {out['metrics']['events'] / t_c:,.0f} events/s)")
    print(f"compiled/interpreted speed-up: min {min(ratios):.1f}x, "
          f"geometric mean {(__import__('math').prod(ratios)) ** (1 / len(ratios)):.1f}x")


if __name__ == "__main__":
    main()
