"""simulator/report/aggregate.py: statistics of a hand-made set of runs."""
import json
import math
from pathlib import Path

import numpy as np
import pytest
from scipy import stats

from simulator import run_records
from simulator.report import aggregate

ROOT = Path(__file__).resolve().parents[1]

PARAMS = {"model": "mm1", "variant": "standard", "algorithm": "reno", "lambda": 5.0, "mu": 10.0, "K": 5,
          "theta": None, "N": 100, "trace": True}
THROUGHPUT = [4.0, 5.0, 7.0, 4.5, 6.5]


def record(point, seed, throughput, delay, lam=5.0):
    return {
        "study": "s", "paper": "mm1", "point_path": point, "params": {**PARAMS, "lambda": lam}, "seed": seed,
        "metrics": {"throughput": throughput, "avg_delay": delay, "label": "x"},
        "trace": {"t": [0.0, 1.0 * seed], "cwnd": [1, seed]},
        "provenance": {"simulator_version": "0", "git_commit": "0", "python": "3"},
    }


@pytest.fixture
def jsonl_files(tmp_path):
    a = [record("lambda~5", s, x, 0.1 * s) for s, x in zip(range(1, 6), THROUGHPUT)]
    a[2]["metrics"]["avg_delay"] = float("nan")  # e.g. a run that served nothing
    b = [record("lambda~7", s, 1.0, 0.2, lam=7.0) for s in (2, 1)]
    files = []
    for i, recs in enumerate([a[:3], a[3:], b]):
        f = tmp_path / f"{i}.jsonl"
        f.write_text("".join(run_records.seal(r) + "\n" for r in recs))
        files.append(f)
    return files


def test_table_statistics_match_scipy(jsonl_files):
    df = aggregate.table(aggregate.read_records(jsonl_files))
    assert list(df.columns) == ["study", "paper", "point", "model", "variant", "algorithm", "lambda", "mu", "K",
                                "theta", "N", "metric"] + aggregate.STAT_COLUMNS
    assert list(df["point"]) == ["lambda~5", "lambda~5", "lambda~7", "lambda~7"]
    assert list(df["metric"]) == ["throughput", "avg_delay"] * 2  # non-numeric 'label' left out
    row = df[(df.point == "lambda~5") & (df.metric == "throughput")].iloc[0]
    x = np.array(THROUGHPUT)
    lo, hi = stats.t.interval(0.95, len(x) - 1, loc=x.mean(), scale=stats.sem(x))
    assert row["n"] == 5
    assert row["mean"] == pytest.approx(x.mean())
    assert row["sd"] == pytest.approx(x.std(ddof=1))
    assert (row["ci_low"], row["ci_high"]) == (pytest.approx(lo), pytest.approx(hi))
    assert row["run_p025"] == pytest.approx(np.percentile(x, 2.5))
    assert row["run_p975"] == pytest.approx(np.percentile(x, 97.5))
    assert (row["run_min"], row["run_max"]) == (4.0, 7.0)
    assert math.isinf(row["theta"])  # theta null = no deadline


def test_nan_runs_are_left_out_of_n(jsonl_files):
    df = aggregate.table(aggregate.read_records(jsonl_files))
    row = df[(df.point == "lambda~5") & (df.metric == "avg_delay")].iloc[0]
    assert row["n"] == 4
    assert row["mean"] == pytest.approx(np.mean([0.1, 0.2, 0.4, 0.5]))


def test_constant_values_give_zero_width_interval(jsonl_files):
    df = aggregate.table(aggregate.read_records(jsonl_files))
    row = df[(df.point == "lambda~7") & (df.metric == "throughput")].iloc[0]
    assert (row["n"], row["sd"], row["ci_low"], row["ci_high"]) == (2, 0.0, 1.0, 1.0)


def test_single_run_has_no_interval():
    s = aggregate.summarize([3.0])
    assert s["n"] == 1 and s["mean"] == 3.0 and math.isnan(s["sd"]) and math.isnan(s["ci_low"])


JAIN_NEAR_ONE = [0.9958, 0.9993, 0.9862, 1.0, 0.9979]  # like BBR's 2-flow runs: the t-interval passes 1


def test_jain_interval_stays_below_one():
    x = np.array(JAIN_NEAR_ONE)
    t_hi = stats.t.interval(0.95, len(x) - 1, loc=x.mean(), scale=stats.sem(x))[1]
    assert t_hi > 1  # the plain t-interval would leave the index's range
    s = aggregate.summarize(JAIN_NEAR_ONE, aggregate.BOUNDED["jain"])
    assert s["ci_low"] < s["mean"] < s["ci_high"] <= 1.0
    assert s["mean"] == pytest.approx(x.mean()) and s["sd"] == pytest.approx(x.std(ddof=1))


def test_bounded_interval_near_the_middle_is_close_to_the_t_interval():
    x = [0.45, 0.52, 0.48, 0.55, 0.50]
    lo, hi = stats.t.interval(0.95, 4, loc=np.mean(x), scale=stats.sem(x))
    s = aggregate.summarize(x, (0.0, 1.0))
    assert (s["ci_low"], s["ci_high"]) == (pytest.approx(lo, abs=2e-3), pytest.approx(hi, abs=2e-3))


def test_bounded_interval_of_values_on_a_bound_has_zero_width():
    assert aggregate.bounded_ci(0.0, 0.0, (0.0, 1.0)) == (0.0, 0.0)
    assert aggregate.bounded_ci(1.0, 0.01, (0.0, 1.0)) == (1.0, 1.0)
    s = aggregate.summarize([0.0, 0.0, 0.002], (0.0, 1.0))  # a PLR: the lower end stays above 0
    assert 0.0 < s["ci_low"] < s["mean"] < s["ci_high"] < 1.0


def test_only_bounded_metrics_get_the_bounded_interval():
    recs = [{"study": "s", "paper": "qtcol", "point_path": "p", "params": {"model": "dumbbell"}, "seed": i,
             "metrics": {"jain": j, "goodput_mbps": j}} for i, j in enumerate(JAIN_NEAR_ONE, start=1)]
    df = aggregate.table(recs).set_index("metric")
    assert df.loc["jain", "ci_high"] <= 1.0 < df.loc["goodput_mbps", "ci_high"]
    assert set(aggregate.BOUNDED) == {"jain", "plr", "loss_drop_ratio"}


def test_duplicate_seed_is_an_error(jsonl_files):
    recs = aggregate.read_records(jsonl_files)
    with pytest.raises(ValueError, match="twice"):
        aggregate.table(recs + recs[:1])


def test_traces_first_seeds(jsonl_files):
    df = aggregate.traces(aggregate.read_records(jsonl_files), n_seeds=3)
    assert list(df.columns)[:3] == ["study", "paper", "point"] and list(df.columns)[-3:] == ["seed", "t", "cwnd"]
    assert "trace" not in df.columns
    assert sorted(set(df[df.point == "lambda~5"].seed)) == [1, 2, 3]
    assert sorted(set(df[df.point == "lambda~7"].seed)) == [1, 2]
    assert len(df) == 2 * 5
