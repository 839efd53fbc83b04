"""Figures and tables of the NS-2 chapter (notebooks/ns2.ipynb): per scenario (topology, flows,
bandwidth, delay, queue) the time series of the paper's Figures 2-9 for the first seed, the same
metrics over all seeds against the swept parameter, and its summary table (tables_ns2, which also
has the chapter's other tables). Every scenario is drawn for NS-2's default window_ 20 and no cap.
The numbers the paper states (reference/ns2/paper_numbers.csv) are drawn beside ours (paper_values).

Scenarios 1 and 3-5 also sweep the number of flows (the paper gives no count; claims_ns2 decides their
claims at each count). Their figures never mix counts: they draw the 3-flow points (FIGURE_FLOWS, the
count these figures showed before the sweep; for display only, no claim singles it out), the caption
says so, and the summary table lists every count. Every plotted series is registered with the grid
points it comes from (figure_series), which the tests check and the figure's CSV download holds."""
from __future__ import annotations

import numpy as np
import pandas as pd

from simulator import study_files
from simulator.report import chapter, chapter_tables, figure_series, paper_values, style
from simulator.report.papers.ns2 import claims as claims_ns2
from simulator.report.papers.ns2 import tables as tables_ns2
from simulator.report.papers.ns2.tables import SUMMARY_METRICS, flow_counts, n_seeds, summary_table

# the paper's algorithms in its order; a figure draws those its data has, then any other (a user's: algorithms())
ALGS = ["reno", "newreno", "vegas"]
WINDOWS = {20: "window 20 (NS-2 default window_)", 0: "window 0 (no cap)"}
CATEGORIES = ["linear", "star", "mesh", "droptail", "fq"]      # order of the non-numeric sweep values
# study -> (label of a value of its swept parameter, axis label)
SWEEP_LABELS = {
    "ns2_topology": (lambda v: f"{v}", "topology"),
    "ns2_flows": (lambda v: f"{int(v)} flow{'s' if int(v) > 1 else ''}", "number of flows"),
    "ns2_bandwidth": (lambda v: f"{float(v):g} Mbit/s", "link bandwidth (Mbit/s)"),
    "ns2_delay": (lambda v: f"{int(v)} ms per link", "link delay (ms per link)"),
    "ns2_queue": (lambda v: {"droptail": "DropTail", "fq": "FQ"}.get(v, v), "queue discipline"),
}
TICK_LABELS = {"ns2_flows": lambda v: f"{int(v)}"}            # short tick labels where the axis label says what
# study -> the figures of the paper (Zulkifli and Mohd Supir 2025, section 4) it reproduces
PAPER_FIGURES = {
    "ns2_topology": "Figures 2 (cwnd, throughput) and 3 (latency, packet loss)",
    "ns2_flows": "Figure 4",
    "ns2_bandwidth": "Figures 5 (cwnd, throughput) and 6 (latency, packet loss)",
    "ns2_delay": "Figures 7 (cwnd, throughput) and 8 (latency, packet loss)",
    "ns2_queue": "Figure 9",
}
FIGURE_FLOWS = 3                      # the flow count drawn where a study sweeps flows besides its parameter
LOG_X = {"ns2_delay"}                  # sweeps drawn on a log axis (10-1500 ms)
PLOT_METRICS = {"cwnd_mean": "cwnd (packets)", "throughput_mbps": "throughput, all flows (Mbit/s)",
                "latency_mean_s": "mean latency (s)", "loss_pct": "loss (%)"}
# time-series columns: (title with unit, the paper's metric drawn on it as a level over time)
TIMESERIES_COLUMNS = [("cwnd, flow 0 (packets)", "cwnd_mean"), ("throughput, all flows (Mbit/s, 2 s mean)", None),
                      ("one-way latency (s)", "latency_max_s"), ("loss (%, 5 s mean)", None)]
TS_CAPTION = ("first seed of each point; one row per value of the swept parameter; cwnd is flow 0's window in use "
              "(at most window_ when capped), throughput the sum over flows (2 s means of 0.5 s samples), "
              "latency the mean one-way delay of the data packets delivered in each 0.5 s, loss the drops of an "
              "interval over the packets sent in it, averaged over flows and over 5 s (it can exceed 100% when "
              "packets sent earlier are dropped in a burst).")
SUMMARY_CAPTION = ("time-averaged cwnd (after 10 s), throughput of all flows, mean one-way latency (after 10 s) and "
                   "loss (dropped / sent), mean over the seeds with 95% CI (cut at 0); left NS-2's default window_ "
                   "20, right no cap.")
