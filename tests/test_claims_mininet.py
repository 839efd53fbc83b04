"""Claims mn-1 / mn-2 of the Mininet paper on hand-made tables and traces, and on the real tables
when they exist: decided by the engine (simulator/report/claim_engine.py) from their decide blocks in
reference/claims.yaml through the workflow's entry simulator/report/papers/mininet/claims.py; the per-seed
trace statistics are simulator/report/papers/mininet/claim_functions.py."""
import math
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

ROOT = Path(__file__).resolve().parents[1]
from simulator.report.claim_rule import VERDICTS
from simulator.report import claim_rule  # noqa: E402
from simulator.report import claims_common as cc  # noqa: E402
from simulator.report.papers.mininet import claims as cm  # noqa: E402
from simulator.report.papers.mininet import claim_functions as mf  # noqa: E402

ALGS = ("bbr", "reno", "vegas", "cubic")
CHANGES = ("static", "fluctuating")
SEEDS = (1, 2, 3)
T = np.round(np.arange(0, 40, 0.1), 1)


def table(goodput_warm=None, inflight=None, n=10):
    """Long table: goodput_mbps, goodput_warm_mbps and median_inflight for every algorithm and change."""
    goodput_warm = goodput_warm or {}
    inflight = inflight or {"bbr": 340, "reno": 400, "vegas": 300, "cubic": 1000}
    rows = []
    for change in CHANGES:
        for alg in ALGS:
            for metric, mean in (("goodput_mbps", 9.0), ("goodput_warm_mbps", goodput_warm.get(alg, 9.5)),
                                 ("median_inflight", inflight[alg])):
                sd = 0.1 * mean / 9.5
                half = 2.262 * sd / np.sqrt(n)
                rows.append({"study": mf.STUDY, "paper": "mininet", "point": f"algorithm~{alg}/change~{change}",
                             "algorithm": alg, "change": change, "bottleneck_mbps": 10, "metric": metric,
                             "mean": mean, "sd": sd, "n": n, "ci_low": mean - half, "ci_high": mean + half,
                             "run_p025": mean - 2 * sd, "run_p975": mean + 2 * sd,
                             "run_min": mean - 3 * sd, "run_max": mean + 3 * sd})
    return pd.DataFrame(rows)


def cwnd_series(alg, seed):
    """Vegas and Reno flat; BBR flat with a dip every 10 s (ProbeRTT-like); CUBIC irregular swings."""
    if alg == "vegas":
        return np.full(len(T), 300.0)
    if alg == "reno":
        return 400 + 5 * np.sin(T / 3.0)
    if alg == "bbr":
        return np.where(((T + 0.1 * seed) % 10.0) < 0.5, 4.0, 680.0)
    rng = np.random.default_rng(seed)                       # CUBIC: mean-reverting noise, sd about 450
    x, out = 0.0, np.empty(len(T))
    for i, e in enumerate(rng.normal(0, 400, len(T))):
        x = 0.5 * x + e
        out[i] = x
    return np.clip(1000 + out, 50, None)


def traces(ramp):
    """Per seed, alg and change: throughput ramps linearly to 9.6 Mbit/s in ramp[alg] seconds."""
    frames = []
    for change in CHANGES:
        for alg in ALGS:
            for seed in SEEDS:
                r = ramp[alg] + 0.05 * seed
                frames.append(pd.DataFrame({
                    "study": mf.STUDY, "algorithm": alg, "change": change, "seed": seed, "t": T,
                    "throughput_mbps_0": 9.6 * np.minimum(T / r, 1.0), "cwnd_0": cwnd_series(alg, seed)}))
    return pd.concat(frames, ignore_index=True)


def verdicts(rows):
    """The claims' verdicts (the poster's quoted number has rows of its own: tests/test_published_numbers.py)."""
    return {(r["item"], r["variant"]): r["verdict"] for r in rows if r["item"].startswith("mn-")}


def note_of(notes, item, variant="static"):
    return next(n["note"] for n in notes if n["item"] == item and n["variant"] == variant)


FAST_CUBIC = {"bbr": 8, "reno": 5, "vegas": 6, "cubic": 2}


def test_rows_have_every_scorecard_column():
    rows, notes = cm.build(table(), traces(FAST_CUBIC))
    assert all(list(r) == cc.SCORECARD_COLUMNS for r in rows) and len(rows) == len(notes) == 4 + 2   # + the poster's number
    assert all(r["rule"] == claim_rule.RULE for r in rows if r["item"].startswith("mn-"))


def test_mn1_reproduced_when_cubic_ramps_fastest_and_all_settle():
    rows, notes = cm.build(table(), traces(FAST_CUBIC))
    v = verdicts(rows)
    assert v[("mn-1", "static")] == v[("mn-1", "fluctuating")] == "reproduced"
    note = note_of(notes, "mn-1")
    assert "3 seeds in the traces" in note and "7/7 comparisons hold significantly" in note and "Parts: (a)" in note
    row = next(r for r in rows if r["item"] == "mn-1")
    assert row["metric"] == "goodput_warm_mbps" and row["ours_mean"] == pytest.approx(9.5) and row["n_seeds"] == 10
    assert 0 <= row["p_value"] < 0.05


