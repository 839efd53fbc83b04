"""Shared pieces of the per-paper claim modules (simulator/report/claims_<paper>.py).

Each module reads its paper's long tables (results/tables/<study>.csv: one row per grid point and
metric with mean, sd, n, 95% CI and per-run percentiles over seeds) and traces, decides every
claim of reference/claims.yaml for that paper, and writes
  results/claims/<paper>.csv        rows in verdicts.SCORECARD_COLUMNS (one per claim, plus any
                                    number the claim quotes), appended to results/scorecard.csv;
  results/claims/<paper>_notes.csv  item, variant, verdict, note: the reasoning, in words.
Every claim is decided by the one rule of simulator/report/claim_rule.py (verdicts reproduced /
contradicted / inconclusive / not_testable; book/claims_rule.md says it in words).
"""
from __future__ import annotations

import argparse

import pandas as pd

from simulator.report import claim_engine
from simulator.report.io import load_tables, load_traces, write_csv  # noqa: F401  (re-exported for claim modules)
from simulator.report.verdicts import NOTE_COLUMNS, SCORECARD_COLUMNS


def pick(table: pd.DataFrame, metric: str, **params) -> pd.Series:
    """The one table row of `metric` at the point with these parameter values (KeyError if none)."""
    sel = table["metric"] == metric
    for k, v in params.items():
        sel &= table[k].astype(str) == str(v)
    rows = table[sel]
    if len(rows) != 1:
        raise KeyError(f"{len(rows)} rows for metric {metric} at {params}")
    return rows.iloc[0]








def cli_with_reference(build, doc: str) -> None:
    """Command line of a paper whose rows also compare published tables: build(table paths, trace paths,
    reference_dir) -> (rows, notes) frames, written as they are."""
    ap = argparse.ArgumentParser(description=doc, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tables", nargs="+", required=True)
    ap.add_argument("--traces", nargs="*", default=[])
    ap.add_argument("--reference-dir", required=True, help="the reference folder (config key reference_dir)")
    ap.add_argument("--out", required=True)
    ap.add_argument("--notes", required=True)
    ap.add_argument("--claims-file", help="the claims to decide (default: the repository's reference/claims.yaml)")
    a = ap.parse_args()
    if a.claims_file:
        claim_engine.use_claims_file(a.claims_file)
    rows, notes = build(a.tables, a.traces, a.reference_dir)
    write_csv(rows, a.out)
    write_csv(notes, a.notes)


def cli(build, doc: str) -> None:
    """Command line of a claims script: build(tables, traces) -> (rows, notes)."""
    ap = argparse.ArgumentParser(description=doc, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tables", nargs="+", required=True)
    ap.add_argument("--traces", nargs="*", default=[])
    ap.add_argument("--out", required=True)
    ap.add_argument("--notes", required=True)
    ap.add_argument("--claims-file", help="the claims to decide (default: the repository's reference/claims.yaml)")
    ap.add_argument("--reference-dir", help="the reference folder (the rule `claims` gives every paper's module "
                                            "it; these claims read no published table from it)")
    a = ap.parse_args()
    if a.claims_file:
        claim_engine.use_claims_file(a.claims_file)
    rows, notes = build(load_tables(a.tables), load_traces(a.traces))
    write_csv(pd.DataFrame(rows, columns=SCORECARD_COLUMNS), a.out)
    write_csv(pd.DataFrame(notes, columns=NOTE_COLUMNS), a.notes)
    for n in notes:
        print(f"{n['item']} {n['variant']}: {n['verdict']} ({n['note']})")
