"""Synthetic long tables and traces with the layout the aggregate writes, one row per grid point of a
real study file (config/studies/<paper>/<study>.yaml, or the tiny profile's config/test/studies), so figure
tests cover every point and algorithm the study runs; and what a figure looks like at page width."""
from __future__ import annotations

import zlib
from pathlib import Path

import numpy as np
import pandas as pd

from simulator import study_files
from simulator.study import load_study

ROOT = Path(__file__).resolve().parents[1]
STUDIES = ROOT / "config" / "studies"
PAGE_PX = 950          # width of the book's content column at 1,280 px


def study(name, folder=STUDIES):
    return load_study(study_files.find(folder, name))


def _params(s, p) -> dict:
    return {**s.fixed, **p.values}


def _rng(*key) -> np.random.Generator:
    return np.random.default_rng(zlib.crc32(repr(key).encode()))


def tables(name, metrics, folder=STUDIES, n=10) -> pd.DataFrame:
    """Every grid point of study `name` x `metrics`: positive means with a CI and a per-run range."""
    s, rows = study(name, folder), []
    for p in s.points():
        for m in metrics:
            mean = float(_rng(name, p.path, m).uniform(1, 50))
            rows.append({"study": name, "paper": s.paper, "point": p.path, "model": s.model, **_params(s, p),
                         "metric": m, "mean": mean, "sd": 1.0, "n": n, "ci_low": mean - 1, "ci_high": mean + 1,
                         "run_p025": mean - 2, "run_p975": mean + 2, "run_min": mean - 3, "run_max": mean + 3})
    return pd.DataFrame(rows)


def traces(name, columns, folder=STUDIES, seeds=(1, 2), times=np.arange(0, 10, 0.5)) -> pd.DataFrame:
    """Seeds x times of every grid point of study `name`; `columns(params)` gives the trace columns."""
    s, frames = study(name, folder), []
    for p in s.points():
        for seed in seeds:
            cols = {c: _rng(name, p.path, seed, c).uniform(0.5, 5, len(times)) for c in columns(_params(s, p))}
            frames.append(pd.DataFrame({"study": name, "paper": s.paper, "point": p.path, "model": s.model,
                                        **_params(s, p), "seed": seed, "t": times, **cols}))
    return pd.concat(frames, ignore_index=True)


def algorithms(name, folder=STUDIES, **where) -> set:
    """The algorithms of the study's points (those whose grid values match `where`)."""
    return {p.values.get("algorithm", study(name, folder).fixed.get("algorithm"))
            for p in study(name, folder).points()
            if all(str(_params(study(name, folder), p).get(k)) == str(v) for k, v in where.items())}


def smallest_font_px(fig, page_px=PAGE_PX) -> float:
    """The smallest visible text of `fig` in screen pixels when shown as the book shows it: at the
    figure's dpi, cropped tight, scaled down to the page's width when wider."""
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    width = fig.get_tightbbox(renderer).width * fig.dpi
    scale = min(1.0, page_px / width)
    sizes = [t.get_fontsize() for t in fig.findobj(lambda a: hasattr(a, "get_text") and hasattr(a, "get_fontsize"))
             if t.get_visible() and t.get_text().strip()]
    return min(sizes) * fig.dpi / 72 * scale