def test_mn1_contradicted_when_cubic_is_slow_early():
    rows, notes = cm.build(table(), traces({"bbr": 8, "reno": 2, "vegas": 6, "cubic": 5}))
    assert verdicts(rows)[("mn-1", "static")] == "contradicted"
    assert "(a) cubic mn_early_mbps" in note_of(notes, "mn-1") and "reversed" in note_of(notes, "mn-1")


def test_mn1_contradicted_when_one_algorithm_does_not_settle():
    rows, notes = cm.build(table(goodput_warm={"vegas": 4.0}), traces(FAST_CUBIC))
    assert verdicts(rows)[("mn-1", "static")] == "contradicted"
    assert "(b) bottleneck_mbps=10 vegas goodput_warm_mbps 4 > 8.194: reversed" in note_of(notes, "mn-1")


def test_mn1_inconclusive_when_cubic_ties_or_sits_at_the_threshold():
    rows, _ = cm.build(table(), traces({"bbr": 8, "reno": 2, "vegas": 6, "cubic": 2}))
    assert verdicts(rows)[("mn-1", "static")] == "inconclusive"             # same ramp as Reno: a tie
    rows, _ = cm.build(table(goodput_warm={"vegas": 8.2}), traces(FAST_CUBIC))
    assert verdicts(rows)[("mn-1", "static")] == "inconclusive"             # 8.2 +- 0.09 vs 8.19


def test_mn1_per_seed_values_of_every_seed_are_compared():
    tr = traces(FAST_CUBIC)
    per = mf.seed_stats(tr[tr["change"] == "static"], "cubic")
    assert sorted(per["seed"]) == list(SEEDS) and per["early_mbps"].nunique() == len(SEEDS)
    one = tr[tr["seed"] == 1]
    rows, notes = cm.build(table(), one)
    # one seed in the traces: the early-throughput comparisons cannot be tested
    assert verdicts(rows)[("mn-1", "static")] == "inconclusive"
    assert "1 seed in the traces" in note_of(notes, "mn-1") and "one seed" in note_of(notes, "mn-1")


def test_mn1_threshold_follows_the_tables_link_rate():
    """(b) is 85% of the goodput ceiling of the rate the table records (bottleneck_mbps x 1448/1502)."""
    fast = table().assign(bottleneck_mbps=20)            # ceiling 19.28, threshold 16.39: 9.5 is far below
    rows, notes = cm.build(fast, traces(FAST_CUBIC))
    assert verdicts(rows)[("mn-1", "static")] == "contradicted"
    assert "(b) bottleneck_mbps=20 cubic goodput_warm_mbps 9.5 > 16.39: reversed" in note_of(notes, "mn-1")
    assert "Goodput ceiling 19.28 Mbit/s" in note_of(notes, "mn-1")


def test_per_seed_statistics_and_their_cache():
    tr = traces(FAST_CUBIC)
    static = tr[tr["change"] == "static"]
    assert mf.seed_stats(static, "vegas")["cwnd_median"].tolist() == [300.0] * 3
    other = static.assign(cwnd_0=900.0)                  # another traces object: computed anew
    assert mf.seed_stats(other, "vegas")["cwnd_median"].tolist() == [900.0] * 3
    assert mf.seed_stats(static, "vegas")["cwnd_median"].tolist() == [300.0] * 3
    # CUBIC ramps to 9.6 Mbit/s in 2.05-2.15 s: its 1 s mean reaches 90% of 9.64 about 0.5 s later
    assert all(2.4 <= t <= 2.8 for t in mf.t90(static, "cubic", 10 * mf.GOODPUT_SHARE))
    with pytest.raises(mf.Missing):
        mf.seed_stats(static[static["algorithm"] != "bbr"], "bbr")


def test_mn2_reproduced_on_the_paper_shaped_cwnd_and_contradicted_when_vegas_is_not_lowest():
    tr = traces(FAST_CUBIC)
    rows, notes = cm.build(table(), tr)
    assert verdicts(rows)[("mn-2", "static")] == "reproduced"
    assert "10/10 comparisons hold significantly" in note_of(notes, "mn-2")
    tr.loc[tr["algorithm"] == "vegas", "cwnd_0"] = 900.0   # Vegas now holds more than Reno and BBR
    rows, notes = cm.build(table(inflight={"bbr": 340, "reno": 400, "vegas": 900, "cubic": 1000}), tr)
    assert verdicts(rows)[("mn-2", "static")] == "contradicted"
    assert "(b) vegas mn_cwnd_median 900 < reno" in note_of(notes, "mn-2")
    assert "Cross-check (not scored)" in note_of(notes, "mn-2")


