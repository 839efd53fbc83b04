"""The QtColFair paper's published numbers (the authors' result files and text) and claims qt-1..qt-9
(simulator/report/papers/qtcol/scorecard.py) into results/claims/qtcol.csv and its notes, as the rule `claims`
runs every paper's claims module (catalogue.yaml `claims`).

  python -m simulator.report.papers.qtcol.claims --tables results/tables/qt_*.csv --traces results/traces/qt_*.csv \\
      --reference-dir reference --out results/claims/qtcol.csv --notes results/claims/qtcol_notes.csv
"""
from __future__ import annotations

from pathlib import Path

import pandas as pd

from simulator.report.papers.qtcol.reference_data import QTCOL_RESULTS
from simulator.report import claims_common as cc
from simulator.report.papers.qtcol import scorecard as qt
from simulator.report.verdicts import SCORECARD_COLUMNS


def build(table_paths, trace_paths, reference_dir):
    """(rows, notes) frames of the QtColFair paper."""
    rows, notes = qt.build(qt.load_tables(table_paths), qt.load_traces(trace_paths),
                           qt.load_reference(Path(reference_dir) / QTCOL_RESULTS))
    return pd.DataFrame(rows, columns=SCORECARD_COLUMNS), pd.DataFrame(notes)


if __name__ == "__main__":
    cc.cli_with_reference(build, __doc__)
