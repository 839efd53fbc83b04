"""Claims mn-1 and mn-2 of the Mininet paper (catalogue.yaml: mininet) from study mn_high_latency.

One scorecard row per claim and variant: "static" (the wired 10 Mbit/s path) and "fluctuating"
(capacity redrawn every second), every claim of static first. Table metrics are means over all
seeds; the time-series statistics (early throughput, cwnd variability, regularity and median) are
computed from the traces per seed, for every seed the traces hold (every note says how many), and
compared as samples over seeds.

The claims are decided by the one engine (simulator/report/claim_engine.py) from their `decide:`
blocks in reference/mininet/claims.yaml, where the criteria (fixed before looking at the results) are
commented; the per-seed statistics and the sentences of the notes are named functions in
simulator/report/papers/mininet/claim_functions.py. The rule (simulator/report/claim_rule.py): reproduced
when every comparison holds by mean and significantly (Welch's t-test, or one-sample against a
threshold, Holm-adjusted across the claim's comparisons, 5%), contradicted when any is significantly
reversed, inconclusive otherwise (always so when the traces hold one seed: no test); runs identical
over seeds (sd 0) are compared by value. Missing traces or table rows: not_testable.

  python -m simulator.report.papers.mininet.claims --tables results/tables/mn_high_latency.csv \
      --traces results/traces/mn_high_latency.csv --out results/claims/mininet.csv \
      --notes results/claims/mininet_notes.csv
"""
from __future__ import annotations

from pathlib import Path

import pandas as pd

from simulator import reference
from simulator.report import claim_engine, published_numbers
from simulator.report.papers.mininet.reference_data import MININET_NUMBERS
from simulator.report import claims_common as cc

PAPER = "mininet"


# the poster's results (poster_numbers.csv, kind `result`): metric -> (study, our metric)
POSTER_RESULTS = {"settled_throughput": ("mn_high_latency", "goodput_warm_mbps")}


def poster_results(reference_dir) -> pd.DataFrame:
    """The poster's quoted results as published numbers (reference.PAPER_NUMBER_COLUMNS) of our metrics."""
    path = Path(reference_dir) / MININET_NUMBERS
    if not path.exists():
        return pd.DataFrame(columns=reference.PAPER_NUMBER_COLUMNS)
    poster = pd.read_csv(path)
    rows = [dict(source=r.where, study=POSTER_RESULTS[r.metric][0], metric=POSTER_RESULTS[r.metric][1],
                 algorithm=r.algorithm, where="", low=float(r.value), high=float(r.value), unit=r.unit, words=r.quote)
            for r in poster[poster["kind"] == "result"].itertuples() if r.metric in POSTER_RESULTS]
    return pd.DataFrame(rows, columns=reference.PAPER_NUMBER_COLUMNS)


def build(tables: pd.DataFrame, traces: pd.DataFrame | None):
    """Scorecard rows and notes of mn-1 and mn-2 for the static and the fluctuating path, then the poster's
    quoted result (published_numbers: CUBIC's settled throughput against our goodput after the warm-up)."""
    rows, notes = claim_engine.paper_rows(PAPER, tables, traces)
    r, n = published_numbers.rows(PAPER, tables, poster_results(claim_engine.claims_file().parent))
    return rows + r, notes + n


if __name__ == "__main__":
    cc.cli(build, __doc__)