PAPER_CAPTION = ("In grey the numbers the paper states in its text (a hatched band for a range, a hollow diamond or "
                 "dashed line for a single value; reference/ns2/paper_numbers.csv): ")


def algorithms(d: pd.DataFrame) -> list:
    """The algorithms a figure of `d` draws: the paper's that `d` has, then any other (style.drawn)."""
    return style.drawn(ALGS, d["algorithm"].dropna())


def _offsets(algs) -> dict:
    """Each algorithm's shift from a category's tick, side by side around it."""
    return {a: 0.15 * (j - (len(algs) - 1) / 2) for j, a in enumerate(algs)}


def values_of(tables: pd.DataFrame, study: str) -> list:
    """The swept values of `study`, categories in CATEGORIES order, numbers ascending."""
    vals = tables[tables["study"] == study][claims_ns2.SWEEPS[study]].dropna().unique().tolist()
    return sorted(vals, key=lambda v: CATEGORIES.index(v) if v in CATEGORIES else float(v))


def figure_flows(tables: pd.DataFrame, study: str) -> int | None:
    """The one flow count the figures of `study` draw: FIGURE_FLOWS if it ran, else its smallest count;
    None when the study's figures have no count to choose."""
    counts = flow_counts(tables, study)
    return (FIGURE_FLOWS if FIGURE_FLOWS in counts else counts[0]) if counts else None


def at_figure_flows(frame: pd.DataFrame, tables: pd.DataFrame, study: str) -> pd.DataFrame:
    """The rows of `frame` (a table or traces of `study`) at the flow count its figures draw."""
    n = figure_flows(tables, study)
    return frame if n is None else frame[frame["flows"].astype(float) == n]


def flows_caption(tables: pd.DataFrame, study: str) -> str:
    """What a figure caption says of the flow count it draws ('' when there is none to say)."""
    counts, n = flow_counts(tables, study), figure_flows(tables, study)
    if n is None:
        return ""
    others = [str(c) for c in counts if c != n]
    if not others:
        return f"{n} flows"
    others = ", ".join(others[:-1]) + " and " + others[-1] if len(others) > 1 else others[0]
    return (f"{n} flows only (the study also ran {others} flows, as the paper gives no count: the summary table "
            f"lists every count, and the claims are decided at each)")


def _params(tables, study, v) -> dict:
    """The parameters a paper number's condition is checked against at swept value `v`."""
    n = figure_flows(tables, study)
    return {claims_ns2.SWEEPS[study]: v, **({"flows": n} if n is not None else {})}


def _paper_levels(ax, numbers, study, metric, params, panel) -> None:
    """The paper's numbers of `metric` that hold at `params`, across the axis (over time or over the sweep),
    one mark per distinct value with the algorithms it is stated for."""
    rows = paper_values.select(numbers, study, metric, **params) if metric else pd.DataFrame()
    for (low, high), g in rows.groupby(["low", "high"], sort=False) if len(rows) else []:
        who = ", ".join(style.label(a, None) for a in style.order(g["algorithm"]))
        paper_values.mark(ax, g.iloc[0], who=who, panel=panel)


def _first_seed_series(g: pd.DataFrame):
    """Throughput summed over flows (2 s means) and loss averaged over flows (5 s means)."""
    n = int(g["flows"].iloc[0])
    tput = g[[f"throughput_mbps_{i}" for i in range(n)]].sum(axis=1).rolling(4, min_periods=1).mean()
    loss = g[[f"loss_pct_{i}" for i in range(n)]].mean(axis=1).rolling(10, min_periods=1).mean()
    return tput, loss


def _legend(fig, algs, y=1.0) -> None:
    """One legend above the panels (its top at figure height fraction y): the algorithms drawn, then the
    paper's marks if any are drawn."""
    import matplotlib.pyplot as plt

    handles = [plt.Line2D([], [], color=style.PALETTE[a], lw=1.5, marker="o", ms=4, label=style.label(a, None))
               for a in algs] + (paper_values.handles() if paper_values.drawn(fig) else [])
    fig.legend(handles=handles, loc="upper center", ncol=len(handles), fontsize=10, bbox_to_anchor=(0.5, y))


