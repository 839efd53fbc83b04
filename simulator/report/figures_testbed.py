"""Figures and tables of the Wi-Fi testbed chapter (notebooks/testbed.ipynb): the paper's bar charts
of throughput, RTT, loss and cwnd, its throughput-vs-RTT scatter, the bidirectional runs and one run
over time (study tb_matrix); the summary over seeds; the sensitivity to our Wi-Fi choices
(tb_sensitivity) and unresponsive cross traffic (tb_cross_traffic); the numbers the paper quotes as
the scorecard compared them."""
from __future__ import annotations

import numpy as np
import pandas as pd

from simulator.report import chapter_tables, claims_view, style

STUDY, SENS, CROSS = "tb_matrix", "tb_sensitivity", "tb_cross_traffic"
ALGS = ["bbr", "cubic", "reno", "vegas"]
SETUPS = {"eth_wifi": "ETH-WiFi (sender on Ethernet)", "wifi_wifi": "WiFi-WiFi (both on Wi-Fi)"}
BACKGROUNDS = {"none": "baseline", "light": "light (8 flows)", "heavy": "heavy (8 flows)"}
MARKERS = {"eth_wifi": "o", "wifi_wifi": "s"}
# the paper's bar charts: (metric, axis label, figure name, the paper's figure)
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
METRICS = {
    "throughput_mean_mbps": "throughput mean (Mbit/s)", "throughput_p90_mbps": "throughput p90 (Mbit/s)",
    "throughput_p95_mbps": "throughput p95 (Mbit/s)", "ping_rtt_mean_ms": "ping RTT mean (ms)",
    "ping_rtt_p90_ms": "ping RTT p90 (ms)", "ping_rtt_p95_ms": "ping RTT p95 (ms)",
    "ping_loss_pct": "ping loss (%)", "cwnd_median_pkts": "cwnd median (packets)", "cwnd_p95_pkts": "cwnd p95 (packets)",
    "retransmit_pct": "retransmitted / sent (%)", "tcp_rtt_mean_ms": "TCP smoothed RTT mean (ms)",
    "reverse_throughput_mbps": "reverse throughput (Mbit/s)", "background_throughput_mbps": "background throughput (Mbit/s)",
}
BACKGROUND_ORDER = {"none": 0, "light": 1, "heavy": 2, "none (bidirectional)": 3}
SENS_METRICS = [("throughput_mean_mbps", "throughput (Mbit/s)", False), ("ping_rtt_mean_ms", "ping RTT (ms, log)", True),
                ("ping_loss_pct", "ICMP ping loss (%)", False), ("cwnd_median_pkts", "median cwnd (packets, log)", True)]
BUFFER_STYLE = {1000: "-", 100: "--"}        # access point queue (packets) -> line style
CROSS_METRICS = [("throughput_mean_mbps", "TCP throughput (Mbit/s, 1 s intervals)"),
                 ("ping_rtt_mean_ms", "mean ping RTT under load (ms)")]
QUOTED_COLUMNS = ["item", "metric", "paper_value", "ours_mean", "ci_low", "ci_high", "run_p025", "run_p975",
                  "n_seeds", "verdict", "note"]


def is_bidir(frame: pd.DataFrame) -> pd.Series:
    return frame["bidir"].astype(str).str.lower().isin(["true", "1", "1.0"])


def matrix(frame: pd.DataFrame, bidir: bool | None = None) -> pd.DataFrame:
    """The tb_matrix rows of `frame`: all, only the unidirectional (bidir False) or bidirectional ones."""
    d = frame[frame["study"] == STUDY]
    return d if bidir is None else d[is_bidir(d) == bidir]


def _row(d: pd.DataFrame, metric, alg, setup, background=None):
    """The first row of `metric` for this algorithm and link setup (and background), or None."""
    r = d[(d["metric"] == metric) & (d["algorithm"] == alg) & (d["link_setup"] == setup)]
    if background is not None:
        r = r[r["background"] == background]
    return r.iloc[0] if len(r) else None


