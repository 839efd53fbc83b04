"""The generated page of a study no chapter reads (chapter_studies.py): its parameters, every metric
per grid point with its 95% CI, and each metric against each swept parameter, from the study file and
its long table results/tables/<study>.csv alone, so a user's new sweep shows up without code.

notebooks/study.ipynb, run by papermill once per such study, only calls:

    page = study_page.load(study_file, table_file)
    study_page.show_intro(ch, page); show_parameters(ch, page); show_metrics(ch, page); show_figures(ch, page)

Units: a parameter's from its model's declaration (simulator/scenarios/<model>.params.yaml), a
metric's from the model's outputs file (`units:` of simulator/scenarios/<model>.outputs.yaml) where it
gives one; else from the name's suffix (_mbps, _ms, _s, _pct, _pkts); else the name alone.
"""
from __future__ import annotations

import html as html_text
import math
import textwrap
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from simulator.report import style
from simulator.report import chapter, number_format

SUFFIX_UNITS = {"_mbps": "Mbit/s", "_gbps": "Gbit/s", "_ms": "ms", "_s": "s", "_pct": "%", "_pkts": "packets"}
LINESTYLES = ["-", "--", ":", "-."]
MARKERS = ["o", "s", "^", "D", "v"]
PANEL_COLUMNS = 3


@dataclass
class Page:
    study: object          # simulator.study.Study
    table: pd.DataFrame    # the study's rows of its long table
    model: object          # simulator.params.Model of the study's model
    metric_units: dict     # metric -> unit, as declared

    @property
    def name(self) -> str:
        return self.study.name

    @property
    def source(self) -> str:
        """The study file as the reader knows it (relative to the repository)."""
        f = Path(self.study.file)
        if f.is_absolute():
            try:
                f = f.relative_to(Path.cwd())
            except ValueError:
                return f.name
        return f.as_posix()

    @property
    def swept(self) -> list:
        """Grid keys that tell points apart, in study-file order: those taking two or more values, and
        those only some of several grids set (`bidir: [true]` in a grid of its own)."""
        grids = self.study.grids or [self.study.grid]
        return [k for k, v in self.study.grid.items() if len(v) > 1 or any(k not in g for g in grids)]

    @property
    def numeric(self) -> list:
        """Swept keys whose every value is a number: the x axes of the figures."""
        return [k for k in self.swept if k != "algorithm" and all(is_number(v) for v in self.study.grid[k])]

    @property
    def metrics(self) -> list:
        """The table's metrics, in the order the model declares them."""
        present = list(dict.fromkeys(self.table["metric"]))
        return [m for m in self.model.metrics if m in present] + [m for m in present if m not in self.model.metrics]

    def seeds(self) -> str:
        n = self.table["n"].dropna()
        if n.empty:
            return "0"
        return f"{int(n.min())}" if n.min() == n.max() else f"{int(n.min())}-{int(n.max())}"


def is_number(v) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)


def load(study_file, table_file) -> Page:
    """The study (checked as the workflow checks it) and its rows of the long table."""
    from simulator.safe_yaml import load_own

    from simulator import registry
    from simulator.study import load_study

    study = load_study(study_file)
    table = pd.read_csv(table_file)
    table = table[table["study"] == study.name] if "study" in table else table
    outputs = Path(registry.scenario(study.model).__file__).with_suffix(".outputs.yaml")
    units = (load_own(outputs.read_text()) or {}).get("units") or {}
    return Page(study, table.reset_index(drop=True), registry.model(study.model), dict(units))


def declaration_files(model: str) -> list:
    """The files of a model's declaration a study page reads (parameter and metric units), relative to
    the repository: inputs of the workflow's rule notebook_study."""
    from simulator.registry import MODULES

    return [f"simulator/scenarios/{MODULES[model]}.{kind}.yaml" for kind in ("params", "outputs")]


# --------------------------------------------------------------------------- labels and numbers
def suffix_unit(name: str) -> str:
    return next((u for s, u in SUFFIX_UNITS.items() if name.endswith(s)), "")


