"""Claims of the NS-2 paper (simulator/report/claims_ns2.py): verdicts on small synthetic tables that
satisfy or contradict a claim, and a smoke test on the real tables when they exist."""
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

ROOT = Path(__file__).resolve().parents[1]
from simulator.report import claims_ns2  # noqa: E402
from simulator.report.verdicts import SCORECARD_COLUMNS, VERDICTS  # noqa: E402

FIXED = {"topology": "mesh", "flows": 3, "bandwidth_mbps": 1.0, "delay_ms": 100}


def row(study, algorithm, metric, mean, sd=0.01, n=10, **params):
    """One long-table row with the aggregate's columns; CI and run range from mean and sd."""
    p = dict(FIXED, **params)
    half = 2.262 * sd / n ** 0.5
    return {"study": study, "paper": "ns2", "point": f"algorithm~{algorithm}", "model": "ns2",
            "algorithm": algorithm, **p, "metric": metric, "mean": mean, "sd": sd, "n": n,
            "ci_low": mean - half, "ci_high": mean + half, "run_p025": mean - 2 * sd, "run_p975": mean + 2 * sd,
            "run_min": mean - 2.5 * sd, "run_max": mean + 2.5 * sd}


def topology_table(vegas_latency, other_latency, vegas_loss, other_loss, windows=(20, 0)):
    rows = []
    for window in windows:
        for top in ("linear", "star", "mesh"):
            for alg in ("reno", "newreno", "vegas"):
                v = alg == "vegas"
                sd_loss = 0.0 if (vegas_loss if v else other_loss) == 0 else 0.05
                rows += [row("ns2_topology", alg, "latency_mean_s", vegas_latency if v else other_latency,
                             topology=top, window=window),
                         row("ns2_topology", alg, "latency_sd_s", 0.05 if v else 0.2, topology=top, window=window),
                         row("ns2_topology", alg, "loss_pct", vegas_loss if v else other_loss, sd=sd_loss,
                             topology=top, window=window)]
    return pd.DataFrame(rows)


def queue_table(fq_latency, dt_latency, fq_loss, dt_loss, windows=(20, 0)):
    rows = []
    for window in windows:
        for alg in ("reno", "newreno", "vegas"):
            for q, lat, loss in (("fq", fq_latency, fq_loss), ("droptail", dt_latency, dt_loss)):
                rows += [row("ns2_queue", alg, "latency_mean_s", lat, queue=q, window=window),
                         row("ns2_queue", alg, "latency_max_s", 2 * lat, queue=q, window=window),
                         row("ns2_queue", alg, "loss_pct", loss, sd=0.0 if loss == 0 else 0.05, queue=q,
                             window=window)]
    return pd.DataFrame(rows)


def verdicts(tables, item):
    rows, notes = claims_ns2.build(tables, None)
    assert [r["item"] for r in rows] == [n["item"] for n in notes]
    return {r["variant"]: r["verdict"] for r in rows if r["item"] == item}


def test_every_claim_and_variant_has_a_row_even_without_data():
    rows, notes = claims_ns2.build(topology_table(0.3, 0.6, 0.5, 2.0), None)
    expected = {(c, v) for c in claims_ns2.CLAIM_IDS for v in claims_ns2.VARIANTS}
    assert {(r["item"], r["variant"]) for r in rows} == expected
    assert all(r["verdict"] in VERDICTS for r in rows) and all(set(r) == set(SCORECARD_COLUMNS) for r in rows)
    # claims whose study is missing are untestable, never a fake verdict
    assert verdicts(topology_table(0.3, 0.6, 0.5, 2.0), "ns2-6") == {"window20": "untestable", "nocap": "untestable"}


def test_ns2_2_reproduced_when_vegas_has_lowest_latency_and_loss():
    assert verdicts(topology_table(0.3, 0.6, 0.5, 2.0), "ns2-2") == {"window20": "reproduced", "nocap": "reproduced"}