def n_seeds(tables: pd.DataFrame) -> int:
    """Seeds of the unidirectional run matrix."""
    return int(matrix(tables, bidir=False)["n"].max())


def bar_chart(tables: pd.DataFrame, metric: str, ylabel: str):
    """One bar per algorithm (mean, 95% CI) grouped by background; ETH-WiFi left, WiFi-WiFi right."""
    import matplotlib.pyplot as plt

    uni = matrix(tables, bidir=False)
    fig, axes = plt.subplots(1, 2, figsize=(11, 3.6), sharey=True)
    width = 0.8 / len(ALGS)
    for ax, (setup, title) in zip(axes, SETUPS.items()):
        for i, alg in enumerate(ALGS):
            rows = [_row(uni, metric, alg, setup, bg) for bg in BACKGROUNDS]
            x = np.arange(len(BACKGROUNDS)) + (i - (len(ALGS) - 1) / 2) * width
            mean, lo, hi = (np.array([r[c] if r is not None else np.nan for r in rows])
                            for c in ("mean", "ci_low", "ci_high"))
            ax.bar(x, mean, width, color=style.PALETTE[alg], label=style.label(alg, None),
                   yerr=[mean - lo, hi - mean], capsize=2, error_kw={"lw": 0.8})
        ax.set_xticks(np.arange(len(BACKGROUNDS)), list(BACKGROUNDS.values()))
        ax.set_xlabel("background traffic")
        ax.set_title(title, fontsize=9)
    axes[0].set_ylabel(ylabel)
    fig.tight_layout()
    fig.legend(*axes[0].get_legend_handles_labels(), ncol=len(ALGS), loc="lower center",
               bbox_to_anchor=(0.5, 1.0), fontsize=9)
    return fig


def _scatter_legend(ax) -> None:
    import matplotlib.pyplot as plt

    handles = [plt.Line2D([], [], color=style.PALETTE[a], marker="o", ls="", label=style.label(a, None)) for a in ALGS]
    handles += [plt.Line2D([], [], color="black", marker=MARKERS[s], ls="", mfc="white", label=SETUPS[s].split(" ")[0])
                for s in SETUPS]
    handles += [plt.Line2D([], [], color="black", marker="o", ls="", label="filled: baseline, open: background")]
    ax.legend(handles=handles, fontsize=8, loc="upper right")


def throughput_vs_rtt(tables: pd.DataFrame):
    """Mean throughput against mean ping RTT with 95% CIs in both axes, one point per algorithm,
    link setup (marker) and background (open marker)."""
    import matplotlib.pyplot as plt

    uni = matrix(tables, bidir=False)
    fig, ax = plt.subplots(figsize=(7.5, 4.8))
    for alg in ALGS:
        for setup in SETUPS:
            for bg in BACKGROUNDS:
                x, y = _row(uni, "ping_rtt_mean_ms", alg, setup, bg), _row(uni, "throughput_mean_mbps", alg, setup, bg)
                if x is None or y is None:
                    continue
                ax.errorbar(x["mean"], y["mean"], xerr=[[x["mean"] - x["ci_low"]], [x["ci_high"] - x["mean"]]],
                            yerr=[[y["mean"] - y["ci_low"]], [y["ci_high"] - y["mean"]]], fmt=MARKERS[setup],
                            color=style.PALETTE[alg], ms=6, mfc=style.PALETTE[alg] if bg == "none" else "white",
                            capsize=2, lw=0.8)
    _scatter_legend(ax)
    ax.set_xscale("log")
    ax.set_xlabel("mean ping RTT under load (ms, log scale)")
    ax.set_ylabel("mean throughput (Mbit/s)")
    fig.tight_layout()
    return fig


