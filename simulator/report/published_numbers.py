"""The numbers a paper quotes in its text, as scorecard rows: one rule for a value and for a range.

A quoted number is a row of reference/<paper>/paper_numbers.csv (paper_values.load; a paper's claims module may
give its own, as the Mininet poster's from its poster_numbers.csv): a value (low = high) or a range
low-high, kept as the paper gives it (paper_low, paper_high; paper_value only for a single value: a range
has no midpoint here). Its verdict is `inside` when the paper's interval [low, high] overlaps our per-run
range [run_p025, run_p975] (where one run of ours lands: each paper reports single runs, so its number is
compared with what one run of ours gives, as the M/M/1 and QtColFair published numbers are), `outside`
when it does not, `missing` when the runs it needs are not in this build.

A statement may cover several grid points (NS-2: "flows>1", every bandwidth of a figure): within one
variant of the paper (reference/claims.yaml scoring: window20, static, ...) our range is the union of the
per-run ranges of the grid points it covers, and the note says how many.
"""
from __future__ import annotations

import math
import pandas as pd

from simulator.report import claim_engine, paper_values
from simulator.report.verdicts import SCORECARD_COLUMNS

def load(reference_dir, paper) -> pd.DataFrame:
    """The numbers `paper` quotes (reference_dir/<paper>/paper_numbers.csv; empty when it quotes none)."""
    return paper_values.load(reference_dir, paper)


def overlaps(low: float, high: float, ours_low: float, ours_high: float) -> bool:
    """Whether the paper's interval [low, high] (a value: low = high) meets our range [ours_low, ours_high]."""
    return low <= ours_high and ours_low <= high


def paper_text(low, high, value=math.nan) -> str:
    """'25–40', '160': how the paper gives the number (a range as a range, never its midpoint)."""
    if pd.isna(low) or pd.isna(high):
        return "–" if pd.isna(value) else f"{value:.4g}"
    return f"{low:.4g}" if low == high else f"{low:.4g}–{high:.4g}"


def _variants(paper: str) -> list[dict]:
    return claim_engine.load()["scoring"][paper]["variants"]


def _cells(tables: pd.DataFrame, paper: str, number, where: dict) -> pd.DataFrame:
    """Our table rows the number covers in one variant (`where`: the variant's columns)."""
    t = tables[(tables["study"] == number["study"]) & (tables["metric"] == number["metric"])
               & (tables["algorithm"] == number["algorithm"])] if not tables.empty else tables
    for k, v in where.items():
        if k in t:
            want = str(v).lower()
            t = t[t[k].astype(str).str.lower().isin([want, "1", "1.0"] if want == "true" else
                                                       [want, "0", "0.0"] if want == "false" else [want])]
    keep = [paper_values.holds(number["where"], r) for r in t.to_dict("records")]
    return t[keep] if len(t) else t


def item_name(number) -> str:
    """'ping_rtt_mean_ms bbr link_setup=wifi_wifi (Results & Analysis, RTT)'."""
    where = f" {number['where']}" if isinstance(number["where"], str) and number["where"] else ""
    return f"{number['metric']} {number['algorithm']}{where} ({number['source']})"


def _ordered(row: dict) -> dict:
    return {k: row[k] for k in SCORECARD_COLUMNS}


def _row(paper, number, variant, cells) -> tuple[dict, dict]:
    low, high = float(number["low"]), float(number["high"])
    item, words = item_name(number), f"Paper: {paper_values.text(number)} (\"{number['words']}\")"
    base = dict(paper=paper, item=item, variant=variant, metric=number["metric"],
                paper_value=low if low == high else math.nan, paper_low=low, paper_high=high,
                p_value=math.nan, rule="", note="")
    if cells.empty:
        row = dict(base, ours_mean=math.nan, ci_low=math.nan, ci_high=math.nan, run_p025=math.nan,
                   run_p975=math.nan, n_seeds=0, verdict="missing")
        return _ordered(row), dict(item=item, variant=variant, verdict="missing",
                         note=f"{words}; no runs of ours at the grid points it covers in this build.")
    lo, hi = float(cells["run_p025"].min()), float(cells["run_p975"].max())
    verdict = "inside" if overlaps(low, high, lo, hi) else "outside"
    row = dict(base, ours_mean=float(cells["mean"].mean()), ci_low=float(cells["ci_low"].min()),
               ci_high=float(cells["ci_high"].max()), run_p025=lo, run_p975=hi, n_seeds=int(cells["n"].min()),
               verdict=verdict)
    points = f" over {len(cells)} grid points" if len(cells) > 1 else ""
    return _ordered(row), dict(item=item, variant=variant, verdict=verdict,
                     note=f"{words}; our per-run range{points} [{lo:.3g}, {hi:.3g}] "
                          f"({'overlaps' if verdict == 'inside' else 'does not overlap'} the paper's).")


def rows(paper: str, tables: pd.DataFrame, numbers: pd.DataFrame | None = None) -> tuple[list[dict], list[dict]]:
    """(scorecard rows, note rows) of every number `paper` quotes, once per variant of the paper, in the
    order of its numbers file; `numbers` defaults to those of the reference folder in use."""
    if numbers is None:
        numbers = load(claim_engine.claims_file().parent, paper)
    tables = tables if tables is not None else pd.DataFrame()
    out, notes = [], []
    for _, number in numbers.iterrows():
        for v in _variants(paper):
            row, note = _row(paper, number, v["name"], _cells(tables, paper, number, v.get("where", {})))
            out.append(row)
            notes.append(note)
    return out, notes
