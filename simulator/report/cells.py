"""How a number is written in a table cell of the book: significant digits, integers as integers,
no float noise (two numbers equal to rounding are a tie), '–' for a missing value. Units go in the
column headers, never in the cells. `show_table` shows such cells with the numbers behind them as a
CSV download.

    num(96.40896944) -> '96.41'    num(5.0) -> '5'    difference(96.4, 93.1) -> '+3.3 (+3.5%)'
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from simulator.report import chapter

TIE = 1e-9   # relative difference below which two numbers are the same (float rounding, not a result)


def num(v, digits=4) -> str:
    """A table cell: '–' when missing, an integer as an integer, else `digits` significant digits
    (no exponent between 0.0001 and 1,000,000)."""
    if v is None or pd.isna(v):
        return "–"
    v = float(v)
    if v == round(v) and abs(v) < 1e15:
        return f"{int(round(v)):,}".replace(",", " ") if abs(v) >= 10000 else f"{int(round(v))}"
    if 1e-4 <= abs(v) < 1e6:
        text = f"{v:.{digits}g}"
        return f"{v:.{max(digits - 1 - int(np.floor(np.log10(abs(v)))), 0)}f}" if "e" in text else text
    return f"{v:.{digits - 1}e}"


def difference(ours, paper, digits=3) -> str:
    """'ours − paper' as '+1.23 (+2.1%)', or 'tie' when the two agree to rounding."""
    d = ours - paper
    if abs(d) <= TIE * max(abs(ours), abs(paper), 1e-300):
        return "tie"
    sign = "+" if d > 0 else "−"
    rel = f" ({sign}{num(abs(100 * d / paper), 2)}%)" if paper else ""
    return f"{sign}{num(abs(d), digits)}{rel}"


def show_table(ch, shown, data, name, caption) -> None:
    """`shown` (cells already written) as the book's table, `data` (the numbers behind it) as
    downloads/<name>, the caption under it ending with the download link."""
    ch.save_download(data, name)
    chapter.html(chapter.frame_html(shown, index=False, escape=False))
    ch.caption(f"{caption} {ch.download_link(name, 'Data (CSV)')}.")
