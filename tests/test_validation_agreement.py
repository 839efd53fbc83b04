"""The agreement table of the ns-3 validation (simulator/validation/agreement.py) and its bounds, on
run records built here: no ns-3 needed."""
import json

import pandas as pd
import pytest

from simulator.validation import agreement


def write_run(folder, cell, side, seed=1, missing=False, **metrics):
    params = {"model": "dumbbell", "algorithm": "cubic", "bottleneck_mbps": 100, "buffer_pkts": 690, "flows": 1}
    record = {"study": "v", "cell": cell, "seed": seed, "side": side, "params": params, "notes": ""}
    if not missing:
        record["metrics"] = {"utilization_warm": 0.9, "mean_rtt_ms": 100.0, "jain": 1.0, "retransmissions": 10,
                             **metrics}
    path = folder / f"{cell}_{side}_{seed}.json"
    path.write_text(json.dumps(record))
    return path


def table_of(tmp_path, cells):
    """cells: cell -> (ours metrics or None: no metrics, ns-3 metrics)."""
    files = []
    for cell, (ours, ns3) in cells.items():
        files.append(write_run(tmp_path, cell, "ns3", **ns3))
        files.append(write_run(tmp_path, cell, "ours", missing=True) if ours is None
                     else write_run(tmp_path, cell, "ours", **ours))
    return agreement.agreement_table(agreement.read_runs(files)).set_index("cell")


def test_differences_are_ours_minus_ns3_utilization_in_points_rtt_relative(tmp_path):
    t = table_of(tmp_path, {"a": ({"utilization_warm": 0.95, "mean_rtt_ms": 110.0, "jain": 0.9, "retransmissions": 4},
                                  {"utilization_warm": 0.94, "mean_rtt_ms": 100.0, "jain": 0.8, "retransmissions": 10})})
    row = t.loc["a"]
    assert row["d_utilization_pp"] == pytest.approx(1.0)
    assert row["d_mean_rtt_pct"] == pytest.approx(10.0)
    assert row["d_jain"] == pytest.approx(0.1)
    assert row["d_retransmissions"] == -6
    assert row["agrees"] is True or row["agrees"] == True   # noqa: E712
    assert row["loss_fwd_pct"] == 0.0                         # no loss key: the model's default, none


@pytest.mark.parametrize("util, rtt, inside", [(0.919, 100.0, True), (0.921, 100.0, False), (0.9, 114.9, True),
                                               (0.9, 115.1, False), (0.9, 84.9, False), (0.879, 100.0, False)])
def test_a_cell_agrees_only_inside_both_bounds(tmp_path, util, rtt, inside):
    t = table_of(tmp_path, {"a": ({"utilization_warm": util, "mean_rtt_ms": rtt}, {})})
    assert bool(t.loc["a", "agrees"]) is inside


def test_a_cell_missing_a_sides_metrics_is_not_compared(tmp_path):
    t = table_of(tmp_path, {"a": ({}, {}), "b": (None, {})})
    assert pd.isna(t.loc["b", "agrees"])
    c = agreement.counts(t.reset_index())
    assert c == {"cells": 2, "compared": 1, "inside": 1, "outside": 0, "not_compared": 1}


def test_a_cells_value_is_the_mean_over_its_seeds(tmp_path):
    files = [write_run(tmp_path, "a", "ns3", seed=s, utilization_warm=u) for s, u in ((1, 0.8), (2, 0.9))]
    files += [write_run(tmp_path, "a", "ours", seed=s, utilization_warm=u) for s, u in ((1, 0.7), (2, 0.8))]
    t = agreement.agreement_table(agreement.read_runs(files))
    assert t.loc[0, "ns3_utilization_warm"] == pytest.approx(0.85)
    assert t.loc[0, "d_utilization_pp"] == pytest.approx(-10.0)
    assert t.loc[0, "seeds"] == 2 and t.loc[0, "agrees"] == False   # noqa: E712


def test_the_command_writes_the_table_and_prints_the_counts(tmp_path, capsys):
    files = [str(write_run(tmp_path, "a", side)) for side in ("ours", "ns3")]
    out = tmp_path / "t" / "agreement.csv"
    assert agreement.main(["--runs", *files, "--out", str(out)]) == 0
    assert json.loads(capsys.readouterr().out)["inside"] == 1
    assert pd.read_csv(out)["agrees"].tolist() == [True]


def test_the_p_of_each_bounded_difference_follows_the_books_rule(tmp_path):
    ours, ns3 = (0.60, 0.70, 0.65, 0.62, 0.68), (0.62, 0.66, 0.71, 0.64, 0.69)
    files = [write_run(tmp_path, "a", "ours", seed=s, utilization_warm=u) for s, u in enumerate(ours, 1)]
    files += [write_run(tmp_path, "a", "ns3", seed=s, utilization_warm=u) for s, u in enumerate(ns3, 1)]
    files += [write_run(tmp_path, "b", side) for side in ("ours", "ns3")]
    t = agreement.agreement_table(agreement.read_runs(files)).set_index("cell")
    from scipy import stats
    assert t.loc["a", "p_utilization"] == pytest.approx(stats.ttest_ind(ours, ns3, equal_var=False).pvalue)
    assert t.loc["a", "p_mean_rtt"] == 1.0                  # every seed 100 ms on both sides: equal by value
    assert t.loc["a", "ours_n"] == 5 and t.loc["a", "ours_utilization_warm_sd"] == pytest.approx(pd.Series(ours).std())
    assert pd.isna(t.loc["b", "p_utilization"])            # one seed a side: no test
