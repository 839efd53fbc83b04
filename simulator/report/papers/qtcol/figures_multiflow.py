"""Figures of the QtColFair chapter with several flows: five flows sharing the bottleneck (the paper's
Figures 18-23), the buffer sweep (Figures 24-28) and its device-queue sensitivity check. The paper's
numbers (reference/qtcol/qtcolfair_results.csv) are grey hollow markers (simulator/report/paper_marks.py);
each figure's data are written beside it as CSV."""
from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from simulator.report import paper_marks as pm
from simulator.report import claim_words, style
from simulator.report.papers.qtcol.figures import (DEVQ, MULTI, SWEEP, bands, box_data, boxplot, flow_columns,
                                            inflight_total, names, one_point_each, paper_value, pooled_rtt, show, skipped,
                                            study_file, trace_data, warm)

FLOW_SHADES = ["#1b9e77", "#d95f02", "#7570b3", "#e7298a", "#66a61e"]  # one per flow, not per algorithm
THROUGHPUT_PANELS = {("qtcolfair", 1.2), ("qtcol", 1.2), ("qtcol", 1.5), ("cubic", None), ("bbr", None)}


def throughput_panel(r) -> bool:
    """Whether the per-flow throughput figure has a panel for run `r` (algorithm, alpha, trace): those
    of THROUGHPUT_PANELS, and every algorithm that is not a built-in (a user's)."""
    return (r[0], r[1]) in THROUGHPUT_PANELS or r[0] not in style.ALGORITHMS


def ranked(d):
    """Table rows in the book's algorithm order, then by alpha."""
    d = d.assign(rank=d["algorithm"].map({a: i for i, a in enumerate(style.ALGORITHMS)}), a=d["alpha"].fillna(0))
    return d.sort_values(["rank", "a"])


def error_bars(g, scale=1.0) -> list:
    """[below, above] the mean to the CI ends, never negative (zero-width CIs round to tiny negatives)."""
    return [(g["mean"] - g["ci_low"]).clip(lower=0) * scale, (g["ci_high"] - g["mean"]).clip(lower=0) * scale]


# --------------------------------------------------------------------------- five flows (Figures 18-23)

def show_multi_boxes(ch, mf, bdp, reference=None) -> None:
    """Figures 18-19: total in-flight data and pooled RTT of the five flows after warm-up, the paper's
    median RTT beside ours; `mf`: one grid point per (algorithm, alpha), `figures_qtcol.five_flow_runs`."""
    one_point_each(mf, "five-flow boxes")
    src = f"Made from `{study_file(MULTI)}` (5 flows, 400 s, first seed, after the 10 s warm-up)."
    series = [(a, al, inflight_total(warm(g))) for a, al, g in mf]
    show(ch, boxplot(series, "inflight", "total data in flight (packets)",
                     "Five flows: total data in flight after warm-up", bdp), "multi_box_inflight",
         f"Figure: total data in flight of the five flows per algorithm ({names(mf)}; box: quartiles and median; "
         "whiskers: 5th and 95th percentiles; log scale). Reproduces the paper's Figure 18 (the paper gives no number "
         f"for it); green band: 1-2 BDP. {src}", box_data(series))
    series = [(a, al, pooled_rtt(warm(g))) for a, al, g in mf]
    paper = [paper_value(reference, "multiflow", a, "median_rtt", al, flows=5) for a, al, _ in series]
    show(ch, boxplot(series, "rtt", "smoothed RTT (ms)", "Five flows: RTT after warm-up (all flows pooled)", bdp,
                     paper), "multi_box_rtt",
         f"Figure: smoothed RTT of the five flows per algorithm ({names(mf)}), samples of all flows pooled (box: "
         "quartiles and median; whiskers: 5th and 95th percentiles; log scale); grey hollow diamonds: the paper's "
         f"medians. Reproduces the paper's Figure 19; green band: 1-2 baseRTT. {src}", box_data(series, paper))


def paper_column(reference, scenario, d, ref_metric, **params) -> list:
    """The paper's value for each table row of `d` (None where it gives none)."""
    return [None if ref_metric is None else
            paper_value(reference, scenario, r.algorithm, ref_metric, r.alpha,
                        **{k: getattr(r, k) if v is None else v for k, v in params.items()})
            for r in d.itertuples()]


