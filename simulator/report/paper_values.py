"""The numbers a paper states, beside ours, drawn and printed one way across the book.

A paper's numbers are tracked in reference/<paper>/paper_numbers.csv (checked before any job by
simulator/reference.py): where the paper states each, the study, metric and algorithm it belongs to,
the grid points it holds at (`where`: 'flows>1', 'queue=fq', ...; empty when the paper does not say),
the value or range (low, high) and the paper's words.

Figures draw them through paper_marks, the book's one drawing convention for the paper's values (grey,
hollow markers, hatched bands, labels starting with "paper"): a range as a hatched band (across the
axis) or box (at one x), a single value as a hollow diamond (at one x) or a dashed line (across the axis). Tables print them as the paper
gives them, a range as a range ("25–40 ms"), never its midpoint.
"""
from __future__ import annotations

from pathlib import Path

import pandas as pd

from simulator import reference
from simulator.report import figure_series, paper_marks, style

RANGE_LABEL, VALUE_LABEL = paper_marks.label("range"), paper_marks.label("value")


def load(reference_dir, paper) -> pd.DataFrame:
    """The paper's stated numbers (empty when the paper has none tracked)."""
    if paper not in reference.paper_numbers_files():
        return pd.DataFrame(columns=reference.PAPER_NUMBER_COLUMNS)
    path = Path(reference_dir) / reference.paper_numbers_files()[paper]
    return pd.DataFrame(reference.check_paper_numbers(path, [s for s in pd.read_csv(path)["study"]]))


def holds(where: str, params: dict) -> bool:
    """Whether the condition `where` ('flows>1;queue=fq'; empty: always) holds at the parameters `params`
    (a parameter it names that `params` lacks: it does not hold)."""
    for cond in filter(None, str(where if where == where else "").split(";")):
        op = ">" if ">" in cond else "="
        name, value = cond.split(op, 1)
        if name not in params:
            return False
        v = params[name]
        if not (float(v) > float(value) if op == ">" else str(v) == value):
            return False
    return True


def select(numbers: pd.DataFrame, study, metric, algorithm=None, **params) -> pd.DataFrame:
    """The numbers of `study` and `metric` (and `algorithm`) that hold at `params` (none when `numbers` is
    None)."""
    if numbers is None or numbers.empty:
        return pd.DataFrame(columns=reference.PAPER_NUMBER_COLUMNS)
    d = numbers[(numbers["study"] == study) & (numbers["metric"] == metric)]
    if algorithm is not None:
        d = d[d["algorithm"] == algorithm]
    return d[[holds(w, params) for w in d["where"]]]


def value(row) -> str:
    """'25–40', '160': the value or range, without its unit."""
    return f"{row['low']:g}" if row["low"] == row["high"] else f"{row['low']:g}–{row['high']:g}"


def text(row) -> str:
    """'25–40 ms', '160 ms', '5–6%'."""
    return f"{value(row)}{'' if row['unit'] == '%' else ' '}{row['unit']}"


def mark(ax, row, x=None, at=None, width=0.18, who=None, panel=None, context=""):
    """Draw `row` on `ax`: at position x (a band `width` wide, or a hollow diamond), or across the axis (a
    band or a dashed line); registered as the figure's data at `at` (the x value the position stands for;
    default x), for the algorithms `who` (default the row's), in `context` (what a caption names it by)."""
    low, high = row["low"], row["high"]
    what = "range" if high > low else "value"
    if x is None and high > low:
        paper_marks.band(ax, low, high, what)
    elif x is None:
        paper_marks.line(ax, low, what)
    elif high > low:
        paper_marks.box(ax, x, width, low, high, what)
    else:
        paper_marks.points(ax, [x], [low], what)
    who = who or style.label(row["algorithm"], None)
    figure_series.record_paper(ax, f"paper: {who}", low, high, f"{row['source']}: {row['words']}",
                               x if at is None else at, panel, desc=(row["source"], context, text(row), who))


def _and(words) -> str:
    return " and ".join([", ".join(words[:-1]), words[-1]] if len(words) > 2 else words)


def described(fig) -> str:
    """The paper's numbers drawn on `fig`, for its caption: 'Reno and NewReno 3–4 packets; Vegas 3 packets
    (Scenario 2, Figure 4)', each context named ('WiFi-WiFi: ...'); '' when none is drawn."""
    whos: dict = {}
    for s in getattr(fig, figure_series.ATTR, []):
        if "paper" in s:
            source, context, value, who = s["desc"]
            names = whos.setdefault((source, context, value), [])
            names += [w for w in who.split(", ") if w not in names]
    parts: dict = {}
    for (source, context, value), who in whos.items():
        parts.setdefault(source, {}).setdefault(context, []).append(f"{_and(who)} {value}")
    return "; ".join("; ".join(f"{c + ': ' if c else ''}{', '.join(v)}" for c, v in by.items()) + f" ({source})"
                     for source, by in parts.items())


def handles() -> list:
    """Legend entries of the paper's marks: a hatched band (range), a hollow diamond or dashed line (value)."""
    return paper_marks.legend_handles(RANGE_LABEL, VALUE_LABEL)


def drawn(fig) -> bool:
    """Whether any paper value is drawn on `fig`."""
    return any("paper" in s for s in getattr(fig, figure_series.ATTR, []))
