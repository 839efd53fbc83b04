"""Figures of the Wi-Fi testbed chapter (notebooks/testbed.ipynb): the report's bar charts of throughput,
RTT, loss and cwnd with the numbers it states beside ours (reference/testbed/paper_numbers.csv), its
throughput-vs-RTT scatter, the bidirectional runs and one run over time (study tb_matrix); the
sensitivity to our Wi-Fi choices (tb_sensitivity) and unresponsive cross traffic (tb_cross_traffic).
Every plotted series is registered with the grid points it comes from (figure_series), which the tests
check and the figure's CSV download holds; the chapter's tables are in tables_testbed."""
from __future__ import annotations

import numpy as np
import pandas as pd

from simulator.report import chapter_tables, figure_series, paper_values, style
from simulator.report.papers.testbed import tables as tables_testbed
from simulator.report.papers.testbed.tables import NUMBERS_STUDY, matrix

SENS, CROSS = "tb_sensitivity", "tb_cross_traffic"
# the report's algorithms in its order; a figure draws those its data has, then any other (a user's: algorithms())
ALGS = ["bbr", "cubic", "reno", "vegas"]
SETUPS = {"eth_wifi": "ETH-WiFi (sender on Ethernet)", "wifi_wifi": "WiFi-WiFi (both on Wi-Fi)"}
BACKGROUNDS = {"none": "baseline", "light": "light (8 flows)", "heavy": "heavy (8 flows)"}
MARKERS = {"eth_wifi": "o", "wifi_wifi": "s"}
# the report's bar charts: (metric, axis label, figure name, the report's figure)
BARS = [
    ("throughput_mean_mbps", "mean throughput (Mbit/s, 1 s intervals)", "throughput", "throughput figure"),
    ("ping_rtt_mean_ms", "mean ping RTT under load (ms)", "rtt", "RTT figure"),
    ("ping_loss_pct", "ICMP ping loss (%)", "loss", "loss figure"),
    ("cwnd_median_pkts", "median cwnd (packets, 1 s snapshots)", "cwnd", "CWND figures (baseline, light and heavy background)"),
]
SERIES = [("throughput_mbps", "throughput (Mbit/s, 1 s)"), ("cwnd", "cwnd (packets)"),
          ("ping_rtt_ms", "ping RTT (ms, 1 s mean)")]
# bidirectional figure: (legend, which rows, metric, hatch)
BIDIR_KINDS = [("unidirectional (baseline)", "uni", "throughput_mean_mbps", ""),
               ("bidir: forward", "bi", "throughput_mean_mbps", "//"),
               ("bidir: reverse", "bi", "reverse_throughput_mbps", "..")]
SENS_METRICS = [("throughput_mean_mbps", "throughput (Mbit/s)", False), ("ping_rtt_mean_ms", "ping RTT (ms, log)", True),
                ("ping_loss_pct", "ICMP ping loss (%)", False), ("cwnd_median_pkts", "median cwnd (packets, log)", True)]
BUFFER_STYLE = {1000: "-", 100: "--"}        # access point queue (packets) -> line style
CROSS_METRICS = [("throughput_mean_mbps", "TCP throughput (Mbit/s, 1 s intervals)"),
                 ("ping_rtt_mean_ms", "mean ping RTT under load (ms)")]
PAPER_CAPTION = ("In grey the numbers the report states in its text (a hatched band for a range, a hollow diamond for "
                 "a single value; reference/testbed/paper_numbers.csv), drawn at the baseline for comparison (the "
                 "scorecard compares them with the baseline runs on the 802.11 channel, section On an 802.11 "
                 "channel): ")


def _rows(d: pd.DataFrame, metric, alg, setup, background=None) -> pd.DataFrame:
    """The rows of `metric` for this algorithm and link setup (and background): one, or none."""
    r = d[(d["metric"] == metric) & (d["algorithm"] == alg) & (d["link_setup"] == setup)]
    return r if background is None else r[r["background"] == background]


def _ci(rows: pd.DataFrame):
    """mean, CI low (cut at 0: every metric here is a rate, delay, share or count) and high of the first of
    `rows` (NaN when there is none)."""
    if rows.empty:
        return np.nan, np.nan, np.nan
    r = rows.iloc[0]
    return r["mean"], max(r["ci_low"], 0.0), r["ci_high"]