def metric_label(page: Page, metric: str) -> str:
    """'goodput (Mbit/s)', 'throughput (packets/s)', 'drops overflow (packets)': the metric's name in words (its
    unit suffix dropped, underscores as spaces) with its unit, where one is known."""
    unit = page.metric_units.get(metric) or suffix_unit(metric)
    suffix = next((s for s in SUFFIX_UNITS if metric.endswith(s)), "")
    words = metric[:len(metric) - len(suffix)].replace("_", " ")
    return f"{words} ({unit})" if unit else words


def param_info(page: Page, key: str) -> tuple:
    """(unit, help) of a parameter from the model's declaration ('' where it gives none)."""
    p = next((p for p in page.model.params if p.name == key), None)
    unit = (p.unit if p else "") or suffix_unit(key)
    return unit, (p.help if p else "")


def param_label(page: Page, key: str) -> str:
    unit, _ = param_info(page, key)
    return f"{key} ({unit})" if unit else key


def number(x) -> str:
    """4 significant digits; whole numbers and numbers from 10,000 up without decimals; '–' if missing."""
    if x is None or pd.isna(x):
        return "–"
    x = float(x)
    if (x.is_integer() and abs(x) < 1e15) or abs(x) >= 1e4:
        return f"{x:,.0f}"
    return f"{x:.4g}"


def mean_ci(mean, low, high) -> str:
    """'mean [CI low, CI high]'; 'mean (deterministic)' when every seed gave the same value, the mean
    alone when there is no interval (one seed)."""
    if pd.isna(mean):
        return "–"
    return number_format.mean_ci(mean, low, high, lower=None, fmt=number)


def absent(v) -> bool:
    """A grid key a point does not set (several grids, one without the key)."""
    return v is None or (isinstance(v, float) and math.isnan(v))


def value_text(v) -> str:
    """A study value as the file writes it: a list of mappings (the network model's links and flow classes)
    one per line as 'key value, ...', a list of scalars as 'a, b, c'."""
    if absent(v):
        return "null"
    if isinstance(v, float) and v.is_integer():
        return f"{v:g}"
    if isinstance(v, list) and v and all(isinstance(x, dict) for x in v):
        return "; ".join(", ".join(f"{k.replace('_', ' ')} {value_text(x)}" for k, x in item.items()) for item in v)
    if isinstance(v, list):
        return "[" + ", ".join(value_text(x) for x in v) + "]"
    return str(v)


def point_label(page: Page, values: dict) -> str:
    """A grid point by its swept values: 'Reno, variant=standard, lambda=5'."""
    keys = sorted(page.swept, key=lambda k: k != "algorithm")      # the algorithm first
    parts = [style.label(values[k]) if k == "algorithm" else f"{k}={value_text(values[k])}"
             for k in keys if not absent(values.get(k))]
    return ", ".join(parts) or page.name


# --------------------------------------------------------------------------- tables
def parameters(page: Page) -> pd.DataFrame:
    """One row per parameter the study sets: its values (per grid when several grids differ), whether
    the grid sweeps it or it is fixed, its unit and meaning; and the TCP stack in force (the
    model's default, its paper's tool) when the study leaves `stack` to the model."""
    grids = page.study.grids or [page.study.grid]
    rows = []
    for key, values in page.study.grid.items():
        per_grid = [g.get(key) for g in grids]
        if len(grids) > 1 and any(v != per_grid[0] for v in per_grid):
            text = "; ".join(f"grid {i + 1}: {', '.join(map(value_text, v)) if v else '(not set)'}"
                             for i, v in enumerate(per_grid))
        else:
            text = ", ".join(map(value_text, values))
        rows.append((key, text, "grid (swept)" if len(values) > 1 else "grid"))
    rows += [(key, value_text(v), "fixed") for key, v in page.study.fixed.items()]
    if "stack" in page.model.names and "stack" not in page.study.grid and "stack" not in page.study.fixed:
        rows.append(("stack", value_text(page.model.defaults()["stack"]), "model default"))
    out = []
    for key, text, where in rows:
        unit, help_ = param_info(page, key)
        out.append({"parameter": key, "values": text, "set in": where, "unit": unit or "–",
                    "meaning": help_ or "–"})
    return pd.DataFrame(out)