def figure_data(d, paper, keys=()) -> pd.DataFrame:
    """The table rows a figure draws (our mean and 95% CI) with the paper's value beside them."""
    cols = ["algorithm", "alpha", *keys, "metric", "mean", "ci_low", "ci_high", "n"]
    return d[cols].assign(paper=paper).reset_index(drop=True)


def five_flow_rows(tables, metric):
    d = tables[(tables["study"] == MULTI) & (tables["metric"] == metric) & (tables["flows"] == 5)]
    return ranked(d) if len(d) else d


def multiflow_bars(tables, reference, metric, ylabel, ref_metric, ylim):
    """Our mean with 95% CI per algorithm (bars) and the paper's value (grey hollow diamonds), five flows;
    None if not run."""
    d = five_flow_rows(tables, metric)
    if d.empty:
        return None
    paper = paper_column(reference, "multiflow", d, ref_metric, flows=5)
    fig, ax = plt.subplots(figsize=(11, 3.8))
    for i, r in enumerate(d.itertuples()):
        ax.bar(i, r.mean, color=style.colour(r.algorithm, r.alpha), alpha=0.8, label=style.label(r.algorithm, r.alpha))
        ax.errorbar(i, r.mean, yerr=[[max(r.mean - r.ci_low, 0)], [max(r.ci_high - r.mean, 0)]],
                    color="black", capsize=3, lw=1)
    xs = [i for i, v in enumerate(paper) if v is not None]
    if xs:
        pm.points(ax, xs, [paper[i] for i in xs])
    ax.set_xticks(np.arange(len(d)), [style.label(r.algorithm, r.alpha) for r in d.itertuples()], rotation=20,
                  ha="right")
    ax.set_ylabel(ylabel)
    ax.set_xlabel("algorithm")
    ax.set_ylim(*ylim)
    if ylim[0] > 0:             # the bars do not start at 0: say so on the axis
        style.axis_break(ax)
    h, l = ax.get_legend_handles_labels()
    uniq = dict(zip(l, h))
    ax.legend(uniq.values(), uniq.keys(), fontsize=9, loc="upper left", bbox_to_anchor=(1.0, 1.0))
    fig.tight_layout()
    return fig


def show_multi_bars(ch, tables, reference) -> None:
    """Figures 20-21: goodput and Jain's index of the five flows beside the paper's values."""
    for metric, ylabel, ref_metric, name, ylim, caption in (
            ("goodput_mbps", "goodput (Mbit/s) = utilization (%)", "goodput", "multi_goodput", (90, 97.5),
             "Figure: goodput of the five flows together, computed as the authors do (Mbit/s on a 100 Mbit/s link, so "
             "also utilization in %), mean with 95% CI (deterministic, so no interval, except BBR); grey hollow diamonds: the paper's "
             f"values. Reproduces the paper's Figure 20; the axis starts at 90 Mbit/s. Made from `{study_file(MULTI)}` "
             "(5 flows, 400 s)."),
            ("jain", "Jain's fairness index", "jain", "multi_jain", (0, 1.05),
             "Figure: Jain's index over the five flows' average throughput, mean with 95% CI (a logit interval, which "
             "stays below 1); grey hollow diamonds: the paper's values. Reproduces the paper's Figure 21. Made from "
             f"`{study_file(MULTI)}` (5 flows, 400 s).")):
        fig = multiflow_bars(tables, reference, metric, ylabel, ref_metric, ylim)
        if fig is None:
            skipped(ch, MULTI)
            continue
        d = five_flow_rows(tables, metric)
        show(ch, fig, name, caption, figure_data(d, paper_column(reference, "multiflow", d, ref_metric, flows=5)))