def algorithms(d: pd.DataFrame) -> list:
    """The algorithms a figure of `d` draws: the report's that `d` has, then any other (style.drawn)."""
    return style.drawn(ALGS, d["algorithm"].dropna())


def n_seeds(tables: pd.DataFrame) -> int:
    """Seeds of the unidirectional run matrix."""
    return int(matrix(tables, bidir=False)["n"].max())


def _paper_bars(ax, numbers, metric, setup, algs, width) -> None:
    """The report's numbers of `metric` on `setup` at the baseline group, over each of its algorithms' bars."""
    for i, alg in enumerate(algs):
        for _, r in paper_values.select(numbers, NUMBERS_STUDY, metric, alg, link_setup=setup).iterrows():
            paper_values.mark(ax, r, x=(i - (len(algs) - 1) / 2) * width, at="none", width=width * 0.9,
                              panel=SETUPS[setup], context=tables_testbed.SETUP_NAMES[setup])


def bar_chart(tables: pd.DataFrame, metric: str, ylabel: str, numbers=None):
    """One bar per algorithm (mean, 95% CI) grouped by background; ETH-WiFi left, WiFi-WiFi right; the
    report's numbers in grey at the baseline."""
    import matplotlib.pyplot as plt
    from matplotlib.patches import Patch

    uni = matrix(tables, bidir=False)
    algs = algorithms(uni)
    fig, axes = plt.subplots(1, 2, figsize=(10, 3.8), sharey=True)
    width = 0.8 / len(algs)
    for ax, (setup, title) in zip(axes, SETUPS.items()):
        for i, alg in enumerate(algs):
            rows = [_rows(uni, metric, alg, setup, bg) for bg in BACKGROUNDS]
            mean, lo, hi = (np.array(v, dtype=float) for v in zip(*map(_ci, rows)))
            ax.bar(np.arange(len(BACKGROUNDS)) + (i - (len(algs) - 1) / 2) * width, mean, width,
                   color=style.PALETTE[alg], label=style.label(alg, None), yerr=[mean - lo, hi - mean], capsize=2,
                   error_kw={"lw": 0.8})
            figure_series.record(ax, style.label(alg, None), rows, list(BACKGROUNDS), mean, lo, hi,
                                 along="background", panel=title)
        _paper_bars(ax, numbers, metric, setup, algs, width)
        ax.set_xticks(np.arange(len(BACKGROUNDS)), list(BACKGROUNDS.values()))
        ax.set_xlabel("background traffic")
        ax.set_title(title, fontsize=10)
    axes[0].set_ylabel(ylabel)
    fig.tight_layout()
    handles = [Patch(color=style.PALETTE[a], label=style.label(a, None)) for a in algs]
    handles += paper_values.handles() if paper_values.drawn(fig) else []
    fig.legend(handles=handles, ncol=len(handles), loc="lower center", bbox_to_anchor=(0.5, 1.0), fontsize=10)
    return fig


def _scatter_legend(ax, algs) -> None:
    import matplotlib.pyplot as plt

    handles = [plt.Line2D([], [], color=style.PALETTE[a], marker="o", ls="", label=style.label(a, None)) for a in algs]
    handles += [plt.Line2D([], [], color="black", marker=MARKERS[s], ls="", mfc="white", label=SETUPS[s].split(" ")[0])
                for s in SETUPS]
    handles += [plt.Line2D([], [], color="black", marker="o", ls="", label="filled: baseline, open: background")]
    ax.legend(handles=handles, fontsize=9, loc="upper right")