def timeseries(tables: pd.DataFrame, traces: pd.DataFrame, study: str, window: int, numbers=None):
    """One row per value of the swept parameter, columns cwnd / throughput / latency / loss over time;
    first seed of each point; the paper's stated levels in grey."""
    import matplotlib.pyplot as plt

    key, (lab, _) = claims_ns2.SWEEPS[study], SWEEP_LABELS[study]
    vals = values_of(tables, study)
    tr = at_figure_flows(traces[(traces["study"] == study) & (traces["window"] == window)], tables, study)
    algs = algorithms(tr)
    height = 1.75 * len(vals) + 1.1
    fig, axes = plt.subplots(len(vals), 4, figsize=(10.4, height), sharex=True, squeeze=False)
    for row, v in enumerate(vals):
        for alg in algs:
            g = tr[(tr["algorithm"] == alg) & (tr[key].astype(str) == str(v))]
            if g.empty:
                continue
            g = g[g["seed"] == g["seed"].min()].sort_values("t")
            tput, loss = _first_seed_series(g)
            lat = g[["t", "latency_s"]].dropna()       # no sample when nothing was delivered
            for col, (x, y) in enumerate([(g["t"], g["cwnd_0"]), (g["t"], tput), (lat["t"], lat["latency_s"]),
                                          (g["t"], loss)]):
                axes[row, col].plot(x, y, color=style.PALETTE[alg], lw=1.0, label=style.label(alg, None))
                figure_series.record(axes[row, col], style.label(alg, None), g, x, y,
                                     panel=TIMESERIES_COLUMNS[col][0])
        for col, (title, metric) in enumerate(TIMESERIES_COLUMNS):
            ax = axes[row, col]
            _paper_levels(ax, numbers, study, metric, _params(tables, study, v), f"{lab(v)} | {title}")
            if metric != "latency_max_s":
                ax.set_ylim(bottom=0)
            ax.tick_params(labelsize=9)
        axes[row, 0].set_ylabel(lab(v), fontsize=10, fontweight="bold")
    for col, (title, _) in enumerate(TIMESERIES_COLUMNS):
        axes[0, col].set_title(title, fontsize=10)
        axes[-1, col].set_xlabel("time (s)")
    fig.suptitle(WINDOWS[window], fontsize=11, y=1.0, va="top")
    fig.tight_layout(rect=(0, 0, 1, 1 - 0.62 / height))
    _legend(fig, algs, 1 - 0.28 / height)
    return fig


def _errorbars(ax, d, key, vals, categorical, dx, alg, panel):
    """One algorithm's means with 95% CI (cut at 0) at the swept values; categories side by side (shift dx)."""
    g = d[d["algorithm"] == alg]
    g = g.set_index(g[key].astype(str)).reindex([str(v) for v in vals]).reset_index(drop=True)
    x = (np.arange(len(vals)) + dx) if categorical else np.array(vals, dtype=float)
    lo = g["ci_low"].clip(lower=0)
    ax.errorbar(x, g["mean"], yerr=[g["mean"] - lo, g["ci_high"] - g["mean"]],
                color=style.PALETTE[alg], marker="o", ms=4, lw=1.2, capsize=2.5, label=style.label(alg, None))
    figure_series.record(ax, style.label(alg, None), g, vals, g["mean"], lo,
                         g["ci_high"], along=key, panel=panel)


def _ylim(ax):
    """(Nearly) identical values: a +-5% range, so they look identical instead of magnified noise; never
    below 0 (every metric here is a count, rate, delay or share)."""
    lo, hi = ax.get_ylim()
    mid = (lo + hi) / 2
    if hi - lo < 0.02 * abs(mid):
        ax.set_ylim(mid - 0.05 * abs(mid), mid + 0.05 * abs(mid))
    if ax.get_ylim()[0] < 0:
        ax.set_ylim(bottom=0)


def plot_metrics(study: str, numbers: pd.DataFrame) -> dict:
    """PLOT_METRICS, and every other metric the paper states a number of for `study`."""
    extra = [] if numbers is None or numbers.empty else numbers.loc[numbers["study"] == study, "metric"]
    return {**PLOT_METRICS, **{m: SUMMARY_METRICS[m] for m in extra if m in SUMMARY_METRICS}}


def _paper_at_categories(ax, numbers, tables, study, metric, vals, offsets, panel) -> None:
    """The paper's numbers of `metric` at each category where they hold, at their algorithm's position."""
    for i, v in enumerate(vals):
        for alg, dx in offsets.items():
            for _, r in paper_values.select(numbers, study, metric, alg, **_params(tables, study, v)).iterrows():
                paper_values.mark(ax, r, x=i + dx, at=v, width=0.13, panel=panel)