def jain_over_time(mf):
    """Jain's index of the flows' cumulative throughput over time, one line per algorithm."""
    fig, ax = plt.subplots(figsize=(11, 3.6))
    for alg, alpha, g in one_point_each(mf, "Jain over time"):
        ax.plot(g["t"], g["jain"], color=style.colour(alg, alpha), ls=style.alpha_style(alpha), lw=1.2,
                label=style.label(alg, alpha))
    ax.axhline(0.9, color="grey", lw=0.8, ls=":")
    ax.axhline(0.2, color="grey", lw=0.8, ls=":")  # 1/N
    ax.set_ylim(0, 1.02)
    ax.set_xlabel("time (s)")
    ax.set_ylabel("Jain's index (cumulative throughput)")
    ax.legend(ncol=4, fontsize=9, loc="lower right")
    fig.tight_layout()
    return fig


def flows_throughput(mf):
    """One panel per run of throughput_panel: each flow's throughput (2 s moving mean)."""
    panels = one_point_each([r for r in mf if throughput_panel(r)], "per-flow throughput")
    fig, axes = plt.subplots(len(panels), 1, figsize=(11, 2.1 * len(panels)), sharex=True, squeeze=False)
    for ax, (alg, alpha, g) in zip(axes[:, 0], panels):
        for i, c in enumerate(flow_columns(g, "throughput_mbps_")):
            ax.plot(g["t"], g[c].rolling(20, min_periods=1).mean(), lw=0.9, color=FLOW_SHADES[i % 5],
                    label=f"flow {i}")
        ax.set_title(style.label(alg, alpha), fontsize=9, color=style.PALETTE[alg], loc="left")
        ax.set_ylabel("Mbit/s")
        ax.set_ylim(0, 100)
    axes[-1, 0].set_xlabel("time (s)")
    axes[0, 0].legend(ncol=5, fontsize=9, loc="upper right")
    fig.tight_layout()
    return fig


def show_multi_time(ch, mf) -> None:
    """Figures 21 (over time) and 22-23."""
    show(ch, jain_over_time(mf), "multi_jain_time",
         f"Figure: Jain's index over each flow's cumulative average throughput, over time, five flows ({names(mf)}; "
         "first seed); dotted lines at 0.9 and 1/N = 0.2. The time view behind the paper's Figure 21 (the paper's "
         f"end-of-run values are in the figure above). Made from `{study_file(MULTI)}` (5 flows, 400 s).",
         trace_data(mf, ["jain"]))
    panels = [r for r in mf if throughput_panel(r)]
    show(ch, flows_throughput(mf), "multi_flows_throughput",
         f"Figure: throughput of each of the five flows over time (2 s moving mean; first seed), one panel each for "
         f"{names(panels)}. Reproduces the paper's Figure 22 (QtColFair converging to a fair share) and Figure 23 "
         "(QtCol: one flow takes the link); CUBIC and BBR added. Flow colours here distinguish flows, not algorithms. "
         f"Made from `{study_file(MULTI)}` (5 flows, 400 s).", trace_data(panels, ["throughput_mbps_"]))


# --------------------------------------------------------------------------- buffer size (Figures 24-28)

SWEEPS = [  # metric, axis label, reference metric (diamonds), figure name, the paper's figures, log y, band
    ("goodput_mbps", "goodput (Mbit/s) = utilization (%)", "goodput", "buffer_goodput",
     "Figures 24 (shallow) and 26 (deep)", False, None),
    ("plr", "PLR (%, retransmitted / sent)", None, "buffer_plr", "Figures 25 (shallow) and 27 (deep)", True, None),
    ("mean_rtt_ms", "mean smoothed RTT (ms)", None, "buffer_rtt", "Figure 28", True, "rtt"),
]


def set_log_y(ax, metric) -> None:
    if metric == "plr":
        ax.set_yscale("symlog", linthresh=1e-2)  # PLR (in %) can be 0
        ax.set_ylim(bottom=0)
    else:
        ax.set_yscale("log")


