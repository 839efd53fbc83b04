"""Small pieces several chapters share that chapter.Chapter does not offer: tables of
'mean [CI low, CI high]' cells (written by number_format), the note for a study that did not run."""
from __future__ import annotations

import pandas as pd

from simulator.report import number_format


def metric_columns(rows: pd.DataFrame, index: list, metrics, digits: int = 4) -> pd.DataFrame:
    """One row per `index` point, one 'mean [CI]' column per metric (number_format, the interval as
    computed: no bound)."""
    return number_format.metric_columns(rows, index, metrics, digits, lower=None)


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
