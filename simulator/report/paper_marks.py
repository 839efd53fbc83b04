"""How a figure draws the paper's own values beside ours, the same on every figure: a value as a grey
hollow marker, a range as a grey hatched band, each with a legend entry that starts with "paper".
Our results keep the algorithm colours (style.PALETTE); the paper's are never coloured, so the two
cannot be confused. This is the book's only module that draws the paper's values: paper_values draws
the numbers tracked in reference/<paper>/paper_numbers.csv through it.

    paper_marks.points(ax, [1, 2], [94.7, 50.3], "CUBIC", marker=paper_marks.marker("cubic"))
    paper_marks.band(ax, 40, 480, "CUBIC RTT range")
"""
from __future__ import annotations

import matplotlib.pyplot as plt

GREY = "0.35"
BAND_GREY = "0.55"   # hatches lighter than markers: a band lies under our lines
# one hollow marker shape per algorithm, where several algorithms' paper values share a panel
MARKERS = {"cubic": "s", "bbr": "^", "qtcol": "v", "qtcolfair": "D", "reno": "o", "vegas": "P",
           "newreno": "X", "tahoe": "<"}
HATCHES = ["//", "\\\\", "xx", "..", "||"]


def label(what: str = "") -> str:
    """'paper', or 'paper: <what>'."""
    return f"paper: {what}" if what else "paper"


def marker(algorithm=None) -> str:
    return MARKERS.get(algorithm, "D")


def points(ax, x, y, what: str = "", marker: str = "D", line=False):
    """The paper's values at x as grey hollow markers, joined by a grey line if `line` (True: dotted; or a
    line style, e.g. the alpha's of style.alpha_style, so two series of one algorithm stay apart)."""
    ls = ":" if line is True else line or "none"
    return ax.plot(x, y, ls=ls, lw=0.9, color=GREY, marker=marker, ms=7, mfc="none", mec=GREY,
                   mew=1.4, label=label(what), zorder=6)[0]


def band(ax, lo, hi, what: str = "", hatch: str = HATCHES[0]):
    """A range the paper gives (lo-hi on the y axis), as a grey hatched band across the panel."""
    with plt.rc_context({"hatch.linewidth": 0.6}):
        return ax.axhspan(lo, hi, facecolor="none", edgecolor=BAND_GREY, hatch=hatch, lw=0.8, ls="--",
                          label=label(what), zorder=0.5)


def box(ax, x, width, lo, hi, what: str = "", hatch: str = HATCHES[0]):
    """A range the paper gives at one x position (e.g. beside a bar), as a grey hatched box `width` wide.
    A patch, not a bar: bars stick the axis to their bottom and hide what is below."""
    from matplotlib.patches import Rectangle

    with plt.rc_context({"hatch.linewidth": 0.6}):
        artist = ax.add_patch(Rectangle((x - width / 2, lo), width, hi - lo, facecolor="none", edgecolor=BAND_GREY,
                                        hatch=hatch, lw=0.8, ls="--", label=label(what), zorder=3))
    ax.autoscale_view()
    return artist


def line(ax, y, what: str = ""):
    """A value the paper gives across the whole axis (e.g. over all time), as a grey dashed line."""
    return ax.axhline(y, color=GREY, ls="--", lw=1.2, label=label(what), zorder=0.5)


def legend_handles(range_label: str = "paper: range", value_label: str = "paper: value") -> list:
    """Legend entries for a figure whose paper marks are not labelled one by one: a hatched band (a range),
    a hollow diamond on a dashed line (a value)."""
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch

    return [Patch(facecolor="none", edgecolor=BAND_GREY, hatch=HATCHES[0], ls="--", label=range_label),
            Line2D([], [], color=GREY, marker="D", ms=7, mfc="none", mec=GREY, mew=1.4, ls="--", lw=1.2,
                   label=value_label)]


def level(ax, y, x0, x1, what: str = "", marker: str = "D", n: int = 6, shift: float = 0.0):
    """A value the paper gives for a whole time span (a steady level): hollow markers along a dotted line;
    `shift` (a fraction of the markers' spacing) keeps two levels at one height from hiding each other."""
    step = (x1 - x0) / max(n - 1, 1)
    xs = [x0 + (i + shift) * step for i in range(n)]
    return points(ax, [x for x in xs if x <= x1], [y] * sum(x <= x1 for x in xs), what, marker, line=True)


def is_paper(artist) -> bool:
    return str(artist.get_label()).startswith("paper")
