"""How much one validation cell moves when the flows' start spacing moves by fractions of a millisecond,
in ns-3 3.44 and in our dumbbell: evidence for the chapter "Agreement with ns-3" on a deterministic
several-flow cell, whose single run per side may sit anywhere in that spread (needs the `ns3` extra;
one ns-3 process per spacing, ~15 s start-up each).

    python scripts/start_sensitivity.py algorithm~newreno/bottleneck_mbps~10/buffer_pkts~9/flows~5

Flow i starts at i x spacing s; the spacings are the study's (0.1 s) and --steps more, --step-ms apart
(default 0.1000, 0.1005, ..., 0.1020 s).  Prints per spacing both sides' utilization and mean RTT, then
per side the mean and sd over the spacings and the difference of the means.
"""
import argparse
import json
import statistics
import subprocess
import sys

STUDY = "config/studies/validation_ns3.yaml"


def cell_params(cell_path, spacing):
    """The dumbbell's full parameters of the cell (as run_cell's ns-3 side builds them), flows `spacing` s apart."""
    from simulator.scenarios import dumbbell
    from simulator.validation.cells import load_cells, ours_params

    _, cells = load_cells(STUDY)
    cell = next(c for c in cells if c.path == cell_path)
    return cell, {**ours_params(cell), "start_interval": spacing}


def ours(cell_path, spacing):
    from simulator.validation.run_cell import our_metrics

    _, p = cell_params(cell_path, spacing)
    return our_metrics(p, 1)


def ns3(cell_path, spacing):
    """ns-3's run in a process of its own (ns3_dumbbell.run runs once per process)."""
    code = ("import json, sys; sys.path.insert(0, 'scripts'); import start_sensitivity as s; "
            f"print(json.dumps(s.ns3_here({cell_path!r}, {spacing!r})))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def ns3_here(cell_path, spacing):
    from simulator.scenarios import dumbbell
    from simulator.validation import ns3_dumbbell

    cell, p = cell_params(cell_path, spacing)
    full = dumbbell.params_with_defaults(p)
    return ns3_dumbbell.run(full, 1, dumbbell.buffer_packets(full), float(cell.params.get("loss_fwd_pct") or 0.0))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("cell", help="the cell's grid point path in " + STUDY)
    ap.add_argument("--steps", type=int, default=4, help="spacings after the study's own")
    ap.add_argument("--step-ms", type=float, default=0.5, help="ms between spacings")
    a = ap.parse_args()
    spacings = [round(0.1 + k * a.step_ms / 1000, 6) for k in range(a.steps + 1)]
    rows = {"ours": [], "ns3": []}
    print("spacing_s  ns3_util_%  ours_util_%  ns3_rtt_ms  ours_rtt_ms")
    for s in spacings:
        o, n = ours(a.cell, s), ns3(a.cell, s)
        rows["ours"].append(o)
        rows["ns3"].append(n)
        print(f"{s:.4f} {100 * n['utilization_warm']:10.2f} {100 * o['utilization_warm']:11.2f} "
              f"{n['mean_rtt_ms']:11.1f} {o['mean_rtt_ms']:12.1f}", flush=True)
    for side, rs in rows.items():
        u = [100 * r["utilization_warm"] for r in rs]
        print(f"{side}: utilization mean {statistics.mean(u):.2f}%, sd {statistics.stdev(u):.2f} pp, "
              f"range {min(u):.2f}-{max(u):.2f}%")
    diff = statistics.mean(100 * r["utilization_warm"] for r in rows["ours"]) - \
        statistics.mean(100 * r["utilization_warm"] for r in rows["ns3"])
    print(f"ours - ns-3, means over the spacings: {diff:+.2f} pp")


if __name__ == "__main__":
    main()
