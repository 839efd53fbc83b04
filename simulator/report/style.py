"""One look for every figure of the report: algorithm colours, variant line styles, labels.

Imported by the notebooks: `from simulator.report import style`.
"""

import hashlib
import math
import os

from simulator.tcp.cc import catalogue

# colours no built-in uses, for a researcher's own algorithms (simulator/tcp/cc/user.py)
USER_COLOURS = ("#000000", "#bcbd22", "#3f007d", "#b8860b")   # black, olive, indigo, dark gold


class _ByAlgorithm(dict):
    """A built-in's entry; for any other name (a user's algorithm) `unknown(name)`, so a figure
    that indexes it by algorithm never drops one it does not know."""

    def __init__(self, entries, unknown):
        super().__init__(entries)
        self.unknown = unknown

    def __missing__(self, name):
        return self.unknown(name)


def user_colour(name: str) -> str:
    """A colour of its own for a user's algorithm: the same for a name in every figure and build."""
    return USER_COLOURS[int(hashlib.sha256(name.encode()).hexdigest(), 16) % len(USER_COLOURS)]


ALGORITHMS = ["none", "tahoe", "reno", "newreno", "cubic", "bbr", "vegas", "qtcol", "qtcolfair"]
PALETTE = _ByAlgorithm({  # fixed across the whole book
    "none": "#7f7f7f",     # grey
    "tahoe": "#d62728",    # red   (the paper's Figure 1 draws Tahoe red ...)
    "reno": "#1f77b4",     # blue  (... and Reno blue)
    "newreno": "#9467bd",  # purple
    "cubic": "#2ca02c",    # green
    "bbr": "#ff7f0e",      # orange
    "vegas": "#8c564b",    # brown
    "qtcol": "#e377c2",    # pink
    "qtcolfair": "#17a2b8",  # teal
}, user_colour)
LABELS = _ByAlgorithm({"none": "none", "tahoe": "Tahoe", "reno": "Reno", "newreno": "NewReno", "cubic": "Cubic",
                       "bbr": "BBR", "vegas": "Vegas", "qtcol": "QtCol", "qtcolfair": "QtColFair"}, str)
# The M/M/1 paper's published code (catalogue entries published_*, the as_published variant's
# algorithms): its base algorithm's colour, so a figure reads the same in both variants, and a label
# that says it models the paper's code ("Reno (model of the paper's code)"); listed after the network algorithms.
PUBLISHED = {p: p.removeprefix("published_") for p in catalogue.PUBLISHED}   # published_reno -> reno
ALGORITHMS += list(PUBLISHED)
PALETTE.update({p: PALETTE[b] for p, b in PUBLISHED.items()})
LABELS.update({p: f"{LABELS[b]} (model of the paper's code)" for p, b in PUBLISHED.items()})
# QtCol/QtColFair target-RTT factor alpha: one line style per value and one shade of the algorithm's colour
# (light to dark, 1.2 the colour itself), so each alpha's curve has a colour of its own, not only a dash
ALPHA_STYLES = {1.1: ":", 1.2: "-", 1.3: "-.", 1.4: (0, (5, 1.5)), 1.5: "--"}
ALPHA_SHADES = {1.1: 0.45, 1.2: 0.0, 1.3: -0.3, 1.4: -0.5, 1.5: -0.68}   # > 0: towards white, < 0: towards black
VARIANTS = ["as_published", "standard"]
VARIANT_TITLES = {
    "as_published": "as_published (our model of the paper's code)",
    "standard": "standard (ACK-clocked TCP)",
}
METRICS = {  # metric -> axis label with unit
    "throughput": "throughput (packets/s)",
    "avg_delay": "average delay (s)",
    "loss_rate": "loss rate (%)",
}
PARAM_LABELS = {"lambda": "arrival rate λ (packets/s)", "K": "buffer K (packets)",
                "N": "packets sent N", "mu": "service rate μ (packets/s)", "theta": "deadline θ (s)"}


def apply(plt):
    """Readable defaults for figures shown at page width; SVGs byte-identical from run to run
    (fixed element ids, and the date matplotlib writes into them taken from SOURCE_DATE_EPOCH)."""
    os.environ.setdefault("SOURCE_DATE_EPOCH", "0")
    plt.rcParams.update({
        "figure.dpi": BOOK_DPI, "savefig.dpi": 130, "font.size": 10, "axes.grid": True,
        "grid.alpha": 0.3, "axes.spines.top": False, "axes.spines.right": False,
        "legend.fontsize": 9, "legend.frameon": False, "svg.hashsalt": "tcpsim",
    })


# The smallest text a reader should have to read in a figure, in CSS pixels, and the width of the book's
# article column it is checked at (a 1280-pixel-wide window with the navigation bar): a chapter shows
# a figure's PNG at figure.dpi pixels per inch, shrunk to the column when it is wider.
MIN_TEXT_PX = 9
PAGE_PX = 900
BOOK_DPI = 110      # figure.dpi: the pixels per inch a chapter shows its figures at