def sweep_panel(ax, dn, reference, ref_metric, with_paper) -> None:
    """One line per (algorithm, alpha) against the buffer; the paper's values as grey hollow markers,
    one shape per algorithm."""
    for (alg, alpha), g in dn.groupby(["algorithm", dn["alpha"].fillna(0)]):
        g = g.sort_values("buffer_bdp")
        al = alpha or None
        ax.errorbar(g["buffer_bdp"], g["mean"], yerr=error_bars(g), color=style.colour(alg, al), ls=style.alpha_style(al),
                    marker="o", ms=3, lw=1.2, capsize=2, label=style.label(alg, al))
        if ref_metric and with_paper:
            p = reference[(reference["scenario"] == "buffer_sweep") & (reference["metric"] == ref_metric)
                          & (reference["algorithm"] == alg) & np.isclose(reference["alpha"].fillna(0), alpha)]
            if len(p):
                pm.points(ax, p["buffer_bdp"], p["value"], style.label(alg, al), pm.marker(alg),
                          style.alpha_style(al) if al else False)


def sweep_rows(tables, metric):
    """The sweep's rows of `metric`, in the unit the book shows it in (PLR: a share of 1 in %)."""
    bs = tables[tables["study"] == SWEEP]
    rows = bs[bs["metric"] == metric]
    k = claim_words.scale(metric)
    return rows if k == 1 else rows.assign(**{c: k * rows[c] for c in ("mean", "sd", "ci_low", "ci_high") if c in rows})


def buffer_sweep(tables, reference, sweep, bdp):
    """One panel per flow count: the metric against the buffer (log x); None if the sweep did not run."""
    metric, ylabel, ref_metric, _, _, logy, band = sweep
    d = sweep_rows(tables, metric)
    if d.empty:
        return None
    flows = sorted(d["flows"].unique())
    fig, axes = plt.subplots(1, len(flows), figsize=(5.6 * len(flows), 4.0), sharey=True, squeeze=False)
    for ax, n in zip(axes[0], flows):
        sweep_panel(ax, d[d["flows"] == n], reference, ref_metric, n == 5)  # the paper ran 5 flows
        if band:
            bands(ax, band, bdp, (1.2,))
        ax.set_xscale("log")
        if logy:
            set_log_y(ax, metric)
        ax.axvline(1, color="black", lw=0.7, ls=":")
        ax.set_xlabel("buffer (BDP multiples, log scale)")
        ax.set_title(f"{n} flow{'s' if n > 1 else ''}", fontsize=10)
    axes[0, 0].set_ylabel(ylabel)
    h, l = axes[0, -1].get_legend_handles_labels()
    rank = {style.label(a, al): i for i, (a, al) in enumerate(
        (a, al) for a in style.ALGORITHMS for al in (None, *style.ALPHA_STYLES))}
    order = sorted(range(len(l)), key=lambda i: (l[i].startswith("paper"), rank.get(l[i].removeprefix("paper: "), 99)))
    fig.legend([h[i] for i in order], [l[i] for i in order], fontsize=9, ncol=4, loc="upper center",
               bbox_to_anchor=(0.5, 0.0))
    fig.tight_layout()
    return fig


def show_buffer_sweeps(ch, tables, reference, bdp) -> None:
    """Figures 24-28: goodput, PLR and RTT against the buffer."""
    for sweep in SWEEPS:
        metric, ylabel, ref_metric, name, figs, _, _ = sweep
        fig = buffer_sweep(tables, reference, sweep, bdp)
        if fig is None:
            skipped(ch, SWEEP)
            return
        d = ranked(sweep_rows(tables, metric)).sort_values(["rank", "a", "flows", "buffer_bdp"])
        paper = paper_column(reference, "buffer_sweep", d, ref_metric, flows=None, buffer_bdp=None)
        paper = [v if f == 5 else None for v, f in zip(paper, d["flows"])]
        show(ch, fig, name,
             f"Figure: {ylabel} against the bottleneck buffer (0.003-10 BDP, log axis; dotted line at 1 BDP), one and "
             f"five flows, {names(d[['algorithm', 'alpha']].drop_duplicates().itertuples(index=False))}, mean with "
             "95% CI error bars (deterministic, so no interval, except BBR)"
             + ("; grey hollow markers, one shape per algorithm: the paper's 5-flow values (1-10 BDP)" if ref_metric
                else "; the paper gives no number for it")
             + f". Reproduces the paper's {figs}. Made from `{study_file(SWEEP)}`.",
             figure_data(d, paper, ("flows", "buffer_bdp")))


DEVQ_ALPHA = 1.2   # QtColFair's alpha in the device-queue study


