"""Run one cell of a validation study with one seed in one simulator; write its JSON record.

    python -m simulator.validation.run_cell --study config/studies/validation_ns3.yaml \
        --cell algorithm~cubic/bottleneck_mbps~100/buffer_pkts~690/flows~1 --seed 1 --side ns3 --out x.json

`--side ours` runs the dumbbell model through the registry (the run a study's job makes); `--side
ns3` builds the same cell in ns-3 (simulator/validation/ns3_dumbbell.py) in this process, which is
why the workflow gives every ns-3 cell a job of its own. Both records carry the metrics the
agreement table compares (simulator/validation/agreement.py METRICS).
"""
import argparse
import json
import sys
from pathlib import Path

from simulator import registry
from simulator.study_errors import StudyError
from simulator.validation.cells import load_cells, ours_params


def our_metrics(params, seed) -> dict:
    """Our dumbbell's run of `params`, in the agreement table's terms: utilization at the in-order edge, as
    ns-3's PacketSink counts it (the dumbbell's own utilization_warm, every packet that reached the receiver,
    is kept as utilization_warm_received)."""
    m = registry.run(params, seed)["metrics"]
    return {"utilization_warm": m["utilization_warm_in_order"], "utilization_warm_received": m["utilization_warm"],
            "mean_rtt_ms": m["mean_rtt_ms"], "jain": m["jain"],
            "retransmissions": round(m["plr"] * m["sent"]), "sent": m["sent"], "timeouts": m["timeouts"]}


def ns3_metrics(cell, seed) -> dict:
    """ns-3's run of the cell: the dumbbell's full parameters (its defaults, buffer in packets)."""
    from simulator.scenarios import dumbbell
    from simulator.validation import ns3_dumbbell

    p = dumbbell.params_with_defaults(ours_params(cell, seed))
    return ns3_dumbbell.run(p, seed, dumbbell.buffer_packets(p), float(cell.params.get("loss_fwd_pct") or 0.0))


def record(study_file, cell_path, seed, side) -> dict:
    study, cells = load_cells(study_file)
    by_path = {c.path: c for c in cells}
    if cell_path not in by_path:
        raise StudyError(f"{study_file}: no cell {cell_path!r}; the study has {len(cells)}, e.g. {cells[0].path!r}")
    cell = by_path[cell_path]
    run = ours_params(cell, seed)
    out = {"study": study.name, "cell": cell.path, "seed": seed, "side": side, "params": cell.params,
           "notes": cell.notes}
    if run.get("start_interval") != cell.params.get("start_interval"):
        out["start_interval_s"] = run["start_interval"]      # this seed's start spacing (cells.moves_start)
    if side == "ns3":
        out["metrics"] = ns3_metrics(cell, seed)
    else:
        out["metrics"] = our_metrics(run, seed)
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--study", required=True, help="validation study YAML")
    ap.add_argument("--cell", required=True, help="grid point path of the cell")
    ap.add_argument("--seed", type=int, required=True, help="seed index (ns-3: RngRun)")
    ap.add_argument("--side", choices=("ours", "ns3"), required=True, help="which simulator")
    ap.add_argument("--out", required=True, help="JSON record to write")
    a = ap.parse_args(argv)
    try:
        rec = record(a.study, a.cell, a.seed, a.side)
    except StudyError as e:
        print(e, file=sys.stderr)
        return 2
    Path(a.out).parent.mkdir(parents=True, exist_ok=True)
    Path(a.out).write_text(json.dumps(rec, indent=1, sort_keys=True) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