def smallest_text(fig) -> tuple[float, str]:
    """(size in points, the text) of the smallest visible text of `fig`: tick labels, legends, titles,
    annotations; (inf, '') when it has none."""
    import matplotlib.text

    fig.canvas.draw()
    texts = [(t.get_fontsize(), t.get_text().strip()) for t in fig.findobj(matplotlib.text.Text)
             if t.get_visible() and t.get_text().strip()]
    return min(texts, key=lambda x: x[0]) if texts else (math.inf, "")


def text_px(points: float, shown_width_px: float, page_px: int = PAGE_PX, dpi: float = BOOK_DPI) -> float:
    """Text of `points` in CSS pixels in a figure the book shows `shown_width_px` wide at `dpi` pixels
    per inch, shrunk to the column (`page_px`) when wider."""
    return points / 72 * dpi * min(1.0, page_px / shown_width_px)


def smallest_text_px(fig, page_px: int = PAGE_PX, dpi: float = BOOK_DPI) -> float:
    """The size in CSS pixels of the smallest visible text of `fig` as the book shows it (its width in
    inches at `dpi`; Chapter.figure checks the saved image's own width, legends outside included)."""
    points, _ = smallest_text(fig)
    return text_px(points, fig.get_figwidth() * dpi, page_px, dpi)


class FigureTextTooSmall(ValueError):
    """A figure's text would show under MIN_TEXT_PX in the book."""


def check_text_size(fig, name: str, shown_width_px: float) -> None:
    """Refuse a figure whose smallest text the book would show under MIN_TEXT_PX pixels, naming the
    figure, the text, its size and how wide the figure is shown."""
    points, text = smallest_text(fig)
    px = text_px(points, shown_width_px)
    if px < MIN_TEXT_PX:
        raise FigureTextTooSmall(
            f"figure {name}: text {text[:40]!r} ({points:g} pt) shows at {px:.1f} px in the book (at least "
            f"{MIN_TEXT_PX} px): the figure is {shown_width_px:.0f} px wide, shrunk to the {PAGE_PX}-px column; "
            f"make the figure narrower or the text larger")


def base(algorithm):
    """The algorithm a published_* entry is the paper's code of (published_reno -> reno); else itself."""
    return PUBLISHED.get(algorithm, algorithm)


def order(algs):
    """Algorithms in the book's fixed order."""
    return [a for a in ALGORITHMS if a in set(algs)] + sorted(set(algs) - set(ALGORITHMS))


def rank(algorithm) -> int:
    """Position in the book's order (a published_* entry at its base's); any other name (a user's) after all."""
    return ALGORITHMS.index(base(algorithm)) if base(algorithm) in ALGORITHMS else len(ALGORITHMS)


def drawn(paper, present):
    """What a figure of a paper's algorithms draws: those of `paper` (in its order) that are in the data
    (`present`), then any other algorithm of the data (a user's) in the book's order."""
    present = set(present)
    return [a for a in paper if a in present] + order(present - set(paper))


def label(algorithm, alpha=None):
    """'QtColFair α=1.2', or the plain label when the algorithm has no alpha."""
    base = LABELS[algorithm]
    try:
        a = float(alpha)
    except (TypeError, ValueError):
        return base
    return base if a != a else f"{base} α={a:g}"


def _shade(hex_colour: str, t: float) -> str:
    """`hex_colour` mixed with white (t > 0) or black (t < 0) by |t|."""
    rgb = [int(hex_colour[i:i + 2], 16) for i in (1, 3, 5)]
    end = 255 if t > 0 else 0
    return "#" + "".join(f"{round(c + (end - c) * abs(t)):02x}" for c in rgb)


def colour(algorithm, alpha=None) -> str:
    """The curve's colour: the algorithm's, in a shade of its own per target-RTT factor alpha."""
    try:
        a = round(float(alpha), 2)
    except (TypeError, ValueError):
        return PALETTE[algorithm]
    return PALETTE[algorithm] if a != a else _shade(PALETTE[algorithm], ALPHA_SHADES.get(a, 0.0))


def axis_break(ax, axis: str = "y") -> None:
    """Mark a value axis that does not start at 0 (a bar chart's axis from 90): two short slashes across
    the axis at its start, as a printed figure marks a broken axis."""
    kw = dict(transform=ax.transAxes, color="black", lw=1, clip_on=False, gid="axis-break")
    d = 0.012
    for off in (0.0, 0.022):
        if axis == "y":
            ax.plot([-d, d], [off - d, off + d], **kw)
        else:
            ax.plot([off - d, off + d], [-d, d], **kw)


def alpha_style(alpha):
    """Line style of a target-RTT factor (solid when there is none)."""
    try:
        return ALPHA_STYLES.get(round(float(alpha), 2), "-")
    except (TypeError, ValueError):
        return "-"
