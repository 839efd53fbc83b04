"""Figures and tables of the Mininet chapter (notebooks/mininet.ipynb): throughput and cwnd over time
(the paper's Figures 1 and 2) and the per-algorithm summary over seeds."""
from __future__ import annotations

import pandas as pd

from simulator.report import style

STUDY = "mn_high_latency"
ALGS = ["bbr", "reno", "vegas", "cubic"]
CHANGES = {"static": "static 10 Mbit/s", "fluctuating": "fluctuating capacity"}
GOODPUT_CEILING_MBPS = 10 * 1448 / 1502  # payload share of a 10 Mbit/s link
SUMMARY_METRICS = {"goodput_warm_mbps": "goodput after 10 s (Mbit/s)", "median_rtt_ms": "median RTT (ms)",
                   "plr": "retransmitted / sent", "median_inflight": "median in flight (packets)"}


def throughput_cwnd(traces: pd.DataFrame):
    """2x2 grid: throughput (1 s means) and cwnd over time, static path left, fluctuating right;
    the first seed of each algorithm."""
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(2, 2, figsize=(11, 6.4), sharex=True)
    for col, (change, label) in enumerate(CHANGES.items()):
        for alg in ALGS:
            g = traces[(traces["algorithm"] == alg) & (traces["change"] == change)
                       & (traces["seed"] == traces["seed"].min())].sort_values("t")
            if g.empty:
                continue
            smooth = g["throughput_mbps_0"].rolling(10, min_periods=1).mean()     # 1 s windows
            axes[0, col].plot(g["t"], smooth, color=style.PALETTE[alg], lw=1.2, label=style.label(alg, None))
            axes[1, col].plot(g["t"], g["cwnd_0"], color=style.PALETTE[alg], lw=1.0, label=style.label(alg, None))
        axes[0, col].axhline(GOODPUT_CEILING_MBPS, color="black", lw=0.7, ls=":", label="link goodput ceiling")
        axes[0, col].set_title(label, fontsize=9)
        axes[0, col].set_ylabel("throughput (Mbit/s, 1 s mean)")
        axes[1, col].set_ylabel("cwnd (packets)")
        axes[1, col].set_xlabel("time (s)")
    axes[0, 0].legend(fontsize=7)
    fig.tight_layout()
    return fig


def summary(tables: pd.DataFrame) -> pd.DataFrame:
    """One row per (change, algorithm), one column per metric: 'mean [CI low, CI high]'."""
    d = tables[(tables["study"] == STUDY) & tables["metric"].isin(SUMMARY_METRICS)].copy()
    d["cell"] = [f"{m:.4g} [{lo:.4g}, {hi:.4g}]" for m, lo, hi in zip(d["mean"], d["ci_low"], d["ci_high"])]
    wide = d.pivot_table(index=["change", "algorithm"], columns="metric", values="cell", aggfunc="first")
    return wide[[m for m in SUMMARY_METRICS if m in wide.columns]].rename(columns=SUMMARY_METRICS)


def n_seeds(tables: pd.DataFrame) -> int:
    return int(tables.loc[tables["study"] == STUDY, "n"].max())
