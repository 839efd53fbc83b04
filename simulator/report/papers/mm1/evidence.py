"""The M/M/1 paper's own checks, the M/M/1/K closed forms and the replay of its code:
rows of the first page's trust table (simulator/report/trust.py EVIDENCE_COLUMNS), named by the paper's
catalogue.yaml `evidence`."""
from __future__ import annotations

from pathlib import Path

import pandas as pd


def mm1_rows(tables: pd.DataFrame, reference: pd.DataFrame) -> list[dict]:
    """The M/M/1/K closed forms (uncontrolled sender, both variants) and the replay of the paper's code with its
    own random stream: printed digit for digit, or one unit off in the last digit (rounding)."""
    from simulator.report.papers.mm1.checks import replay_audit
    from simulator.report.papers.mm1.scorecard import analytic_comparison

    rows = []
    closed = analytic_comparison(tables)
    if len(closed):
        rows.append({"chapter": "mm1", "check": "M/M/1/K closed forms (blocking, throughput, delay), "
                     "uncontrolled sender, 95% CI or 3%", "inside": int(closed["agree"].sum()),
                     "total": len(closed), "page": "textbook"})
    audit = replay_audit(tables, reference)
    if len(audit):
        rows.append({"chapter": "mm1", "check": "the paper's own code replayed with its random stream: "
                     "printed numbers matched (to the last digit's rounding)",
                     "inside": int(audit["match"].isin(["exact", "last digit"]).sum()), "total": len(audit),
                     "page": "mm1"})
    return rows


def mm1_evidence(table_paths, reference_dir) -> list[dict]:
    """mm1_rows of the M/M/1 studies' tables (catalogue.yaml `evidence` of the M/M/1 paper)."""
    from simulator.report.papers.mm1.reference_data import MM1_TABLES
    from simulator.report.papers.mm1.scorecard import load_reference, load_tables

    return mm1_rows(load_tables(table_paths), load_reference(Path(reference_dir) / MM1_TABLES))
