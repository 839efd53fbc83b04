"""Claims ns2-1..ns2-7 of the NS-2 paper (catalogue.yaml: ns2: Reno, NewReno and Vegas on wired
topologies) decided from our tables results/tables/ns2_*.csv (10 seeds per point).

Each claim is decided by the one engine (simulator/report/claim_engine.py) from its `decide:` block in
reference/ns2/claims.yaml, where the comments say what each criterion is; the context sentences of the
notes are in simulator/report/papers/ns2/claim_functions.py. Every claim is judged once per NS-2 window_
setting of the studies (scoring: ns2: variants "window20", NS-2's default cap and our primary setting,
and "nocap", window 0), and ns2-1..ns2-6 once more per count of "multiple" flows their study ran, as
the paper gives the count in none of its scenarios ("window20, 3 flows"); ns2-7 takes every
configuration of every study.

Usage (rule `claims` in workflow/rules/report.smk):
  python -m simulator.report.papers.ns2.claims --tables results/tables/ns2_*.csv \\
      --traces results/traces/ns2_*.csv --out results/claims/ns2.csv --notes results/claims/ns2_notes.csv
"""
from __future__ import annotations

import pandas as pd

from simulator.report import claim_engine, published_numbers
from simulator.report import claims_common as cc

PAPER = "ns2"
SWEEPS = {"ns2_topology": "topology", "ns2_flows": "flows", "ns2_bandwidth": "bandwidth_mbps",
          "ns2_delay": "delay_ms", "ns2_queue": "queue"}     # study -> its swept parameter (figures_ns2)


def build(tables: pd.DataFrame, traces: pd.DataFrame | None = None) -> tuple[list[dict], list[dict]]:
    """Scorecard rows and notes of ns2-1..ns2-7, one of each per claim and verdict row (the engine's
    scopes), then the numbers the paper quotes (published_numbers: inside when the paper's value or range
    overlaps our per-run range). `traces` is accepted for the common interface; every criterion uses the tables."""
    if tables is not None and "paper" in tables:
        tables = tables[tables["paper"] == PAPER]
    rows, notes = claim_engine.paper_rows(PAPER, tables, traces)
    r, n = published_numbers.rows(PAPER, tables)
    return rows + r, notes + n


if __name__ == "__main__":
    cc.cli(build, __doc__)
