"""The M/M/1 paper's published numbers (Tables V-XIII, in both model variants) and claims mm1-1..mm1-9
(simulator/report/papers/mm1/scorecard.py) into results/claims/mm1.csv and its notes, as the rule `claims` runs
every paper's claims module (catalogue.yaml `claims`).

  python -m simulator.report.papers.mm1.claims --tables results/tables/mm1_*.csv --traces results/traces/mm1_cwnd.csv \\
      --reference-dir reference --out results/claims/mm1.csv --notes results/claims/mm1_notes.csv
"""
from __future__ import annotations

from pathlib import Path

import pandas as pd

from simulator.report.papers.mm1.reference_data import MM1_TABLES
from simulator.report import claims_common as cc
from simulator.report.papers.mm1 import scorecard as mm1


def build(table_paths, trace_paths, reference_dir):
    """(rows, notes) frames of the M/M/1 paper."""
    tr = [pd.read_csv(p) for p in trace_paths if Path(p).exists()]
    traces = pd.concat(tr, ignore_index=True) if tr else None
    return mm1.build(mm1.load_tables(table_paths), traces, mm1.load_reference(Path(reference_dir) / MM1_TABLES))


if __name__ == "__main__":
    cc.cli_with_reference(build, __doc__)
