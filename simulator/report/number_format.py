"""Numbers in the report's tables as a reader wants them: significant digits, integers as integers,
float noise as the tie it is (5.2e-14 -> 0), a mean with its 95% CI as 'mean [low, high]' (the mean
alone when every seed gave the same value), the interval cut at the metric's bound (a rate, a delay
or a count is never below 0), and wide tables of such cells, one column per metric."""
from __future__ import annotations

import math

import pandas as pd

NOISE = 1e-9        # below this a difference or value is float noise: a tie, written 0


def num(v, digits: int = 3) -> str:
    """`v` to `digits` significant digits, an integer without decimals and exponent, '–' when missing;
    text as it is."""
    if isinstance(v, str):
        return v
    if v is None or pd.isna(v):
        return "–"
    v = 0.0 if abs(v) < NOISE else float(v)
    if v.is_integer() or abs(v) >= 10 ** digits:
        return f"{round(v):d}"
    return f"{v:.{digits}g}"


def mean_ci(mean, low, high, digits: int = 3, lower: float | None = 0.0) -> str:
    """'mean [low, high]', the CI cut at `lower` (None: no bound); the mean alone when the CI is a point."""
    if lower is not None:
        low, high = (max(x, lower) if not pd.isna(x) else x for x in (low, high))
    m, lo, hi = num(mean, digits), num(low, digits), num(high, digits)
    return m if lo == hi == m else f"{m} [{lo}, {hi}]"


def cells(rows: pd.DataFrame, digits: int = 3, lower: float | None = 0.0) -> list[str]:
    """mean_ci of every row of a long table (columns mean, ci_low, ci_high)."""
    return [mean_ci(m, lo, hi, digits, lower) for m, lo, hi in zip(rows["mean"], rows["ci_low"], rows["ci_high"])]


def metric_columns(rows: pd.DataFrame, index: list, metrics: dict, digits: int = 3) -> pd.DataFrame:
    """One row per `index` point, one 'mean [CI]' column per metric of long-table `rows`, in the order
    of `metrics` {metric: column title with unit}."""
    d = rows.assign(cell=cells(rows, digits))
    wide = d.pivot_table(index=index, columns="metric", values="cell", aggfunc="first")
    return wide[[m for m in metrics if m in wide.columns]].rename(columns=metrics)


def integers(frame: pd.DataFrame) -> pd.DataFrame:
    """`frame` with every numeric column that holds whole numbers as integers."""
    out = frame.copy()
    for c in out.columns:
        s = out[c]
        if pd.api.types.is_float_dtype(s) and s.notna().all() and all(math.isclose(x, round(x)) for x in s):
            out[c] = s.round().astype(int)
    return out