def summary_plot(tables: pd.DataFrame, study: str, numbers=None, logx=None):
    """Each metric (rows) against the swept parameter, mean with 95% CI over seeds; left window 20, right
    no cap; the paper's stated numbers in grey."""
    import matplotlib.pyplot as plt

    metrics = plot_metrics(study, numbers)
    logx = study in LOG_X if logx is None else logx
    key, (lab, xlabel) = claims_ns2.SWEEPS[study], SWEEP_LABELS[study]
    tick = TICK_LABELS.get(study, lab)
    vals = values_of(tables, study)
    categorical = not all(isinstance(v, (int, float, np.integer, np.floating)) for v in vals) or key == "flows"
    d = at_figure_flows(tables[(tables["study"] == study)], tables, study)
    offsets = _offsets(algorithms(d))
    height = 2.0 * len(metrics) + 1.0
    fig, axes = plt.subplots(len(metrics), 2, figsize=(9.6, height), squeeze=False, sharex=True)
    for col, window in enumerate(WINDOWS):
        for row, (metric, ylab) in enumerate(metrics.items()):
            ax, panel = axes[row, col], f"{WINDOWS[window]} | {ylab}"
            dm = d[(d["window"] == window) & (d["metric"] == metric)]
            for alg, dx in offsets.items():
                _errorbars(ax, dm, key, vals, categorical, dx, alg, panel)
            if categorical:
                _paper_at_categories(ax, numbers, tables, study, metric, vals, offsets, panel)
                ax.set_xticks(range(len(vals)), [tick(v) for v in vals])
            else:
                _paper_levels(ax, numbers, study, metric, {k: v for k, v in _params(tables, study, None).items()
                                                           if k != key}, panel)
                if logx:
                    ax.set_xscale("log")
            ax.set_ylabel(ylab, fontsize=10)
            ax.ticklabel_format(axis="y", useOffset=False, style="plain")
            _ylim(ax)
            if row == len(metrics) - 1:
                ax.set_xlabel(xlabel)
        axes[0, col].set_title(WINDOWS[window], fontsize=10)
    fig.tight_layout(rect=(0, 0, 1, 1 - 0.45 / height))
    _legend(fig, list(offsets))
    return fig


def _source(study: str) -> str:
    return f"Made from `{study_files.repo_path(study)}`."


def _paper_note(fig) -> str:
    return f" {PAPER_CAPTION}{paper_values.described(fig)}." if paper_values.drawn(fig) else ""


def timeseries_section(ch, tables, traces, study: str, numbers=None) -> None:
    """The first-seed time series of `study` for both windows with captions and data, or a note that it
    did not run (said here once; summary_section then stays silent)."""
    if not chapter_tables.ran(tables, study):
        ch.markdown(chapter_tables.not_run(study))
        return
    short, fc = study.removeprefix("ns2_"), flows_caption(tables, study)
    for window in WINDOWS:
        fig = timeseries(tables, traces, study, window, numbers)
        caption = (f"Figure: cwnd, throughput, latency and packet loss over the run per algorithm, "
                   f"{WINDOWS[window]}{', ' + fc if fc else ''}; {TS_CAPTION}{_paper_note(fig)} Reproduces "
                   f"{PAPER_FIGURES[study]} of the paper. {_source(study)}")
        figure_series.show(ch, fig, f"{short}_timeseries_w{window}", caption, wide=True)


def summary_section(ch, tables, study: str, numbers=None) -> None:
    """The metrics of `study` over all seeds against its swept parameter, and its summary table."""
    if not chapter_tables.ran(tables, study):
        return
    short, fc = study.removeprefix("ns2_"), flows_caption(tables, study)
    fig = summary_plot(tables, study, numbers)
    figure_series.show(ch, fig, f"{short}_summary",
                       f"Figure: {SUMMARY_CAPTION}{' Drawn at ' + fc + '.' if fc else ''}{_paper_note(fig)} "
                       f"Summarises {PAPER_FIGURES[study]} of the paper over all seeds. {_source(study)}")
    with chapter.folded("The summary table: every flow count and window (the figure's numbers)"):
        summary_table_shown(ch, tables, study)


def summary_table_shown(ch, tables, study: str) -> None:
    ch.table(summary_table(tables, study), f"{study}_summary.csv", index=True,
             note=f"Mean over {n_seeds(tables, study)} seeds with 95% CI (cut at 0; one number where every seed "
                  f"gave the same); window 20 is NS-2's default cap, 0 no cap"
                  f"{'; every flow count the study ran' if len(flow_counts(tables, study)) > 1 else ''}. {{link}}. "
                  f"{_source(study)} {tables_ns2.lossless_timeouts_note(tables, study)}".strip())