def device_queue_rows(tables):
    """(our 5-flow shallow-buffer rows without the device queue, the rows with it), utilization and PLR,
    QtColFair at DEVQ_ALPHA only; None if the device-queue study did not run."""
    dq = tables[tables["study"] == DEVQ]
    if dq.empty:
        return None
    bs = tables[tables["study"] == SWEEP]
    base = bs[(bs["flows"] == 5) & (bs["buffer_bdp"] <= 1)]
    keep = lambda d: d[d["metric"].isin(["utilization", "plr"])  # noqa: E731
                       & ((d["algorithm"] != "qtcolfair") | np.isclose(d["alpha"].fillna(0), DEVQ_ALPHA))]
    return keep(base), keep(dq)


def device_queue(tables, reference=None):
    """Utilization and PLR of five flows in shallow buffers without (solid) and with (dashed) ns-3's
    100-packet device queue; QtColFair at alpha 1.2 only; the paper's utilization at 1 BDP as grey
    hollow markers. None if the device-queue study did not run."""
    rows = device_queue_rows(tables)
    if rows is None:
        return None
    fig, axes = plt.subplots(1, 2, figsize=(11, 4.2))
    # in % like every other utilization and PLR of the book (the tables hold shares of 1)
    for ax, metric, ylabel in ((axes[0], "utilization", "utilization (%, goodput / 100 Mbit/s)"),
                               (axes[1], "plr", "PLR (%, retransmitted / sent)")):
        for frame, ls, tag in zip(rows, ("-", "--"), ("configured queue only", "+100-packet device queue")):
            d = frame[frame["metric"] == metric]
            for (alg, alpha), g in d.groupby(["algorithm", d["alpha"].fillna(0)]):
                g = g.sort_values("buffer_bdp")
                ax.errorbar(g["buffer_bdp"], 100 * g["mean"], yerr=error_bars(g, 100), color=style.PALETTE[alg], ls=ls,
                            marker="o", ms=3, lw=1.2, capsize=2, label=f"{style.label(alg, alpha or None)}, {tag}")
        ax.set_xscale("log")
        ax.set_xlabel("configured buffer (BDP multiples, log scale)")
        ax.set_ylabel(ylabel)
    drawn = set(rows[1]["algorithm"])
    for alg, alpha in [(a, al) for a, al in (("cubic", None), ("bbr", None), ("qtcolfair", DEVQ_ALPHA)) if a in drawn]:
        v = paper_value(reference, "buffer_sweep", alg, "goodput", alpha, flows=5, buffer_bdp=1)
        if v is not None:
            pm.points(axes[0], [1], [v], f"{style.label(alg, alpha)}, 1 BDP", pm.marker(alg))   # Mbit/s of 100 = %
    h, l = axes[0].get_legend_handles_labels()
    fig.legend(h, l, fontsize=9, ncol=3, loc="upper center", bbox_to_anchor=(0.5, 0.0))
    fig.tight_layout()
    return fig


def show_device_queue(ch, tables, reference=None) -> bool:
    """The sensitivity figure; False (and the skip note) if the device-queue study did not run."""
    fig = device_queue(tables, reference)
    if fig is None:
        skipped(ch, DEVQ)
        return False
    base, dq = device_queue_rows(tables)
    data = pd.concat([base.assign(device_queue_pkts=0), dq.assign(device_queue_pkts=100)], ignore_index=True)
    show(ch, fig, "buffer_device_queue",
         "Figure: five flows in shallow buffers, CUBIC, BBR and QtColFair α=1.2, with the configured bottleneck queue "
         "alone (solid) and with ns-3's default 100-packet device queue behind it (dashed); mean with 95% CI "
         "(deterministic, so no interval, except BBR); grey hollow markers: the paper's utilization at 1 BDP (its shallowest published "
         "buffer). Sensitivity check for the paper's Figures 24-25. Made from "
         f"`{study_file(SWEEP)}` and `{study_file(DEVQ)}`.",
         data[["algorithm", "alpha", "device_queue_pkts", "buffer_bdp", "metric", "mean", "ci_low", "ci_high", "n"]])
    return True
