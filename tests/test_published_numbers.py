"""Every number a paper quotes is a scorecard row (simulator/report/published_numbers.py): a value or a
range kept as the paper gives it, decided by overlap with our per-run range, for the NS-2 and Mininet
papers too (their numbers were drawn but not counted before)."""
import math
from pathlib import Path

import pandas as pd

from simulator.report import headline, published_numbers
from simulator.report.papers.mininet import claims as claims_mininet
from simulator.report.papers.ns2 import claims as claims_ns2
from simulator.report.verdicts import NUMBER_VERDICTS, SCORECARD_COLUMNS

REFERENCE = Path(__file__).resolve().parents[1] / "reference"


def cell(study, algorithm, metric, lo, hi, n=10, **params):
    mean = (lo + hi) / 2
    return dict(study=study, algorithm=algorithm, metric=metric, mean=mean, sd=0.1, n=n, ci_low=mean, ci_high=mean,
                run_p025=lo, run_p975=hi, **params)


def test_overlap_is_the_interval_rule():
    assert published_numbers.overlaps(25, 40, 39, 41) and published_numbers.overlaps(25, 40, 30, 31)
    assert published_numbers.overlaps(3, 3, 2, 4) and not published_numbers.overlaps(25, 40, 41, 45)
    assert not published_numbers.overlaps(0.08, 0.09, 0.336, 0.947)
    assert published_numbers.paper_text(25, 40) == "25–40" and published_numbers.paper_text(160, 160) == "160"


def test_ns2_quoted_numbers_are_scorecard_rows_once_per_window_setting():
    """The paper's 9 numbers (reference/ns2/paper_numbers.csv) x 2 window settings; a number that covers
    several grid points (flows>1) is tested against the union of their per-run ranges."""
    tables = pd.DataFrame([
        cell("ns2_flows", "vegas", "cwnd_mean", 2.5, 3.5, flows=2, window=20),
        cell("ns2_flows", "vegas", "cwnd_mean", 10, 12, flows=3, window=20),
        cell("ns2_flows", "vegas", "cwnd_mean", 1, 9, flows=1, window=20),           # flows=1: not covered
        cell("ns2_flows", "reno", "cwnd_mean", 10, 12, flows=2, window=20),
        cell("ns2_queue", "reno", "latency_max_s", 0.3, 0.9, flows=2, window=0, queue="fq")])
    rows, notes = claims_ns2.build(tables.assign(paper="ns2"))
    numbers = {(r["item"], r["variant"]): r for r in rows if r["verdict"] in NUMBER_VERDICTS}
    assert len(numbers) == 9 * 2 and all(list(r) == SCORECARD_COLUMNS for r in rows)
    vegas = numbers[("cwnd_mean vegas flows>1 (Scenario 2, Figure 4)", "window20")]
    assert vegas["verdict"] == "inside" and (vegas["run_p025"], vegas["run_p975"]) == (2.5, 12)
    reno = numbers[("cwnd_mean reno flows>1 (Scenario 2, Figure 4)", "window20")]
    assert reno["verdict"] == "outside" and (reno["paper_low"], reno["paper_high"]) == (3, 4)
    assert math.isnan(reno["paper_value"])                                   # a range: no midpoint
    fq = numbers[("latency_max_s reno queue=fq (Scenario 5, Figure 9)", "nocap")]
    assert fq["verdict"] == "outside" and fq["n_seeds"] == 10
    assert numbers[("cwnd_mean vegas flows>1 (Scenario 2, Figure 4)", "nocap")]["verdict"] == "missing"
    note = {(n["item"], n["variant"]): n["note"] for n in notes}[("cwnd_mean vegas flows>1 (Scenario 2, Figure 4)",
                                                                   "window20")]
    assert "Paper: 3 packets" in note and "over 2 grid points [2.5, 12] (overlaps the paper's)" in note


def test_the_mininet_posters_result_is_a_scorecard_row_per_path():
    tables = pd.DataFrame([cell("mn_high_latency", "cubic", "goodput_warm_mbps", 9.6, 9.7, change="static"),
                           cell("mn_high_latency", "cubic", "goodput_warm_mbps", 9.1, 10.6, change="fluctuating")])
    rows, _ = claims_mininet.build(tables, None)
    numbers = {r["variant"]: r for r in rows if r["verdict"] in NUMBER_VERDICTS}
    assert {v: r["verdict"] for v, r in numbers.items()} == {"static": "outside", "fluctuating": "inside"}
    assert numbers["static"]["paper_value"] == 10.5 and numbers["static"]["metric"] == "goodput_warm_mbps"


def test_page_one_counts_the_ns2_and_mininet_numbers():
    """headline.counts (page 1, verdict boxes, scorecard) counts the new rows as published numbers."""
    tables = pd.DataFrame([cell("mn_high_latency", "cubic", "goodput_warm_mbps", 9.6, 9.7, change="static")])
    rows, _ = claims_mininet.build(tables, None)
    card = pd.DataFrame(rows, columns=SCORECARD_COLUMNS)
    c = headline.counts(card, REFERENCE / "claims.yaml").set_index("paper").loc["mininet"]
    assert (c.published, c.number_settings, c.numbers, c.not_run, c.agree) == (1, 2, 1, 1, 0)
    assert headline.compared_cell(c).startswith("1 published number in 2 settings (1 of 2 not run)")