def long_rows(page: Page) -> pd.DataFrame:
    """The table's rows in grid order, metrics in declared order, each swept key as the study writes it."""
    points = {p.path: p.values for p in page.study.points()}
    t = page.table[page.table["point"].isin(points)].copy()
    for k in page.swept:
        t[k] = [points[p].get(k) for p in t["point"]]
    order = {p: i for i, p in enumerate(points)}
    rank = {m: i for i, m in enumerate(page.metrics)}
    t = t.assign(_p=t["point"].map(order), _m=t["metric"].map(rank)).sort_values(["_p", "_m"])
    return t.drop(columns=["_p", "_m"]).reset_index(drop=True)


def metrics_table(page: Page) -> pd.DataFrame:
    """One row per grid point: its label, seeds, and one 'mean [95% CI]' column per metric (with unit)."""
    rows = long_rows(page)
    points = {p.path: p.values for p in page.study.points()}
    out = []
    for point, g in rows.groupby("point", sort=False):
        row = {"grid point": point_label(page, points[point]), "seeds": number(g["n"].max())}
        for _, r in g.iterrows():
            row[metric_label(page, r["metric"])] = mean_ci(r["mean"], r["ci_low"], r["ci_high"])
        out.append(row)
    return pd.DataFrame(out)


def numbers_download(page: Page) -> pd.DataFrame:
    """The numbers behind the metrics table: one row per grid point and metric."""
    rows = long_rows(page)
    keep = ["point", *page.swept, "metric", "mean", "sd", "n", "ci_low", "ci_high"]
    return rows[[c for c in dict.fromkeys(keep) if c in rows]]


