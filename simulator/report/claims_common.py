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
import math

import pandas as pd
from scipy import stats

from simulator.report.io import load_tables, load_traces, write_csv  # noqa: F401  (re-exported for claim modules)
from simulator.report.verdicts import NOTE_COLUMNS, SCORECARD_COLUMNS, VERDICTS  # noqa: F401


def pick(table: pd.DataFrame, metric: str, **params) -> pd.Series:
    """The one table row of `metric` at the point with these parameter values (KeyError if none)."""
    sel = table["metric"] == metric
    for k, v in params.items():
        sel &= table[k].astype(str) == str(v)
    rows = table[sel]
    if len(rows) != 1:
        raise KeyError(f"{len(rows)} rows for metric {metric} at {params}")
    return rows.iloc[0]


def less(a: pd.Series, b: pd.Series) -> tuple[bool, bool]:
    """(a.mean < b.mean, and significantly so by Welch's t-test at 5%)."""
    holds = bool(a["mean"] < b["mean"])
    if not (a["n"] > 1 and b["n"] > 1) or (a["sd"] == 0 and b["sd"] == 0):
        return holds, holds and a["mean"] != b["mean"]
    t, p = stats.ttest_ind_from_stats(a["mean"], a["sd"], a["n"], b["mean"], b["sd"], b["n"], equal_var=False)
    return holds, holds and bool(p < 0.05)


def claim_row(paper, item, variant, metric, verdict, stat: pd.Series | None = None, paper_value=math.nan) -> dict:
    """A scorecard row; `stat` (a table row) supplies our mean, CI and per-run range if given."""
    if verdict not in VERDICTS:
        raise ValueError(f"verdict {verdict!r}; allowed: {VERDICTS}")
    g = (lambda k: float(stat[k])) if stat is not None else (lambda k: math.nan)
    return {"paper": paper, "item": item, "variant": variant, "metric": metric, "paper_value": paper_value,
            "ours_mean": g("mean"), "ci_low": g("ci_low"), "ci_high": g("ci_high"), "run_p025": g("run_p025"),
            "run_p975": g("run_p975"), "n_seeds": int(stat["n"]) if stat is not None else 0, "verdict": verdict}


def note_row(item, variant, verdict, note) -> dict:
    return {"item": item, "variant": variant, "verdict": verdict, "note": note}


def cli(build, doc: str) -> None:
    """Command line of a claims script: build(tables, traces) -> (rows, notes)."""
    ap = argparse.ArgumentParser(description=doc, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tables", nargs="+", required=True)
    ap.add_argument("--traces", nargs="*", default=[])
    ap.add_argument("--out", required=True)
    ap.add_argument("--notes", required=True)
    a = ap.parse_args()
    rows, notes = build(load_tables(a.tables), load_traces(a.traces))
    write_csv(pd.DataFrame(rows, columns=SCORECARD_COLUMNS), a.out)
    write_csv(pd.DataFrame(notes, columns=NOTE_COLUMNS), a.notes)
    for n in notes:
        print(f"{n['item']} {n['variant']}: {n['verdict']} ({n['note']})")