def throughput_vs_rtt(tables: pd.DataFrame):
    """Mean throughput against mean ping RTT with 95% CIs in both axes, one point per algorithm,
    link setup (marker) and background (open marker)."""
    import matplotlib.pyplot as plt

    uni = matrix(tables, bidir=False)
    algs = algorithms(uni)
    fig, ax = plt.subplots(figsize=(8, 5))
    for alg in algs:
        for setup in SETUPS:
            for bg in BACKGROUNDS:
                xr, yr = _rows(uni, "ping_rtt_mean_ms", alg, setup, bg), _rows(uni, "throughput_mean_mbps", alg, setup, bg)
                if xr.empty or yr.empty:
                    continue
                (x, xlo, xhi), (y, ylo, yhi) = _ci(xr), _ci(yr)
                ax.errorbar(x, y, xerr=[[x - xlo], [xhi - x]], yerr=[[y - ylo], [yhi - y]], fmt=MARKERS[setup],
                            color=style.PALETTE[alg], ms=6, mfc=style.PALETTE[alg] if bg == "none" else "white",
                            capsize=2, lw=0.8)
                figure_series.record(ax, f"{style.label(alg, None)}, {setup}, {bg}", pd.concat([xr, yr]), x, y,
                                     ylo, yhi, panel="throughput (Mbit/s) against ping RTT (ms)")
    _scatter_legend(ax, algs)
    ax.set_xscale("log")
    ax.set_xlabel("mean ping RTT under load (ms, log scale)")
    ax.set_ylabel("mean throughput (Mbit/s)")
    fig.tight_layout()
    return fig


def bidir_points(tables: pd.DataFrame):
    """(setup, kind index, kind, hatch, algorithm index, algorithm, table rows) of every bar of the
    bidirectional figure: baseline, forward and reverse throughput of the algorithms run both ways."""
    frames = {"uni": matrix(tables, bidir=False), "bi": matrix(tables, bidir=True)}
    algs = algorithms(frames["bi"])
    for setup in SETUPS:
        for j, (kind, which, metric, hatch) in enumerate(BIDIR_KINDS):
            for i, alg in enumerate(algs):
                r = _rows(frames[which], metric, alg, setup, "none" if which == "uni" else None)
                if not r.empty:
                    yield setup, j, kind, hatch, i, alg, r


def bidirectional(tables: pd.DataFrame):
    """Forward and reverse throughput of the bidirectional runs next to the unidirectional baseline."""
    import matplotlib.pyplot as plt

    algs = algorithms(matrix(tables, bidir=True))
    fig, axes = plt.subplots(1, 2, figsize=(9, 3.6), sharey=True)
    ax_of = dict(zip(SETUPS, axes))
    width = 0.8 / len(BIDIR_KINDS)
    for setup, j, kind, hatch, i, alg, r in bidir_points(tables):
        mean, lo, hi = _ci(r)
        ax_of[setup].bar(i + (j - 1) * width, mean, width, color=style.PALETTE[alg], hatch=hatch,
                         edgecolor="white", yerr=[[mean - lo], [hi - mean]], capsize=2, error_kw={"lw": 0.8})
        figure_series.record(ax_of[setup], f"{style.label(alg, None)}, {kind}", r, kind, mean, lo, hi,
                             panel=SETUPS[setup])
    for ax, title in zip(axes, SETUPS.values()):
        ax.set_xticks(range(len(algs)), [style.label(a, None) for a in algs])
        ax.set_title(title, fontsize=10)
    axes[0].set_ylabel("mean throughput (Mbit/s)")
    axes[0].legend(handles=[plt.Rectangle((0, 0), 1, 1, fc="grey", hatch=h, ec="white", label=k)
                            for k, _, _, h in BIDIR_KINDS], fontsize=9)
    fig.tight_layout()
    return fig


def bidirectional_names(tables: pd.DataFrame) -> str:
    """'BBR and Cubic': the algorithms the bidirectional figure draws, for its caption."""
    labels = [style.label(a, None) for a in algorithms(matrix(tables, bidir=True))]
    return " and ".join([", ".join(labels[:-1]), labels[-1]] if len(labels) > 1 else labels)


def bidirectional_table(tables: pd.DataFrame) -> pd.DataFrame:
    return tables_testbed.bidirectional_table(bidir_points(tables))


def first_seed(traces: pd.DataFrame) -> int:
    return int(matrix(traces, bidir=False)["seed"].min())