# --------------------------------------------------------------------------- figures
def series_rows(page: Page, x: str) -> pd.DataFrame:
    """The rows drawn against `x`: one series per algorithm and combination of the other swept keys
    (so a series never joins two points of the same x), with its label, colour, line style, marker."""
    rows = long_rows(page)
    rows = rows[rows[x].map(is_number)].copy()
    others = [k for k in page.swept if k not in (x, "algorithm")]
    rest = [tuple(None if absent(v) else value_text(v) for v in vals) for vals in zip(*(rows[k] for k in others))]
    rest = rest if others else [()] * len(rows)
    kinds = list(dict.fromkeys(rest))
    rows["x"] = rows[x].astype(float)
    alg = rows["algorithm"] if "algorithm" in rows else pd.Series([""] * len(rows), index=rows.index)
    rows["series"] = [", ".join([style.label(a)] + [f"{k}={v}" for k, v in zip(others, r) if v is not None])
                      for a, r in zip(alg, rest)]
    rows["color"] = [style.PALETTE[a] for a in alg]
    rows["linestyle"] = [LINESTYLES[kinds.index(r) % len(LINESTYLES)] for r in rest]
    rows["marker"] = [MARKERS[(kinds.index(r) // len(LINESTYLES)) % len(MARKERS)] for r in rest]
    return rows


def log_x(rows: pd.DataFrame) -> bool:
    """Draw x on a log scale: positive values spanning two decades or more (buffer 0.003-10 BDP)."""
    x = rows["x"]
    return bool(len(x)) and bool((x > 0).all()) and x.max() / x.min() >= 100


def plotted_metrics(page: Page) -> list:
    """Metrics with at least one value (a metric undefined at every point has nothing to draw)."""
    t = page.table
    return [m for m in page.metrics if t.loc[t["metric"] == m, "mean"].notna().any()]


def panels(n: int, columns: int = PANEL_COLUMNS, height: float = 2.9):
    """A figure with one panel per metric, `columns` across, each `height` inches; unused panels removed."""
    import matplotlib.pyplot as plt

    cols = min(columns, max(n, 1))
    nrows = math.ceil(max(n, 1) / cols)
    fig, axes = plt.subplots(nrows, cols, figsize=(10.2 if cols > 1 else 5, height * nrows + 0.6), squeeze=False)
    axes = axes.ravel()
    for ax in axes[n:]:
        ax.remove()
    return fig, list(axes[:n])


def wrap(text: str, width: int = 30) -> str:
    return "\n".join(textwrap.wrap(text, width)) or text


def finish(fig, axes) -> None:
    """One legend for the whole figure, above the panels."""
    handles, labels = {}, []
    for ax in axes:
        for h, lab in zip(*ax.get_legend_handles_labels()):
            if lab not in handles:
                handles[lab] = h
                labels.append(lab)
    fig.tight_layout()
    if labels:
        fig.legend([handles[lab] for lab in labels], labels, loc="lower center", bbox_to_anchor=(0.5, 1.0),
                   ncol=min(3, len(labels)))


def sweep_figure(page: Page, x: str):
    """Every metric against swept parameter `x`: one line per series (series_rows), CI band shaded."""
    rows = series_rows(page, x)
    metrics = plotted_metrics(page)
    fig, axes = panels(len(metrics))
    for ax, metric in zip(axes, metrics):
        d = rows[rows["metric"] == metric]
        for label, s in d.groupby("series", sort=False):
            s = s.sort_values("x")
            ax.plot(s["x"], s["mean"], color=s["color"].iloc[0], linestyle=s["linestyle"].iloc[0],
                    marker=s["marker"].iloc[0], markersize=4, label=label)
            band = s["ci_low"].notna() & s["ci_high"].notna()
            if band.any():
                ax.fill_between(s["x"][band], s["ci_low"][band], s["ci_high"][band], color=s["color"].iloc[0],
                                alpha=0.18, linewidth=0)
        if log_x(rows):
            ax.set_xscale("log")
        ax.set_xlabel(param_label(page, x) + (", log scale" if log_x(rows) else ""))
        ax.set_ylabel(wrap(metric_label(page, metric)))
    finish(fig, axes)
    return fig


def bar_rows(page: Page) -> pd.DataFrame:
    """Rows for grouped bars (no numeric swept key): a group per combination of the other swept keys."""
    rows = long_rows(page)
    others = [k for k in page.swept if k != "algorithm"]
    rows["group"] = [", ".join(f"{k}={value_text(v)}" for k, v in zip(others, vals) if not absent(v)) or page.name
                     for vals in zip(*(rows[k] for k in others))] if others else page.name
    if "algorithm" not in rows:
        rows["algorithm"] = ""
    return rows


def bars_figure(page: Page):
    """Every metric as grouped horizontal bars: a group per combination of swept keys (labels on the
    left, first on top), a bar per algorithm with its 95% CI as an error bar."""
    import numpy as np

    rows = bar_rows(page)
    groups = list(dict.fromkeys(rows["group"]))
    algs = style.order(rows["algorithm"].unique())
    metrics = plotted_metrics(page)
    fig, axes = panels(len(metrics), columns=2, height=0.6 + 0.22 * len(groups) * max(len(algs), 1) ** 0.5)
    width = 0.8 / max(len(algs), 1)
    for ax, metric in zip(axes, metrics):
        d = rows[rows["metric"] == metric]
        for i, a in enumerate(algs):
            s = d[d["algorithm"] == a].set_index("group").reindex(groups)
            # clipped at 0: seeds that all give one value have a CI equal to the mean up to rounding (-1e-15)
            err = np.array([(s["mean"] - s["ci_low"]).fillna(0), (s["ci_high"] - s["mean"]).fillna(0)]).clip(min=0)
            ax.barh(np.arange(len(groups)) + (i - (len(algs) - 1) / 2) * width, s["mean"], width,
                    xerr=err, capsize=2, color=style.PALETTE[a], label=style.label(a))
        ax.set_yticks(range(len(groups)))
        ax.set_yticklabels([wrap(g, 24) for g in groups])
        ax.invert_yaxis()
        ax.set_xlabel(metric_label(page, metric))
    finish(fig, axes)
    return fig


def figure_download(rows: pd.DataFrame, key: str) -> pd.DataFrame:
    """The data behind a figure: each drawn value with its interval and seeds."""
    keep = [key, "algorithm", "point", "metric", "mean", "ci_low", "ci_high", "n"]
    return rows[[c for c in dict.fromkeys(keep) if c in rows]].reset_index(drop=True)


# --------------------------------------------------------------------------- the page
def show_intro(ch, page: Page) -> None:
    s = page.study
    n_points = len(page.study.points())
    desc = f" {s.description.strip()}" if s.description else ""
    ch.markdown(
        f"**{s.title}.**{desc} Study `{page.name}` runs the model `{s.model}` ({page.model.description}) at "
        f"{n_points} grid points with {page.seeds()} seeds each. No chapter of this report reads it, so this page "
        f"is generated from its study file `{page.source}` and its table `results/tables/{page.name}.csv`: the "
        "parameters, every metric per grid point with its 95% confidence interval (CI), and each metric against "
        "each swept numeric parameter.")


def show_parameters(ch, page: Page) -> None:
    excluded = "; ".join(", ".join(f"{k}={value_text(v)}" for k, v in e.items()) for e in page.study.exclude)
    note = (f"Table: the parameters `{page.source}` sets; the grid's points are every combination of its values"
            + (f" except {excluded}" if excluded else "")
            + ". Every other parameter of the model takes its default (`python -m simulator models`). {link}.")
    frame, name = parameters(page), f"{page.name}_parameters.csv"
    ch.save_download(frame, name)
    # the parameter names in code type: keys a reader types into a study file (the book's check allows them there)
    shown = frame.astype(str).map(html_text.escape)
    shown["parameter"] = [f"<code>{k}</code>" for k in shown["parameter"]]
    chapter.html(chapter.long_frame_html(shown, index=False, escape=False))
    ch.markdown(note.replace("{link}", ch.download_link(name)))


def show_metrics(ch, page: Page) -> None:
    name = f"{page.name}_numbers.csv"
    ch.save_download(numbers_download(page), name)
    ch.table(metrics_table(page), f"{page.name}_metrics.csv",
             f"Table: every metric of `{page.name}` per grid point, mean over its seeds with the 95% CI in brackets "
             "(t-interval over seeds; the mean alone where every seed gave the same value or only one seed ran; "
             f"– where no run reports a value). Made from `{page.source}`. {{link}}; the numbers, one row per grid "
             f"point and metric: {ch.download_link(name, 'CSV')}.")


def show_figures(ch, page: Page) -> None:
    """One figure per numeric swept key (a panel per metric); grouped bars when no key is numeric."""
    if not plotted_metrics(page):
        ch.markdown("*No metric of this study has a value to draw.*")
        return
    for x in page.numeric:
        rows = series_rows(page, x)
        others = [k for k in page.swept if k not in (x, "algorithm")]
        ch.figure(sweep_figure(page, x), f"{page.name}_vs_{safe(x)}")
        csv = f"{page.name}_vs_{safe(x)}.csv"
        ch.save_download(figure_download(rows, x), csv)
        unit, help_ = param_info(page, x)
        ch.caption(
            f"Figure: every metric of `{page.name}` against {x}{f' ({help_})' if help_ else ''}: mean over "
            f"{page.seeds()} seeds per grid point, the shaded band its 95% CI; one colour per algorithm"
            + (f", one line style per value of {', '.join(others)}" if others else "")
            + f". Made from `{page.source}`. {ch.download_link(csv, 'Download the data (CSV)')}.")
    if not page.numeric:
        rows = bar_rows(page)
        ch.figure(bars_figure(page), f"{page.name}_bars")
        csv = f"{page.name}_bars.csv"
        ch.save_download(figure_download(rows, "group"), csv)
        ch.caption(
            f"Figure: every metric of `{page.name}` per grid point, mean over {page.seeds()} seeds with the 95% CI "
            f"as error bar; one colour per algorithm. No swept parameter is numeric, so the points are bars. "
            f"Made from `{page.source}`. {ch.download_link(csv, 'Download the data (CSV)')}.")


def safe(name: str) -> str:
    """A parameter name as part of a file name."""
    return "".join(c if c.isalnum() or c in "-_" else "_" for c in name) or "x"

