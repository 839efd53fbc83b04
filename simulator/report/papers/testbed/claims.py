"""Claims tb-1..tb-5 of the Wi-Fi testbed paper (catalogue.yaml: testbed) from study
tb_matrix (the abstract channel), and the numbers the paper quotes, from tb_wifi_matrix (the 802.11 channel): rows for results/claims/testbed.csv (paper `testbed`,
variant `sim`) and their notes.

The claims are decided by the one engine (simulator/report/claim_engine.py) from their `decide:`
blocks in reference/testbed/claims.yaml (the criteria, fixed from the claim text before looking at the
numbers, are commented there); the headline cells the results choose and the sentences of the notes
are named functions in simulator/report/papers/testbed/claim_functions.py. Every claim reads the
unidirectional runs, the baseline (background none) unless it says otherwise.

Numbers the paper quotes get their own rows (item "<what> <link_setup> <algorithm> (tb-N)"), kept as the
paper gives them in reference/testbed/paper_numbers.csv (a value, or a range such as 25-40 ms: never its
midpoint). The verdict is published_numbers' rule: inside when the paper's value or range overlaps our
per-run range [run_p025, run_p975] of the baseline runs (the paper does not say which background its
numbers are from), outside when not, missing when the baseline runs are missing. Vegas's "virtually no
loss" is tracked as 0%.

  python -m simulator.report.papers.testbed.claims --tables results/tables/tb_matrix.csv \
      results/tables/tb_wifi_matrix.csv --traces results/traces/tb_matrix.csv --out results/claims/testbed.csv \
      --notes results/claims/testbed_notes.csv
"""
from __future__ import annotations

import math

import pandas as pd

from simulator.report import claim_engine
from simulator.report import claims_common as cc
from simulator.report import number_format, paper_values, published_numbers
from simulator.report.papers.testbed.tables import NUMBERS_STUDY, STUDY
from simulator.report.verdicts import SCORECARD_COLUMNS

PAPER = "testbed"
VARIANT = "sim"
LOSS_BASED = ("bbr", "cubic", "reno")       # the paper's "loss-based" group (it counts BBR in it)
# the claim each quoted metric belongs to and its short name in the item (values: paper_numbers.csv)
QUOTED_CLAIM = {"ping_rtt_mean_ms": ("tb-3", "RTT"), "ping_loss_pct": ("tb-4", "loss")}


def _f(x: float) -> str:
    return f"{x:.3g}"


class Cells:
    """Table rows of the unidirectional testbed points for the quoted numbers: cell(metric, alg, setup,
    background)."""

    def __init__(self, tables: pd.DataFrame, study: str = STUDY):
        self.study = study
        t = tables
        if not t.empty and "paper" in t.columns:
            t = t[t["paper"] == PAPER]
        if not t.empty and "study" in t.columns:      # one run matrix, not a sensitivity study
            t = t[t["study"] == study]
        if not t.empty and "bidir" in t.columns:
            t = t[~t["bidir"].astype(str).str.lower().isin(["true", "1", "1.0"])]
        self.t = t

    def __call__(self, metric, alg, setup, background="none") -> pd.Series:
        if self.t.empty:
            raise KeyError(f"no {self.study} table rows of paper {PAPER}")
        return cc.pick(self.t, metric, algorithm=alg, link_setup=setup, background=background)


def _mean_ci(r: pd.Series) -> str:
    return number_format.mean_ci(r["mean"], r["ci_low"], r["ci_high"], lower=None, fmt=_f)


def _info(fn) -> str:
    """An extra sentence of a note that needs rows the claim itself does not ('' when they are missing)."""
    try:
        return fn()
    except KeyError:
        return ""