def time_series(traces: pd.DataFrame):
    """Throughput, cwnd and ping RTT over time of the first seed's baseline run of each algorithm;
    ETH-WiFi left, WiFi-WiFi right, both columns on the same y range."""
    import matplotlib.pyplot as plt

    uni, seed = matrix(traces, bidir=False), first_seed(traces)
    fig, axes = plt.subplots(len(SERIES), 2, figsize=(10, 7.5), sharex=True)
    for col, (setup, title) in enumerate(SETUPS.items()):
        for alg in algorithms(uni):
            g = uni[(uni["algorithm"] == alg) & (uni["link_setup"] == setup)
                    & (uni["background"] == "none") & (uni["seed"] == seed)].sort_values("t")
            for row, (col_name, ylabel) in enumerate(SERIES):
                axes[row, col].plot(g["t"], g[col_name], color=style.PALETTE[alg], lw=1.1, label=style.label(alg, None))
                axes[row, col].set_ylabel(ylabel)
                figure_series.record(axes[row, col], style.label(alg, None), g, g["t"], g[col_name],
                                     panel=ylabel)
        axes[0, col].set_title(title, fontsize=10)
        axes[-1, col].set_xlabel("time (s)")
    for row in range(len(SERIES)):
        top = max(axes[row, 0].get_ylim()[1], axes[row, 1].get_ylim()[1])
        for col in range(2):
            axes[row, col].set_ylim(0, top)
    axes[0, 0].legend(ncol=4, fontsize=10)
    fig.tight_layout()
    return fig


def _sens_legend(fig, algs) -> None:
    """Colours for the algorithms, line styles for the access point's queue."""
    import matplotlib.pyplot as plt

    handles = [plt.Line2D([], [], color=style.PALETTE[a], marker="o", ms=4, label=style.label(a, None)) for a in algs]
    handles += [plt.Line2D([], [], color="black", ls=ls, label=f"{buf}-packet queue") for buf, ls in BUFFER_STYLE.items()]
    fig.legend(handles=handles, loc="upper center", ncol=len(handles), fontsize=10, bbox_to_anchor=(0.5, 1.0))


def sensitivity(tables: pd.DataFrame):
    """tb_sensitivity: each metric against the residual Wi-Fi loss per hop, solid 1000-packet and dashed
    100-packet access point queue; baseline left, heavy background right (those that ran)."""
    import matplotlib.pyplot as plt

    sens = tables[tables["study"] == SENS]
    bgs = [b for b in ("none", "heavy") if b in set(sens["background"])]
    fig, axes = plt.subplots(len(SENS_METRICS), len(bgs), figsize=(10, 10), sharex=True, squeeze=False)
    for col, bg in enumerate(bgs):
        for row, (metric, ylabel, logy) in enumerate(SENS_METRICS):
            ax = axes[row, col]
            for alg in algorithms(sens):
                for buf, ls in BUFFER_STYLE.items():
                    g = sens[(sens["metric"] == metric) & (sens["algorithm"] == alg) & (sens["background"] == bg)
                             & (sens["ap_buffer_pkts"] == buf)].sort_values("loss_pct")
                    if g.empty:
                        continue
                    lo = g["ci_low"].clip(lower=0)
                    ax.errorbar(g["loss_pct"], g["mean"], yerr=[g["mean"] - lo, g["ci_high"] - g["mean"]],
                                color=style.PALETTE[alg], ls=ls, marker="o", ms=3.5, capsize=2)
                    figure_series.record(ax, f"{style.label(alg, None)}, {buf}-packet queue", g, g["loss_pct"],
                                         g["mean"], lo, g["ci_high"], along="loss_pct",
                                         panel=f"{BACKGROUNDS.get(bg, bg)} | {ylabel}")
            if logy:
                ax.set_yscale("log")
            ax.set_ylabel(ylabel)
            if row == 0:
                ax.set_title("baseline" if bg == "none" else "heavy background (8 CUBIC flows)", fontsize=10)
            if row == len(SENS_METRICS) - 1:
                ax.set_xlabel("residual Wi-Fi loss per wireless hop (%)")
    fig.tight_layout(rect=(0, 0, 1, 0.96))
    _sens_legend(fig, algorithms(sens))
    return fig


