"""Figures of the QtColFair chapter with several flows: five flows sharing the bottleneck (the paper's
Figures 18-23), the buffer sweep (Figures 24-28) and its device-queue sensitivity check. Diamonds
are the paper's numbers, from reference/qtcol/qtcolfair_results.csv."""
from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from simulator.report import style
from simulator.report.figures_qtcol import (DEVQ, MULTI, SWEEP, bands, boxplot, flow_columns, inflight_total,
                                            one_point_each, pooled_rtt, show, skipped, study_file, warm)

FLOW_SHADES = ["#1b9e77", "#d95f02", "#7570b3", "#e7298a", "#66a61e"]  # one per flow, not per algorithm
THROUGHPUT_PANELS = {("qtcolfair", 1.2), ("qtcol", 1.2), ("qtcol", 1.5), ("cubic", None), ("bbr", None)}


def ranked(d):
    """Table rows in the book's algorithm order, then by alpha."""
    d = d.assign(rank=d["algorithm"].map({a: i for i, a in enumerate(style.ALGORITHMS)}), a=d["alpha"].fillna(0))
    return d.sort_values(["rank", "a"])


def error_bars(g, scale=1.0) -> list:
    """[below, above] the mean to the CI ends, never negative (zero-width CIs round to tiny negatives)."""
    return [(g["mean"] - g["ci_low"]).clip(lower=0) * scale, (g["ci_high"] - g["mean"]).clip(lower=0) * scale]


# --------------------------------------------------------------------------- five flows (Figures 18-23)

def show_multi_boxes(ch, mf, bdp) -> None:
    """Figures 18-19: total in-flight data and pooled RTT of the five flows after warm-up; `mf`: one grid
    point per (algorithm, alpha), `figures_qtcol.five_flow_runs`."""
    one_point_each(mf, "five-flow boxes")
    src = f"Made from `{study_file(MULTI)}` (5 flows, 400 s, first seed, t ≥ 10 s)."
    show(ch, boxplot([(a, al, inflight_total(warm(g))) for a, al, g in mf], "inflight",
                     "total data in flight (packets)", "Five flows: total data in flight after warm-up", bdp),
         "multi_box_inflight",
         "Figure: total data in flight of the five flows per algorithm (box: quartiles and median; whiskers: 5th and "
         "95th percentiles; log scale). Reproduces the paper's Figure 18 (which also shows QtColFair's α sweep); green "
         f"band: 1-2 BDP. {src}")
    show(ch, boxplot([(a, al, pooled_rtt(warm(g))) for a, al, g in mf], "rtt", "smoothed RTT (ms)",
                     "Five flows: RTT after warm-up (all flows pooled)", bdp), "multi_box_rtt",
         "Figure: smoothed RTT of the five flows per algorithm, samples of all flows pooled (box: quartiles and median; "
         "whiskers: 5th and 95th percentiles; log scale). Reproduces the paper's Figure 19; green band: 1-2 baseRTT. "
         f"{src}")


def paper_point(reference, scenario, metric, algorithm, alpha):
    """The paper's value for (algorithm, alpha), or None."""
    alpha = -1 if pd.isna(alpha) else alpha
    p = reference[(reference["scenario"] == scenario) & (reference["metric"] == metric)
                  & (reference["algorithm"] == algorithm) & np.isclose(reference["alpha"].fillna(-1), alpha)]
    return p["value"].iloc[0] if len(p) else None


def multiflow_bars(tables, reference, metric, ylabel, ref_metric, ylim):
    """Our mean with 95% CI per algorithm (bars) and the paper's value (diamonds), five flows; None if not run."""
    d = tables[(tables["study"] == MULTI) & (tables["metric"] == metric) & (tables["flows"] == 5)]
    if d.empty:
        return None
    d = ranked(d)
    fig, ax = plt.subplots(figsize=(11, 3.6))
    for i, r in enumerate(d.itertuples()):
        ax.bar(i, r.mean, color=style.PALETTE[r.algorithm], alpha=0.8, label=style.LABELS[r.algorithm])
        ax.errorbar(i, r.mean, yerr=[[max(r.mean - r.ci_low, 0)], [max(r.ci_high - r.mean, 0)]],
                    color="black", capsize=3, lw=1)
        p = paper_point(reference, "multiflow", ref_metric, r.algorithm, r.alpha)
        if p is not None:
            ax.plot(i, p, marker="D", color="black", mfc="white", ms=6, label="paper", ls="none")
    ax.set_xticks(np.arange(len(d)), [style.label(r.algorithm, r.alpha) for r in d.itertuples()], rotation=20,
                  ha="right")
    ax.set_ylabel(ylabel)
    ax.set_xlabel("algorithm")
    ax.set_ylim(*ylim)
    h, l = ax.get_legend_handles_labels()
    uniq = dict(zip(l, h))
    ax.legend(uniq.values(), uniq.keys(), fontsize=8, loc="upper left", bbox_to_anchor=(1.0, 1.0))
    fig.tight_layout()
    return fig