def _bidir_points(tables: pd.DataFrame):
    """(setup, kind index, kind, hatch, algorithm index, algorithm, table row) of every bar of the
    bidirectional figure: baseline, forward and reverse throughput of the algorithms run both ways."""
    frames = {"uni": matrix(tables, bidir=False), "bi": matrix(tables, bidir=True)}
    algs = [a for a in ALGS if a in set(frames["bi"]["algorithm"])]
    for setup in SETUPS:
        for j, (kind, which, metric, hatch) in enumerate(BIDIR_KINDS):
            for i, alg in enumerate(algs):
                r = _row(frames[which], metric, alg, setup, "none" if which == "uni" else None)
                if r is not None:
                    yield setup, j, kind, hatch, i, alg, r


def bidirectional(tables: pd.DataFrame):
    """Forward and reverse throughput of the bidirectional runs next to the unidirectional baseline."""
    import matplotlib.pyplot as plt

    algs = [a for a in ALGS if a in set(matrix(tables, bidir=True)["algorithm"])]
    fig, axes = plt.subplots(1, 2, figsize=(9, 3.4), sharey=True)
    ax_of = dict(zip(SETUPS, axes))
    width = 0.8 / len(BIDIR_KINDS)
    for setup, j, _, hatch, i, alg, r in _bidir_points(tables):
        ax_of[setup].bar(i + (j - 1) * width, r["mean"], width, color=style.PALETTE[alg], hatch=hatch,
                         edgecolor="white", yerr=[[r["mean"] - r["ci_low"]], [r["ci_high"] - r["mean"]]], capsize=2,
                         error_kw={"lw": 0.8})
    for ax, title in zip(axes, SETUPS.values()):
        ax.set_xticks(range(len(algs)), [style.label(a, None) for a in algs])
        ax.set_title(title, fontsize=9)
    axes[0].set_ylabel("mean throughput (Mbit/s)")
    axes[0].legend(handles=[plt.Rectangle((0, 0), 1, 1, fc="grey", hatch=h, ec="white", label=k)
                            for k, _, _, h in BIDIR_KINDS], fontsize=8)
    fig.tight_layout()
    return fig


def bidirectional_table(tables: pd.DataFrame) -> pd.DataFrame:
    """The bars of the bidirectional figure as 'mean [CI]' (Mbit/s): rows setup x algorithm, columns flow."""
    rows = [{"link setup": setup, "algorithm": style.label(alg, None), "flow": kind,
             "throughput (Mbit/s)": f"{r['mean']:.3g} [{r['ci_low']:.3g}, {r['ci_high']:.3g}]"}
            for setup, _, kind, _, _, alg, r in _bidir_points(tables)]
    return pd.DataFrame(rows).pivot_table(index=["link setup", "algorithm"], columns="flow",
                                          values="throughput (Mbit/s)", aggfunc="first")


def first_seed(traces: pd.DataFrame) -> int:
    return int(matrix(traces, bidir=False)["seed"].min())


def time_series(traces: pd.DataFrame):
    """Throughput, cwnd and ping RTT over time of the first seed's baseline run of each algorithm;
    ETH-WiFi left, WiFi-WiFi right, both columns on the same y range."""
    import matplotlib.pyplot as plt

    uni, seed = matrix(traces, bidir=False), first_seed(traces)
    fig, axes = plt.subplots(len(SERIES), 2, figsize=(11, 7.5), sharex=True)
    for col, (setup, title) in enumerate(SETUPS.items()):
        for alg in ALGS:
            g = uni[(uni["algorithm"] == alg) & (uni["link_setup"] == setup)
                    & (uni["background"] == "none") & (uni["seed"] == seed)].sort_values("t")
            for row, (col_name, ylabel) in enumerate(SERIES):
                axes[row, col].plot(g["t"], g[col_name], color=style.PALETTE[alg], lw=1.1, label=style.label(alg, None))
                axes[row, col].set_ylabel(ylabel)
        axes[0, col].set_title(title, fontsize=9)
        axes[-1, col].set_xlabel("time (s)")
    for row in range(len(SERIES)):
        top = max(axes[row, 0].get_ylim()[1], axes[row, 1].get_ylim()[1])
        for col in range(2):
            axes[row, col].set_ylim(0, top)
    axes[0, 0].legend(ncol=4, fontsize=8)
    fig.tight_layout()
    return fig


