"""Small pieces several chapters share that chapter.Chapter does not offer: 'mean [CI low, CI high]'
table cells and tables of them, the note for a study that did not run."""
from __future__ import annotations

import pandas as pd


def mean_ci(frame: pd.DataFrame, digits: int = 4) -> list:
    """'mean [ci_low, ci_high]' of each row, `digits` significant digits."""
    f = f"{{:.{digits}g}}"
    return [f"{f.format(m)} [{f.format(lo)}, {f.format(hi)}]"
            for m, lo, hi in zip(frame["mean"], frame["ci_low"], frame["ci_high"])]


def metric_columns(rows: pd.DataFrame, index: list, metrics, digits: int = 4) -> pd.DataFrame:
    """One row per `index` point, one 'mean [CI]' column per metric of long-table `rows`, in the order
    of `metrics` and renamed by it when it is a dict {metric: column title}."""
    d = rows.assign(cell=mean_ci(rows, digits))
    wide = d.pivot_table(index=index, columns="metric", values="cell", aggfunc="first")
    wide = wide[[m for m in metrics if m in wide.columns]]
    return wide.rename(columns=metrics) if isinstance(metrics, dict) else wide


def ran(tables: pd.DataFrame, study: str) -> bool:
    return "study" in tables and study in set(tables["study"])


def not_run(study: str) -> str:
    """What a chapter says in place of the figures of a study the build did not run."""
    return f"*Study `{study}` did not run in this build (enable it in `config/config.yaml`).*"


def figure_if_ran(ch, tables: pd.DataFrame, study: str, draw, name: str, caption: str) -> bool:
    """Draw `draw(tables)` as figure `name` with its caption if `study` ran; otherwise say it did not.
    True if drawn."""
    if not ran(tables, study):
        ch.markdown(not_run(study))
        return False
    ch.figure(draw(tables), name)
    ch.caption(caption)
    return True