def _number_row(item, metric, low, high, verdict, r=None) -> dict:
    """A scorecard row of a number the paper quotes (verdict inside / outside / missing): no test, so
    p_value, rule and note are empty (the reasoning is in the note row); a range has no paper_value."""
    g = (lambda k: float(r[k])) if r is not None else (lambda k: math.nan)
    row = dict(paper=PAPER, item=item, variant=VARIANT, metric=metric, paper_value=low if low == high else math.nan,
               paper_low=low, paper_high=high, ours_mean=g("mean"),
               ci_low=g("ci_low"), ci_high=g("ci_high"), run_p025=g("run_p025"), run_p975=g("run_p975"),
               n_seeds=int(r["n"]) if r is not None else 0, verdict=verdict, p_value=math.nan, rule="", note="")
    assert list(row) == SCORECARD_COLUMNS
    return row


def quoted_numbers(numbers: pd.DataFrame, study: str = NUMBERS_STUDY) -> list[tuple]:
    """(claim, what, metric, link_setup, algorithm, low, high, the paper's words) of each quoted number."""
    out = []
    for _, n in numbers[numbers["study"] == study].iterrows():
        claim, what = QUOTED_CLAIM[n["metric"]]
        setup = n["where"].split("=", 1)[1]        # every testbed number holds at one link_setup
        out.append((claim, what, n["metric"], setup, n["algorithm"], float(n["low"]), float(n["high"]),
                    paper_values.text(n)))
    return out


def quoted(cell, numbers: pd.DataFrame | None = None):
    """Rows and notes of the numbers the paper quotes (default: the reference folder's
    testbed/paper_numbers.csv): whether they overlap our baseline per-run range."""
    if numbers is None:
        numbers = paper_values.load(claim_engine.claims_file().parent, PAPER)
    rows, notes = [], []
    for claim, what, metric, s, a, low, high, words in quoted_numbers(numbers, getattr(cell, "study", NUMBERS_STUDY)):
        item = f"{what} {s} {a} ({claim})"
        try:
            r = cell(metric, a, s)
        except KeyError as e:
            rows.append(_number_row(item, metric, low, high, "missing"))
            notes.append(dict(item=item, variant=VARIANT, verdict="missing",
                              note=f"Paper: {words}; no baseline runs of ours ({e.args[0]}); run study {NUMBERS_STUDY}."))
            continue
        # an interval rule: the paper's value or range against where one run of ours lands
        inside = published_numbers.overlaps(low, high, float(r["run_p025"]), float(r["run_p975"]))
        v = "inside" if inside else "outside"

        def with_background():
            return (" With background the per-run ranges are " + ", ".join(
                f"{bg} {_f(cell(metric, a, s, bg)['run_p025'])}-{_f(cell(metric, a, s, bg)['run_p975'])}"
                for bg in ("light", "heavy")) + " (the paper does not say which runs its number is from).")

        rows.append(_number_row(item, metric, low, high, v, r))
        notes.append(dict(item=item, variant=VARIANT, verdict=v,
                          note=f"Paper: {words}; ours (baseline): mean {_mean_ci(r)}, {_run_range(r)} "
                               f"over {int(r['n'])} seeds; the paper's "
                               f"{'range overlaps' if inside else 'value lies outside'} it." + _info(with_background)))
    return rows, notes


def _run_range(r) -> str:
    """'per-run range [lo, hi]', or 'every run lo' when every run gave the same value (no '[0, 0]')."""
    lo, hi = _f(r["run_p025"]), _f(r["run_p975"])
    return f"every run {lo}" if lo == hi else f"per-run range [{lo}, {hi}]"


def build(tables: pd.DataFrame, traces: pd.DataFrame | None = None):
    """Scorecard rows and notes for tb-1..tb-5 (the engine) and the quoted numbers (traces are not
    needed: every criterion is a table row)."""
    rows, notes = claim_engine.paper_rows(PAPER, tables, traces)
    r, n = quoted(Cells(tables, NUMBERS_STUDY))
    return rows + r, notes + n


if __name__ == "__main__":
    cc.cli(build, __doc__)