def _summary_rows(tables: pd.DataFrame) -> pd.DataFrame:
    """tb_matrix rows of METRICS that have a mean; bidirectional runs as background 'none (bidirectional)'."""
    d = matrix(tables)
    d = d[d["metric"].isin(METRICS)].copy()
    d["background"] = np.where(is_bidir(d), "none (bidirectional)", d["background"].astype(str))
    return d[d["mean"].notna()]


def summary(tables: pd.DataFrame) -> pd.DataFrame:
    """One row per (link setup, background, algorithm), one column per metric: 'mean [CI]'; blank where
    the metric does not apply (e.g. reverse throughput of a unidirectional run)."""
    wide = chapter_tables.metric_columns(_summary_rows(tables), ["link_setup", "background", "algorithm"], METRICS)
    alg_order = {a: i for i, a in enumerate(ALGS)}
    wide = wide.sort_index(key=lambda ix: ix.map(BACKGROUND_ORDER) if ix.name == "background" else
                           (ix.map(alg_order) if ix.name == "algorithm" else ix))
    return wide.fillna("")


def summary_seeds(tables: pd.DataFrame) -> int:
    return int(_summary_rows(tables)["n"].max())


def sensitivity(tables: pd.DataFrame):
    """tb_sensitivity: each metric against the residual Wi-Fi loss per hop, solid 1000-packet and dashed
    100-packet access point queue; baseline left, heavy background right (those that ran)."""
    import matplotlib.pyplot as plt

    sens = tables[tables["study"] == SENS]
    bgs = [b for b in ("none", "heavy") if b in set(sens["background"])]
    fig, axes = plt.subplots(len(SENS_METRICS), len(bgs), figsize=(10.5, 10), sharex=True, squeeze=False)
    for col, bg in enumerate(bgs):
        for row, (metric, ylabel, logy) in enumerate(SENS_METRICS):
            ax = axes[row, col]
            for alg in ALGS:
                for buf, ls in BUFFER_STYLE.items():
                    g = sens[(sens["metric"] == metric) & (sens["algorithm"] == alg) & (sens["background"] == bg)
                             & (sens["ap_buffer_pkts"] == buf)].sort_values("loss_pct")
                    if g.empty:
                        continue
                    ax.errorbar(g["loss_pct"], g["mean"], yerr=[g["mean"] - g["ci_low"], g["ci_high"] - g["mean"]],
                                color=style.PALETTE[alg], ls=ls, marker="o", ms=3.5, capsize=2,
                                label=f"{style.label(alg, None)}, {buf}-packet queue")
            if logy:
                ax.set_yscale("log")
            ax.set_ylabel(ylabel)
            if row == 0:
                ax.set_title("baseline" if bg == "none" else "heavy background (8 CUBIC flows)", fontsize=9)
            if row == len(SENS_METRICS) - 1:
                ax.set_xlabel("residual Wi-Fi loss per wireless hop (%)")
    handles, labels = axes[0, 0].get_legend_handles_labels()
    fig.tight_layout(rect=(0, 0, 1, 0.95))
    fig.legend(handles, labels, loc="upper center", ncol=4, fontsize=7.5, bbox_to_anchor=(0.5, 1.0))
    return fig


def sensitivity_table(tables: pd.DataFrame) -> pd.DataFrame:
    """The sensitivity figure's points as 'mean [CI]' (3 digits), one column per metric."""
    metrics = [m for m, _, _ in SENS_METRICS]
    d = tables[(tables["study"] == SENS) & tables["metric"].isin(metrics)]
    return chapter_tables.metric_columns(d, ["background", "ap_buffer_pkts", "loss_pct", "algorithm"],
                                         sorted(metrics), digits=3)  # metric-name order, as the download had


