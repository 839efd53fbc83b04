"""Pieces of raw-HTML tables (cells spanning rows, several lines per cell): number and verdict cells.
Shown with chapter.html."""
from __future__ import annotations

import pandas as pd

# verdict -> colour of its word in claim tables (green, red, amber, grey)
BADGE = {"reproduced": "#1a7f37", "contradicted": "#cf222e", "inconclusive": "#9a6700", "not_testable": "#57606a"}
NOTE_STYLE = "font-size:0.9em;white-space:normal;color:#57606a"


def fmt(x) -> str:
    """A number to 4 significant digits, '–' when missing."""
    return "–" if pd.isna(x) else f"{x:.4g}"


def verdict_cell(verdict, note, extra="") -> str:
    """A verdict word in its colour, optional extra line, then the note in small grey type."""
    return (f"<b style='color:{BADGE.get(verdict, 'black')}'>{verdict}</b><br>{extra}"
            f"<div style='{NOTE_STYLE}'>{note}</div>")
