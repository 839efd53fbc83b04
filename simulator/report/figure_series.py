"""What each plotted series of a figure was drawn from: its grid points and its numbers.

A drawing function registers every series it plots with `record(ax, label, rows, x, y, ...)`, giving the
table or trace rows it drew (columns study, point, algorithm); the paper's values with `record_paper`.
The registry lives on the Figure:

* `frame(fig)` is the data behind the figure, one row per plotted value (the chapter's CSV download);
* `problems(fig)` names every series that combines grid points: a series is one grid point (a time
  series), or, along a swept parameter, one point per x value, the points differing only in that
  parameter;
* `algorithms(fig)` is the set of algorithms drawn, for the check that a figure covers its study.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

ATTR = "series_log"


def _log(fig) -> list:
    if not hasattr(fig, ATTR):
        setattr(fig, ATTR, [])
    return getattr(fig, ATTR)


def _keep(rows: pd.DataFrame) -> pd.DataFrame:
    return rows[[c for c in ("study", "point", "algorithm") if c in rows]]


def record(ax, label, rows, x, y, lo=None, hi=None, along=(), panel=None) -> None:
    """Series `label` of `ax`, drawn from `rows` at x (the data values, not positions) with y and its CI
    (lo, hi): rows of one grid point, or aligned with x (one row each), or a list of the rows drawn at
    each x; `along`: the swept parameter(s) x stands for (none: one grid point); `panel` names the panel
    in the data (default: its titles and y label)."""
    n = len(np.atleast_1d(x))
    per_x = [_keep(r) for r in rows] if isinstance(rows, list) else None
    rows = pd.concat(per_x) if per_x else _keep(rows)
    _log(ax.figure).append(dict(
        ax=ax, label=label, panel=panel, rows=rows, per_x=per_x,
        x=np.atleast_1d(x), y=np.atleast_1d(y), lo=np.full(n, np.nan) if lo is None else np.atleast_1d(lo),
        hi=np.full(n, np.nan) if hi is None else np.atleast_1d(hi),
        along=(along,) if isinstance(along, str) else tuple(along)))


def record_paper(ax, label, low, high, source, x=None, panel=None, desc=None) -> None:
    """A value (low == high) or range the paper states, drawn on `ax` (at x, or across the axis); `desc`:
    what a caption says of it."""
    _log(ax.figure).append(dict(ax=ax, label=label, panel=panel, paper=(low, high, source), x=np.atleast_1d(x),
                                desc=desc))


def series(fig) -> list[dict]:
    return [s for s in getattr(fig, ATTR, []) if "paper" not in s]


def points(s: dict) -> list[tuple]:
    """The (study, point) pairs a series was drawn from."""
    r = s["rows"].dropna(subset=["point"]) if "point" in s["rows"] else s["rows"].iloc[:0]
    return sorted(set(zip(r.get("study", [""] * len(r)), r["point"])))


def _values(point: str) -> dict:
    return dict(part.split("~", 1) for part in point.split("/") if "~" in part)


def problems(fig) -> list[str]:
    """Series drawn from no grid point, from two points where one belongs, or from points that differ in
    more than the parameter they are plotted along."""
    out = []
    for s in series(fig):
        pts, name = points(s), f"{s['label']!r} ({s['panel'] or _panel(s['ax'])})"
        if not pts:
            out.append(f"{name}: drawn from no grid point")
        elif len({study for study, _ in pts}) > 1:
            out.append(f"{name}: combines studies {sorted({study for study, _ in pts})}")
        elif s["per_x"] and any(r["point"].nunique() > 1 for r in s["per_x"]):
            at = [str(x) for x, r in zip(s["x"], s["per_x"]) if r["point"].nunique() > 1]
            out.append(f"{name}: combines grid points at {at}: {[p for _, p in pts]}")
        elif not s["along"] and len(pts) > 1:
            out.append(f"{name}: combines {len(pts)} grid points {[p for _, p in pts]}")
        elif s["along"]:
            vals = [_values(p) for _, p in pts]
            rest = {tuple(sorted((k, v) for k, v in d.items() if k not in s["along"])) for d in vals}
            swept = {tuple(d.get(k) for k in s["along"]) for d in vals}
            if len(rest) > 1 or len(swept) < len(vals):
                out.append(f"{name}: combines grid points beyond {'/'.join(s['along'])}: {[p for _, p in pts]}")
    return out


def algorithms(fig) -> set:
    return {a for s in series(fig) if "algorithm" in s["rows"] for a in s["rows"]["algorithm"].dropna()}


def _panel(ax) -> str:
    return " | ".join(t for t in (ax.get_title("left"), ax.get_title(), ax.get_ylabel()) if t).replace("\n", " ")


def frame(fig, wide: bool = False) -> pd.DataFrame:
    """The figure's data: panel, series, study, point, x, mean, ci_low, ci_high (columns that are empty
    everywhere left out); the paper's values as rows with paper_low, paper_high and paper_source. `wide`:
    one column per panel instead (for time series, whose panels share their x values), the paper's values
    below."""
    out = []
    for s in getattr(fig, ATTR, []):
        base = dict(panel=s["panel"] or _panel(s["ax"]), series=s["label"])
        if "paper" in s:
            low, high, source = s["paper"]
            out += [dict(base, x=x, paper_low=low, paper_high=high, paper_source=source) for x in s["x"]]
            continue
        rows, pts = s["rows"], points(s)
        aligned = len(rows) == len(s["x"]) and "point" in rows
        if aligned:     # one row per x (a time series: thousands): columns as lists, not a lookup per value
            studies = rows["study"].tolist() if "study" in rows else [""] * len(rows)
            row_points = rows["point"].tolist()
        for i, x in enumerate(s["x"]):
            at = points(dict(rows=s["per_x"][i])) if s["per_x"] else pts
            study, point = ((studies[i], row_points[i]) if aligned
                            else (at[0] if len(at) == 1 else ("", " ".join(p for _, p in at))))
            out.append(dict(base, study=study, point=point, x=x, mean=s["y"][i], ci_low=s["lo"][i], ci_high=s["hi"][i]))
    d = pd.DataFrame(out).dropna(axis=1, how="all")
    d = d.apply(lambda c: c.map(lambda v: float(f"{v:.6g}")) if pd.api.types.is_float_dtype(c) else c)
    if wide:
        ours, paper = (d[d["point"].notna()], d[d["point"].isna()]) if "point" in d else (d, d.iloc[:0])
        ours = ours.pivot_table(index=["series", "study", "point", "x"], columns="panel", values="mean", sort=False)
        d = pd.concat([ours.reset_index().rename_axis(columns=None), paper.dropna(axis=1, how="all")])
    return d


def show(ch, fig, name, caption, wide: bool = False) -> None:
    """Chapter `ch` shows `fig` as figure `name` with its caption, and writes the figure's data (frame) as
    downloads/<name>.csv, linked at the caption's end."""
    data = frame(fig, wide)
    ch.figure(fig, name)
    ch.save_download(data, f"{name}.csv")
    ch.caption(f"{caption} {ch.download_link(f'{name}.csv', 'Data of this figure (CSV)')}.")