def test_mn2_inconclusive_on_a_tie_and_contradicted_when_bbr_does_not_repeat():
    tr = traces(FAST_CUBIC)
    reno = tr[tr["algorithm"] == "reno"]
    tr.loc[tr["algorithm"] == "vegas", "cwnd_0"] = reno["cwnd_0"].to_numpy()   # Vegas's median = Reno's
    rows, notes = cm.build(table(), tr)
    assert verdicts(rows)[("mn-2", "static")] == "inconclusive"
    assert "(b) vegas mn_cwnd_median 398.4 < reno 398.4: tie (closer than the metric's resolution)" in note_of(notes, "mn-2")
    tr = traces(FAST_CUBIC)
    bbr = tr["algorithm"] == "bbr"
    tr.loc[bbr, "cwnd_0"] = 680 + np.random.default_rng(7).normal(0, 60, bbr.sum())  # white noise: no repeat
    rows, notes = cm.build(table(), tr)
    assert verdicts(rows)[("mn-2", "static")] == "contradicted"
    assert re.search(r"\(c\) bbr mn_cwnd_regularity [0-9.]+ > 0.5: reversed", note_of(notes, "mn-2"))


def test_regularity_finds_the_period_of_a_dip_train_and_none_in_a_trend():
    t = np.arange(10, 60, 0.1)
    r, period = mf.regularity(t, np.where((t % 8.0) < 0.5, 4.0, 680.0))
    assert r > 0.8 and period == pytest.approx(8.0, abs=0.15)
    assert mf.regularity(t, 600 - t)[0] == 0.0                 # smooth drift: no repeat
    assert np.isnan(mf.regularity(t, np.full(len(t), 5.0))[0])  # constant: undefined


def test_not_testable_without_traces_and_without_rows():
    rows, notes = cm.build(table(), None)
    assert set(verdicts(rows).values()) == {"not_testable"}
    assert all(math.isnan(r["p_value"]) and r["rule"] == "" for r in rows)
    assert {r["verdict"] for r in rows if not r["item"].startswith("mn-")} <= {"inside", "outside", "missing"}
    # no table rows of the fluctuating path: mn-1 lacks its goodput rows; mn-2's criteria are all trace
    # statistics, so it is decided without the table's cross-check and headline
    rows, notes = cm.build(table()[lambda d: d["change"] == "static"], traces(FAST_CUBIC))
    assert verdicts(rows)[("mn-1", "fluctuating")] == "not_testable"
    assert "missing results: (b) no table rows" in note_of(notes, "mn-1", "fluctuating")
    assert verdicts(rows)[("mn-2", "fluctuating")] == "reproduced"
    assert "table median in-flight missing" in note_of(notes, "mn-2", "fluctuating")
    assert next(r for r in rows if r["item"] == "mn-2" and r["variant"] == "fluctuating")["n_seeds"] == 0
    assert len(rows) == len(notes) == 4 + 2
    rows, _ = cm.build(pd.DataFrame(), None)
    assert set(verdicts(rows).values()) == {"not_testable"} and len(rows) == 4 + 2
    rows, notes = cm.build(table()[lambda d: d["algorithm"] != "vegas"], traces(FAST_CUBIC))
    assert verdicts(rows)[("mn-1", "static")] == "not_testable" and "vegas goodput_warm_mbps" in note_of(notes, "mn-1")


@pytest.mark.slow
def test_real_tables_give_both_claims_with_allowed_verdicts(tmp_path, built_report):
    """Tables and traces of the tiny test profile's real run (fixture built_report)."""
    real_table = built_report / "results" / "tables" / "mn_high_latency.csv"
    real_traces = built_report / "results" / "traces" / "mn_high_latency.csv"
    out, notes = tmp_path / "mn.csv", tmp_path / "mn_notes.csv"
    r = subprocess.run([sys.executable, "-m", "simulator.report.papers.mininet.claims",
                        "--tables", str(real_table), "--traces", str(real_traces), "--out", str(out),
                        "--notes", str(notes)], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    card, nt = pd.read_csv(out), pd.read_csv(notes)
    assert list(card.columns) == cc.SCORECARD_COLUMNS
    assert set(card["paper"]) == {"mininet"}
    claims = card[card["item"].isin(["mn-1", "mn-2"])]      # then the poster's quoted number, one row per path
    assert sorted(zip(claims["item"], claims["variant"])) == sorted(
        (i, v) for i in ("mn-1", "mn-2") for v in CHANGES)
    assert set(claims["verdict"]) <= set(VERDICTS)
    assert set(card.loc[~card.index.isin(claims.index), "verdict"]) <= {"inside", "outside", "missing"}
    claim_notes = nt[nt["item"].isin(["mn-1", "mn-2"])]      # the quoted number's notes follow
    assert len(claim_notes) == len(claims) and claim_notes["note"].str.len().min() > 50
    assert len(nt) == len(card)