def show_multi_bars(ch, tables, reference) -> None:
    """Figures 20-21: goodput and Jain's index of the five flows beside the paper's values."""
    for metric, ylabel, ref_metric, name, ylim, caption in (
            ("goodput_mbps", "goodput (Mbit/s) = utilization (%)", "goodput", "multi_goodput", (90, 97.5),
             "Figure: goodput of the five flows together, computed as the authors do (Mbit/s on a 100 Mbit/s link, so "
             "also utilization in %), mean with 95% CI (zero-width except BBR); diamonds: the paper's values. "
             f"Reproduces the paper's Figure 20; the axis starts at 90 Mbit/s. Made from `{study_file(MULTI)}` "
             "(5 flows, 400 s)."),
            ("jain", "Jain's fairness index", "jain", "multi_jain", (0, 1.05),
             "Figure: Jain's index over the five flows' average throughput, mean with 95% CI; diamonds: the paper's "
             f"values. Reproduces the paper's Figure 21. Made from `{study_file(MULTI)}` (5 flows, 400 s).")):
        fig = multiflow_bars(tables, reference, metric, ylabel, ref_metric, ylim)
        if fig is None:
            skipped(ch, MULTI)
        else:
            ch.figure(fig, name)
        ch.caption(caption)


def jain_over_time(mf):
    """Jain's index of the flows' cumulative throughput over time, one line per algorithm."""
    fig, ax = plt.subplots(figsize=(11, 3.6))
    for alg, alpha, g in one_point_each(mf, "Jain over time"):
        ax.plot(g["t"], g["jain"], color=style.PALETTE[alg], ls=style.alpha_style(alpha), lw=1.2,
                label=style.label(alg, alpha))
    ax.axhline(0.9, color="grey", lw=0.8, ls=":")
    ax.axhline(0.2, color="grey", lw=0.8, ls=":")  # 1/N
    ax.set_ylim(0, 1.02)
    ax.set_xlabel("time (s)")
    ax.set_ylabel("Jain's index (cumulative throughput)")
    ax.legend(ncol=4, fontsize=8, loc="lower right")
    fig.tight_layout()
    return fig


def flows_throughput(mf):
    """One panel per algorithm of THROUGHPUT_PANELS: each flow's throughput (2 s moving mean)."""
    panels = one_point_each([r for r in mf if (r[0], r[1]) in THROUGHPUT_PANELS], "per-flow throughput")
    fig, axes = plt.subplots(len(panels), 1, figsize=(11, 2.1 * len(panels)), sharex=True, squeeze=False)
    for ax, (alg, alpha, g) in zip(axes[:, 0], panels):
        for i, c in enumerate(flow_columns(g, "throughput_mbps_")):
            ax.plot(g["t"], g[c].rolling(20, min_periods=1).mean(), lw=0.9, color=FLOW_SHADES[i % 5],
                    label=f"flow {i}")
        ax.set_title(style.label(alg, alpha), fontsize=9, color=style.PALETTE[alg], loc="left")
        ax.set_ylabel("Mbit/s")
        ax.set_ylim(0, 100)
    axes[-1, 0].set_xlabel("time (s)")
    axes[0, 0].legend(ncol=5, fontsize=8, loc="upper right")
    fig.tight_layout()
    return fig


def show_multi_time(ch, mf) -> None:
    """Figures 21 (over time) and 22-23."""
    show(ch, jain_over_time(mf), "multi_jain_time",
         "Figure: Jain's index over each flow's cumulative average throughput, over time, five flows (first seed); "
         "dotted lines at 0.9 and 1/N = 0.2. The time view behind the paper's Figure 21. Made from "
         f"`{study_file(MULTI)}`.")
    show(ch, flows_throughput(mf), "multi_flows_throughput",
         "Figure: throughput of each of the five flows over time (2 s moving mean; first seed), per algorithm. "
         "Reproduces the paper's Figure 22 (QtColFair converging to a fair share) and Figure 23 (QtCol: one flow "
         "takes the link); CUBIC and BBR added. Flow colours here distinguish flows, not algorithms. Made from "
         f"`{study_file(MULTI)}`.")


# --------------------------------------------------------------------------- buffer size (Figures 24-28)

SWEEPS = [  # metric, axis label, reference metric (diamonds), figure name, the paper's figures, log y, band
    ("goodput_mbps", "goodput (Mbit/s) = utilization (%)", "goodput", "buffer_goodput",
     "Figures 24 (shallow) and 26 (deep)", False, None),
    ("plr", "PLR (retransmitted / sent)", None, "buffer_plr", "Figures 25 (shallow) and 27 (deep)", True, None),
    ("mean_rtt_ms", "mean smoothed RTT (ms)", None, "buffer_rtt", "Figure 28", True, "rtt"),
]


def set_log_y(ax, metric) -> None:
    if metric == "plr":
        ax.set_yscale("symlog", linthresh=1e-4)  # PLR can be 0
        ax.set_ylim(bottom=0)
    else:
        ax.set_yscale("log")


