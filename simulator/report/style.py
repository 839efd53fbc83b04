"""One look for every figure of the report: algorithm colours, variant line styles, labels.

Imported by the notebooks: `from simulator.report import style`.
"""

import hashlib
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
# QtCol/QtColFair target-RTT factor alpha: one line style per value, the colour stays the algorithm's
ALPHA_STYLES = {1.1: ":", 1.2: "-", 1.3: "-.", 1.4: (0, (5, 1.5)), 1.5: "--"}
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
        "figure.dpi": 110, "savefig.dpi": 130, "font.size": 10, "axes.grid": True,
        "grid.alpha": 0.3, "axes.spines.top": False, "axes.spines.right": False,
        "legend.fontsize": 9, "legend.frameon": False, "svg.hashsalt": "tcpsim",
    })


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


def alpha_style(alpha):
    """Line style of a target-RTT factor (solid when there is none)."""
    try:
        return ALPHA_STYLES.get(round(float(alpha), 2), "-")
    except (TypeError, ValueError):
        return "-"