def test_ns2_2_not_reproduced_when_vegas_latency_is_higher():
    assert verdicts(topology_table(0.7, 0.6, 0.5, 2.0), "ns2-2") == {"window20": "not_reproduced",
                                                                      "nocap": "not_reproduced"}


def test_ns2_2_tie_is_not_lower():
    # identical latency (as with the window_ 20 cap on the mesh) does not make Vegas lowest
    assert verdicts(topology_table(0.419, 0.419, 0.5, 2.0), "ns2-2")["window20"] == "not_reproduced"


def test_ns2_2_untestable_without_drops():
    rows, notes = claims_ns2.build(topology_table(0.3, 0.6, 0.0, 0.0), None)
    got = {n["variant"]: n for n in notes if n["item"] == "ns2-2"}
    assert got["window20"]["verdict"] == "untestable"
    assert "no drops" in got["window20"]["note"]


def test_ns2_2_stat_row_fills_our_numbers():
    rows, _ = claims_ns2.build(topology_table(0.3, 0.6, 0.5, 2.0), None)
    r = next(r for r in rows if r["item"] == "ns2-2" and r["variant"] == "window20")
    assert r["ours_mean"] == pytest.approx(0.3) and r["ci_low"] < 0.3 < r["ci_high"] and r["n_seeds"] == 10


def test_ns2_6_reproduced_when_fq_has_lower_latency_and_loss():
    assert verdicts(queue_table(0.3, 0.5, 0.5, 2.0), "ns2-6") == {"window20": "reproduced", "nocap": "reproduced"}


def test_ns2_6_not_reproduced_when_fq_is_worse():
    assert verdicts(queue_table(0.5, 0.3, 0.5, 2.0), "ns2-6") == {"window20": "not_reproduced",
                                                                  "nocap": "not_reproduced"}
    assert verdicts(queue_table(0.3, 0.5, 3.0, 2.0), "ns2-6")["window20"] == "not_reproduced"


def test_ns2_6_untestable_when_nothing_is_dropped():
    assert verdicts(queue_table(0.3, 0.5, 0.0, 0.0), "ns2-6")["window20"] == "untestable"


def test_ns2_6_not_significant_is_not_reproduced():
    t = queue_table(0.49, 0.5, 0.5, 2.0)
    t.loc[t["metric"] == "latency_mean_s", "sd"] = 0.2          # 0.49 vs 0.5 with sd 0.2: p far above 0.05
    assert verdicts(t, "ns2-6")["window20"] == "not_reproduced"


def test_cli_writes_rows_and_notes(tmp_path):
    tables = tmp_path / "ns2_queue.csv"
    queue_table(0.3, 0.5, 0.5, 2.0).to_csv(tables, index=False)
    out, notes = tmp_path / "claims.csv", tmp_path / "notes.csv"
    r = subprocess.run([sys.executable, "-m", "simulator.report.claims_ns2", "--tables", str(tables),
                        "--out", str(out), "--notes", str(notes)], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    card = pd.read_csv(out)
    assert list(card.columns) == SCORECARD_COLUMNS and len(card) == 14
    assert set(pd.read_csv(notes)["item"]) == set(claims_ns2.CLAIM_IDS)


@pytest.mark.slow
def test_real_tables_give_a_verdict_per_claim(built_report):
    """Tables of the tiny test profile's real run (fixture built_report: ns2_queue)."""
    real = sorted((built_report / "results" / "tables").glob("ns2_*.csv"))
    assert real
    tables = pd.concat([pd.read_csv(p) for p in real], ignore_index=True)
    rows, notes = claims_ns2.build(tables, None)
    assert {r["item"] for r in rows} == set(claims_ns2.CLAIM_IDS)
    assert {r["variant"] for r in rows} == set(claims_ns2.VARIANTS)
    assert all(r["verdict"] in VERDICTS for r in rows)
    assert all(n["note"] for n in notes)