def sensitivity_section(ch, tables) -> None:
    """The sensitivity figure and its table (download only), or a note that tb_sensitivity did not run."""
    caption = ("Figure: WiFi-WiFi runs against the residual Wi-Fi loss per hop (x) and the access point's queue "
               "(solid 1000 packets, dashed 100); mean over 10 seeds with 95% CI. Not a figure of the paper: a check "
               "of how much our two unmeasured parameters decide the testbed's throughput, RTT, loss and cwnd "
               "figures. Made from `config/studies/tb_sensitivity.yaml`.")
    if chapter_tables.figure_if_ran(ch, tables, SENS, sensitivity, "sensitivity", caption):
        ch.save_download(sensitivity_table(tables), "testbed_sensitivity.csv", index=True)
        ch.markdown(f"{ch.download_link('testbed_sensitivity.csv', 'Download the sensitivity table as CSV')} "
                    "(mean [95% CI] over 10 seeds). Made from `config/studies/tb_sensitivity.yaml`.")


def _cross_bars(ax, ct, metric, cases) -> None:
    width = 0.8 / len(ALGS)
    for i, alg in enumerate(ALGS):
        g = [ct[(ct["metric"] == metric) & (ct["algorithm"] == alg) & (ct["cross_mode"] == m)
                & (ct["cross_mbps"] == load)] for m, load in cases]
        mean = [float(x["mean"].iloc[0]) if len(x) else np.nan for x in g]
        lo = [float(x["mean"].iloc[0] - x["ci_low"].iloc[0]) if len(x) else 0 for x in g]
        hi = [float(x["ci_high"].iloc[0] - x["mean"].iloc[0]) if len(x) else 0 for x in g]
        ax.bar(np.arange(len(cases)) + (i - (len(ALGS) - 1) / 2) * width, mean, width, yerr=[lo, hi],
               capsize=2, color=style.PALETTE[alg], label=style.label(alg, None))


def cross_traffic(tables: pd.DataFrame):
    """tb_cross_traffic: TCP throughput and ping RTT per algorithm under Poisson and on-off cross traffic."""
    import matplotlib.pyplot as plt

    ct = tables[tables["study"] == CROSS]
    cases = [(m, load) for m in ("poisson", "onoff") for load in sorted(ct["cross_mbps"].unique())]
    fig, axes = plt.subplots(1, 2, figsize=(11, 3.6))
    for ax, (metric, ylabel) in zip(axes, CROSS_METRICS):
        _cross_bars(ax, ct, metric, cases)
        ax.set_xticks(range(len(cases)), [f"{m}\n{load:g} Mbit/s" for m, load in cases])
        ax.set_xlabel("UDP-like cross traffic (mean load)")
        ax.set_ylabel(ylabel)
    axes[0].legend(ncol=2)
    fig.tight_layout()
    return fig


def cross_traffic_section(ch, tables) -> None:
    """The cross-traffic figure, or a note that tb_cross_traffic did not run."""
    chapter_tables.figure_if_ran(
        ch, tables, CROSS, cross_traffic, "cross_traffic",
        "Figure: throughput of the measured TCP flow and ping RTT with Poisson or on-off UDP-like cross traffic at 10 "
        "and 25 Mbit/s mean load on the ETH-WiFi path; mean over 10 seeds with 95% CI. Not a figure of the paper. "
        "Made from `config/studies/tb_cross_traffic.yaml`.")


def quoted_numbers(scorecard, notes, claims_file) -> pd.DataFrame:
    """The scorecard's rows of the numbers the paper quotes (items like 'RTT wifi_wifi bbr (tb-3)',
    paper values in claims_testbed.QUOTED) with their notes: every testbed row that is not a claim."""
    card = pd.read_csv(scorecard) if not isinstance(scorecard, pd.DataFrame) else scorecard
    note = pd.read_csv(notes) if not isinstance(notes, pd.DataFrame) else notes
    claims = claims_view.claim_texts(claims_file, "testbed")
    rows = card[(card["paper"] == "testbed") & ~card["item"].isin(claims)]
    rows = rows.drop(columns=["note"], errors="ignore")       # empty for a quoted number: the notes file has it
    rows = rows.merge(note, on=["item", "variant", "verdict"], how="left")
    return rows[[c for c in QUOTED_COLUMNS if c in rows.columns]].reset_index(drop=True)
