"""Numbers in the report's tables as a reader wants them: significant digits, integers as integers,
float noise as the tie it is (5.2e-14 -> 0), a mean with its 95% CI as 'mean [low, high]' ('mean
(deterministic)' when every seed gave the same value, never a zero-width '[x, x]'), the interval cut at the metric's bound (a rate, a delay
or a count is never below 0), a difference or a tie, and wide tables of such cells, one column per
metric. The one place the book's table numbers are written (cells.py and chapter_tables.py use it).

    num(96.40896944, 4) -> '96.41'    num(5.0) -> '5'    difference(96.4, 93.1) -> '+3.3 (+3.5%)'"""
from __future__ import annotations

import math

import pandas as pd

NOISE = 1e-9        # below this a difference or value is float noise: a tie, written 0


def num(v, digits: int = 3) -> str:
    """`v` to `digits` significant digits: '–' when missing, text as it is, float noise as 0, an
    integer without decimals (grouped by thin spaces from 10 000), no exponent between 0.0001 and the
    integers, a power of ten below ('9.33×10⁻⁶')."""
    if isinstance(v, str):
        return v
    if v is None or pd.isna(v):
        return "–"
    v = 0.0 if abs(v) < NOISE else float(v)
    if (v.is_integer() or abs(v) >= 10 ** digits) and abs(v) < 1e15:
        i = round(v)
        return f"{i:,}".replace(",", " ") if abs(i) >= 10000 else f"{i:d}"
    if abs(v) >= 1e-4:
        text = f"{v:.{digits}g}"
        return f"{v:.{max(digits - 1 - int(math.floor(math.log10(abs(v)))), 0)}f}" if "e" in text else text
    mantissa, exponent = f"{v:.{digits - 1}e}".split("e")      # 9.33×10⁻⁶, never the programmer's 9.33e-06
    return f"{mantissa.rstrip('0').rstrip('.')}×10{str(int(exponent)).translate(SUPERSCRIPT)}"


SUPERSCRIPT = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")
P_FLOOR = 1e-6      # below this a p-value is written "< 10⁻⁶": more digits say nothing a reader can use


def p_value(p) -> str:
    """A p-value as a reader reads it: 'p = 0.032', 'p = 3×10⁻⁴', 'p < 10⁻⁶', 'p > 0.99' (never 'p = 1'
    or 'p = 1e-130'); 'no test' when there is none."""
    if p is None or pd.isna(p):
        return "no test"
    if p < P_FLOOR:
        return "p < 10" + str(round(math.log10(P_FLOOR))).translate(SUPERSCRIPT)
    if p > 0.99:
        return "p > 0.99"
    if p >= 1e-3:
        return f"p = {p:.2g}"
    mantissa, exponent = f"{p:.0e}".split("e")
    return f"p = {mantissa}×10{str(int(exponent)).translate(SUPERSCRIPT)}"


def difference(ours, paper, digits: int = 3) -> str:
    """'ours − paper' as '+1.23 (+2.1%)', or 'tie' when the two agree to rounding."""
    d = ours - paper
    if abs(d) <= NOISE * max(abs(ours), abs(paper), 1e-300):
        return "tie"
    sign = "+" if d > 0 else "−"
    rel = f" ({sign}{num(abs(100 * d / paper), 2)}%)" if paper else ""
    return f"{sign}{num(abs(d), digits)}{rel}"


DETERMINISTIC = "deterministic"     # written instead of a zero-width CI: every seed gave the same value


def ci(mean, low, high, digits: int = 3, lower: float | None = 0.0, fmt=None) -> str:
    """The 95% CI as '[low, high]', cut at `lower` (None: no bound); 'deterministic' when it is a point
    at the mean (every seed the same), '' when there is none (one seed). `fmt` writes a number (num)."""
    fmt = fmt or (lambda v: num(v, digits))
    if low is None or high is None or pd.isna(low) or pd.isna(high):
        return ""
    if lower is not None:
        low, high = max(low, lower), max(high, lower)
    m, lo, hi = fmt(mean), fmt(low), fmt(high)
    return DETERMINISTIC if lo == hi == m else f"[{lo}, {hi}]"


def mean_ci(mean, low, high, digits: int = 3, lower: float | None = 0.0, fmt=None) -> str:
    """'mean [low, high]', the CI cut at `lower` (None: no bound); 'mean (deterministic)' when the CI is
    a point; the mean alone when there is no CI."""
    fmt = fmt or (lambda v: num(v, digits))
    interval = ci(mean, low, high, digits, lower, fmt)
    if pd.isna(mean):
        return num(mean)
    return fmt(mean) + (f" ({interval})" if interval == DETERMINISTIC else f" {interval}" if interval else "")


def mean_ci_html(mean, low, high, digits: int = 3, lower: float | None = 0.0, fmt=None, bold: bool = False) -> str:
    """mean_ci for an HTML cell: the interval (or 'deterministic') in small type."""
    fmt = fmt or (lambda v: num(v, digits))
    interval = ci(mean, low, high, digits, lower, fmt)
    m = f"<b>{fmt(mean)}</b>" if bold else fmt(mean)
    return m + (f" <small>{interval}</small>" if interval else "")


def cells(rows: pd.DataFrame, digits: int = 3, lower: float | None = 0.0) -> list[str]:
    """mean_ci of every row of a long table (columns mean, ci_low, ci_high)."""
    return [mean_ci(m, lo, hi, digits, lower) for m, lo, hi in zip(rows["mean"], rows["ci_low"], rows["ci_high"])]


def metric_columns(rows: pd.DataFrame, index: list, metrics, digits: int = 3,
                   lower: float | None = 0.0) -> pd.DataFrame:
    """One row per `index` point, one 'mean [CI]' column per metric of long-table `rows`, in the order
    of `metrics` and renamed by it when it is a dict {metric: column title with unit}."""
    d = rows.assign(cell=cells(rows, digits, lower))
    wide = d.pivot_table(index=index, columns="metric", values="cell", aggfunc="first")
    wide = wide[[m for m in metrics if m in wide.columns]]
    return wide.rename(columns=metrics) if isinstance(metrics, dict) else wide


def integers(frame: pd.DataFrame) -> pd.DataFrame:
    """`frame` with every numeric column that holds whole numbers as integers."""
    out = frame.copy()
    for c in out.columns:
        s = out[c]
        if pd.api.types.is_float_dtype(s) and s.notna().all() and all(math.isclose(x, round(x)) for x in s):
            out[c] = s.round().astype(int)
    return out
