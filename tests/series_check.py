"""Checks that a drawn figure is complete and unmixed (issue: every figure shows every algorithm and
variant of its study, each series from exactly one grid point).

  * complete: the labels a figure shows (legend lines, error-bar series, box and bar tick labels, panel
    titles) include the label (style.label) of every grid point the figure is meant to draw, taken from
    the study file itself;
  * unmixed: within a panel no label is drawn twice, and every series runs forward along x (time or
    buffer size): a series that joined two grid points would restart its time axis or repeat an x.

The paper's own values (paper_marks: labels starting with "paper") are not series of ours.
"""
from __future__ import annotations

import numpy as np
from matplotlib.container import ErrorbarContainer

from simulator import study as studies
from simulator.report import paper_marks, style


def expected_labels(study_file, **where) -> set:
    """style.label of every grid point of the study file whose values match `where` (e.g. flows=5)."""
    out = set()
    for p in studies.load_study(study_file).points():
        if all(np.isclose(float(p.params.get(k, np.nan)), float(v)) for k, v in where.items()):
            out.add(style.label(p.params["algorithm"], p.params.get("alpha")))
    return out


def series(fig) -> list:
    """[(panel index, label, x values)] of every labelled series of ours in the figure."""
    out = []
    for i, ax in enumerate(fig.axes):
        in_bars = set()
        for c in ax.containers:
            if isinstance(c, ErrorbarContainer) and not str(c.get_label()).startswith("_"):
                line = c.lines[0]
                in_bars.add(id(line))
                out.append((i, c.get_label(), np.asarray(line.get_xdata(), float)))
        for ln in ax.get_lines():
            lab = str(ln.get_label())
            if id(ln) in in_bars or lab.startswith("_") or paper_marks.is_paper(ln):
                continue
            out.append((i, lab, np.asarray(ln.get_xdata(), float)))
    return out


def shown_labels(fig) -> set:
    """Every label the figure shows for our series: lines, error bars, tick labels, panel titles."""
    labels = {lab for _, lab, _ in series(fig)}
    for ax in fig.axes:
        labels |= {t.get_text() for t in ax.get_xticklabels()}
        labels |= {ax.get_title(loc=loc) for loc in ("left", "center")}
    return {lab for lab in labels if lab}


def shown_label_text(fig) -> str:
    return " | ".join(sorted(shown_labels(fig)))


def assert_complete(fig, expected) -> None:
    """Every expected label appears somewhere as a series, a tick or a panel title (a label of the form
    'QtColFair α=1.2, configured queue only' counts for 'QtColFair α=1.2')."""
    shown = shown_labels(fig)
    missing = {e for e in expected if not any(s == e or s.startswith(f"{e},") for s in shown)}
    assert not missing, f"figure lacks {sorted(missing)}; it shows {sorted(shown)}"


def assert_unmixed(fig) -> None:
    """No label twice in a panel; every series' x strictly increasing."""
    seen = set()
    for i, lab, x in series(fig):
        assert (i, lab) not in seen, f"panel {i}: {lab} drawn twice"
        seen.add((i, lab))
        x = x[np.isfinite(x)]
        assert np.all(np.diff(x) > 0), f"panel {i}: the {lab} series goes back along x (two grid points joined?)"
