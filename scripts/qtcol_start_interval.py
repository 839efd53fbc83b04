"""QtCol's fairness against when its five flows start: the check behind claim qt-5's reason
(reference/claim_reasons.yaml). QtCol never refreshes its minimum RTT, so the shares the flows reach in the
first round trips last the whole run; this runs the qt_multiflow point (5 flows, 5 BDP buffer, 400 s,
deterministic) with the flows started `start_interval` s apart (the authors' script: 0.1 s) and prints
Jain's index and utilization per alpha and interval (about 3 s of CPU per run).

    python scripts/qtcol_start_interval.py --alpha 1.1 1.2 --interval 0.05 0.1 0.2 0.3 0.5 1.0
"""
import argparse

from simulator import registry

POINT = {"model": "dumbbell", "algorithm": "qtcol", "flows": 5, "buffer_bdp": 5.0, "duration": 400.0,
         "warmup": 10.0}      # config/studies/qtcol/qt_multiflow.yaml's QtCol point


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--alpha", type=float, nargs="+", default=[1.1, 1.2])
    ap.add_argument("--interval", type=float, nargs="+", default=[0.05, 0.1, 0.2, 0.3, 0.5, 1.0])
    a = ap.parse_args(argv)
    print("alpha,start_interval_s,jain,utilization")
    for alpha in a.alpha:
        for interval in a.interval:
            m = registry.run({**POINT, "alpha": alpha, "start_interval": interval}, 1)["metrics"]
            print(f"{alpha},{interval},{m['jain']:.4f},{m['utilization']:.4f}", flush=True)


if __name__ == "__main__":
    main()