def _optional_section(ch, tables, study, draw, name, caption) -> None:
    """A figure of an optional study with its data, or a note that the study did not run."""
    if not chapter_tables.ran(tables, study):
        ch.markdown(chapter_tables.not_run(study))
        return
    figure_series.show(ch, draw(tables), name, caption)


def sensitivity_section(ch, tables) -> None:
    """The sensitivity figure with its data, or a note that tb_sensitivity did not run."""
    _optional_section(ch, tables, SENS, sensitivity, "sensitivity",
                      "Figure: WiFi-WiFi runs against the residual Wi-Fi loss per hop (x) and the access point's "
                      "queue (solid 1000 packets, dashed 100); mean over 10 seeds with 95% CI (cut at 0). Not a "
                      "figure of the report: a check of how much our two unmeasured parameters decide the "
                      "testbed's throughput, RTT, loss and cwnd figures. Made from `config/studies/testbed/tb_sensitivity.yaml`.")


def _cross_bars(ax, ct, metric, cases) -> None:
    algs = algorithms(ct)
    width = 0.8 / len(algs)
    for i, alg in enumerate(algs):
        g = [ct[(ct["metric"] == metric) & (ct["algorithm"] == alg) & (ct["cross_mode"] == m)
                & (ct["cross_mbps"] == load)] for m, load in cases]
        mean, lo, hi = (np.array(v, dtype=float) for v in zip(*map(_ci, g)))
        ax.bar(np.arange(len(cases)) + (i - (len(algs) - 1) / 2) * width, mean, width,
               yerr=[np.nan_to_num(mean - lo), np.nan_to_num(hi - mean)], capsize=2, color=style.PALETTE[alg],
               label=style.label(alg, None))
        figure_series.record(ax, style.label(alg, None), g, [f"{m} {load:g} Mbit/s" for m, load in cases],
                             mean, lo, hi, along=("cross_mode", "cross_mbps"))


def cross_traffic(tables: pd.DataFrame):
    """tb_cross_traffic: TCP throughput and ping RTT per algorithm under Poisson and on-off cross traffic."""
    import matplotlib.pyplot as plt

    ct = tables[tables["study"] == CROSS]
    cases = [(m, load) for m in ("poisson", "onoff") for load in sorted(ct["cross_mbps"].unique())]
    fig, axes = plt.subplots(1, 2, figsize=(10, 3.8))
    for ax, (metric, ylabel) in zip(axes, CROSS_METRICS):
        _cross_bars(ax, ct, metric, cases)
        ax.set_xticks(range(len(cases)), [f"{m}\n{load:g} Mbit/s" for m, load in cases])
        ax.set_xlabel("UDP-like cross traffic (mean load)")
        ax.set_ylabel(ylabel)
    axes[0].legend(ncol=2, fontsize=10)
    fig.tight_layout()
    return fig


def cross_traffic_section(ch, tables) -> None:
    """The cross-traffic figure with its data, or a note that tb_cross_traffic did not run."""
    _optional_section(ch, tables, CROSS, cross_traffic, "cross_traffic",
                      "Figure: throughput of the measured TCP flow and ping RTT with Poisson or on-off UDP-like cross "
                      "traffic at 10 and 25 Mbit/s mean load on the ETH-WiFi path; mean over 10 seeds with 95% CI "
                      "(cut at 0). Not a figure of the report. Made from `config/studies/testbed/tb_cross_traffic.yaml`.")


def bars_section(ch, tables, numbers, source: str) -> None:
    """The report's four bar charts, each with its caption and data."""
    for metric, ylabel, name, what in BARS:
        fig = bar_chart(tables, metric, ylabel, numbers)
        paper = f" {PAPER_CAPTION}{paper_values.described(fig)}." if paper_values.drawn(fig) else (
            " The report states no number for it.")
        figure_series.show(ch, fig, f"bars_{name}",
                           f"Figure: {ylabel} per algorithm and background, left ETH-WiFi, right WiFi-WiFi; bars are "
                           f"means over {n_seeds(tables)} seeds with 95% CIs (cut at 0).{paper} Reproduces the "
                           f"report's {what}. Light and heavy background are the same 8 CUBIC flows (as in the authors' "
                           f"scripts). {source}")