def sweep_panel(ax, dn, reference, ref_metric, with_paper) -> None:
    """One line per (algorithm, alpha) against the buffer; the paper's values as open diamonds."""
    for (alg, alpha), g in dn.groupby(["algorithm", dn["alpha"].fillna(0)]):
        g = g.sort_values("buffer_bdp")
        al = alpha or None
        ax.errorbar(g["buffer_bdp"], g["mean"], yerr=error_bars(g), color=style.PALETTE[alg], ls=style.alpha_style(al),
                    marker="o", ms=3, lw=1.2, capsize=2, label=style.label(alg, al))
        if ref_metric and with_paper:
            p = reference[(reference["scenario"] == "buffer_sweep") & (reference["metric"] == ref_metric)
                          & (reference["algorithm"] == alg) & np.isclose(reference["alpha"].fillna(0), alpha)]
            if len(p):
                ax.plot(p["buffer_bdp"], p["value"], ls="none", marker="D", ms=5, mfc="white", mec=style.PALETTE[alg],
                        label=f"paper {style.label(alg, al)}")


def buffer_sweep(tables, reference, sweep, bdp):
    """One panel per flow count: the metric against the buffer (log x); None if the sweep did not run."""
    metric, ylabel, ref_metric, _, _, logy, band = sweep
    bs = tables[tables["study"] == SWEEP]
    d = bs[bs["metric"] == metric]
    if d.empty:
        return None
    flows = sorted(d["flows"].unique())
    fig, axes = plt.subplots(1, len(flows), figsize=(5.6 * len(flows), 3.6), sharey=True, squeeze=False)
    for ax, n in zip(axes[0], flows):
        sweep_panel(ax, d[d["flows"] == n], reference, ref_metric, n == 5)  # the paper ran 5 flows
        if band:
            bands(ax, band, bdp, (1.2,))
        ax.set_xscale("log")
        if logy:
            set_log_y(ax, metric)
        ax.axvline(1, color="black", lw=0.7, ls=":")
        ax.set_xlabel("buffer (BDP multiples, log scale)")
        ax.set_title(f"{n} flow{'s' if n > 1 else ''}", fontsize=9)
    axes[0, 0].set_ylabel(ylabel)
    axes[0, -1].legend(fontsize=7, ncol=2, loc="best")
    fig.tight_layout()
    return fig


def show_buffer_sweeps(ch, tables, reference, bdp) -> None:
    """Figures 24-28: goodput, PLR and RTT against the buffer."""
    for sweep in SWEEPS:
        _, ylabel, ref_metric, name, figs, _, _ = sweep
        fig = buffer_sweep(tables, reference, sweep, bdp)
        if fig is None:
            skipped(ch, SWEEP)
            continue
        show(ch, fig, name,
             f"Figure: {ylabel} against the bottleneck buffer (0.003-10 BDP, log axis; dotted line at 1 BDP), one and "
             "five flows, mean with 95% CI error bars (zero-width except BBR)"
             + ("; open diamonds: the paper's 5-flow values" if ref_metric else "")
             + f". Reproduces the paper's {figs}. Made from `{study_file(SWEEP)}`.")


def device_queue(tables):
    """Utilization and PLR of five flows in shallow buffers without (solid) and with (dashed) ns-3's
    100-packet device queue; QtColFair at alpha 1.2 only. None if the device-queue study did not run."""
    dq = tables[tables["study"] == DEVQ]
    if dq.empty:
        return None
    bs = tables[tables["study"] == SWEEP]
    base = bs[(bs["flows"] == 5) & (bs["buffer_bdp"] <= 1)]
    fig, axes = plt.subplots(1, 2, figsize=(11, 3.6))
    for ax, metric, ylabel in ((axes[0], "utilization", "utilization (goodput / 100 Mbit/s)"),
                               (axes[1], "plr", "PLR (retransmitted / sent)")):
        for frame, ls, tag in ((base, "-", "configured queue only"), (dq, "--", "+100-packet device queue")):
            d = frame[frame["metric"] == metric]
            for (alg, alpha), g in d.groupby(["algorithm", d["alpha"].fillna(0)]):
                if alg == "qtcolfair" and not np.isclose(alpha, 1.2):
                    continue
                g = g.sort_values("buffer_bdp")
                ax.errorbar(g["buffer_bdp"], g["mean"], yerr=error_bars(g), color=style.PALETTE[alg], ls=ls,
                            marker="o", ms=3, lw=1.2, capsize=2, label=f"{style.label(alg, alpha or None)}, {tag}")
        ax.set_xscale("log")
        ax.set_xlabel("configured buffer (BDP multiples, log scale)")
        ax.set_ylabel(ylabel)
    axes[0].legend(fontsize=7, loc="lower right")
    fig.tight_layout()
    return fig


def show_device_queue(ch, tables) -> bool:
    """The sensitivity figure; False (and the skip note) if the device-queue study did not run."""
    fig = device_queue(tables)
    if fig is None:
        skipped(ch, DEVQ)
        return False
    show(ch, fig, "buffer_device_queue",
         "Figure: five flows in shallow buffers, with the configured bottleneck queue alone (solid) and with ns-3's "
         "default 100-packet device queue behind it (dashed); mean with 95% CI (zero-width except BBR). "
         f"Sensitivity check for the paper's Figures 24-25. Made from `{study_file(SWEEP)}` and `{study_file(DEVQ)}`.")
    return True
