"""Figures and tables of the Mininet chapter (notebooks/mininet.ipynb): throughput and cwnd over time
(the paper's Figures 1 and 2) and the per-algorithm summary over seeds, with the poster's own numbers
(reference/mininet/poster_numbers.csv) beside ours as paper_marks draws them."""
from __future__ import annotations

from pathlib import Path

import pandas as pd

from simulator.report import paper_marks as pm
from simulator.report import claim_words, style
from simulator.report import number_format
from simulator.report.papers.qtcol.figures import one_point_each, points
from simulator.report.cells import num

STUDY = "mn_high_latency"
NUMBERS = "poster_numbers.csv"   # in the chapter's reference folder
CHANGES = {"static": "static 10 Mbit/s", "fluctuating": "fluctuating capacity"}
GOODPUT_CEILING_MBPS = 10 * 1448 / 1502  # payload share of a 10 Mbit/s link
SUMMARY_METRICS = {"goodput_warm_mbps": "goodput after the warm-up (Mbit/s)", "median_rtt_ms": "median RTT (ms)",
                   "plr": "retransmitted / sent (%)", "median_inflight": "median data in flight (packets)"}
SETTLED = "settled_throughput"   # the poster's one result: CUBIC's throughput once it has settled


def load_numbers(reference_dir) -> pd.DataFrame:
    """The poster's numbers (reference/mininet/poster_numbers.csv); empty when the folder has none."""
    path = Path(reference_dir) / NUMBERS
    return pd.read_csv(path) if path.is_file() else pd.DataFrame(columns=["kind", "algorithm", "metric", "value"])


def poster_value(numbers, algorithm, metric=SETTLED):
    r = numbers[(numbers["kind"] == "result") & (numbers["algorithm"] == algorithm) & (numbers["metric"] == metric)]
    return float(r["value"].iloc[0]) if len(r) else None


def runs(traces, change) -> list:
    """[(algorithm, None, trace)] of one path condition: one grid point each, its first seed, in book order."""
    return one_point_each(points(traces, STUDY, change=change), f"{STUDY} {change}")


def changes(traces) -> list:
    """The path conditions the traces hold, static first."""
    have = set(traces["change"]) if traces is not None and "change" in traces else set()
    return [c for c in CHANGES if c in have] + sorted(have - set(CHANGES))


def throughput_cwnd(traces: pd.DataFrame, numbers: pd.DataFrame | None = None):
    """2 x n grid: throughput (1 s means) and cwnd over time, one column per path condition (static
    first); the first seed of each algorithm; the poster's settled CUBIC throughput as a grey level."""
    import matplotlib.pyplot as plt

    cols = changes(traces)
    fig, axes = plt.subplots(2, len(cols), figsize=(11, 6.8), sharex=True, squeeze=False)
    for col, change in enumerate(cols):
        rr = runs(traces, change)
        for alg, _, g in rr:
            smooth = g["throughput_mbps_0"].rolling(10, min_periods=1).mean()     # 1 s windows
            axes[0, col].plot(g["t"], smooth, color=style.PALETTE[alg], lw=1.2, label=style.label(alg, None))
            axes[1, col].plot(g["t"], g["cwnd_0"], color=style.PALETTE[alg], lw=1.0, label=style.label(alg, None))
        axes[0, col].axhline(GOODPUT_CEILING_MBPS, color="black", lw=0.7, ls=":", label="link goodput ceiling")
        settled = None if numbers is None else poster_value(numbers, "cubic")
        if settled is not None and rr:
            t1 = max(float(g["t"].max()) for *_, g in rr)
            pm.level(axes[0, col], settled, 0, t1, f"CUBIC settles at {settled:g} Mbit/s", pm.marker("cubic"))
        axes[0, col].set_title(CHANGES.get(change, change), fontsize=10)
        axes[0, col].set_ylabel("throughput (Mbit/s, 1 s mean)")
        axes[1, col].set_ylabel("cwnd (packets)")
        axes[1, col].set_xlabel("time (s)")
    h, l = axes[0, 0].get_legend_handles_labels()
    fig.legend(h, l, fontsize=9, ncol=3, loc="upper center", bbox_to_anchor=(0.5, 0.0))
    fig.tight_layout()
    return fig


def figure_data(traces) -> pd.DataFrame:
    """What throughput_cwnd draws: per condition and algorithm, the first seed's time, 1 s mean
    throughput and cwnd."""
    frames = []
    for change in changes(traces):
        for alg, _, g in runs(traces, change):
            frames.append(pd.DataFrame({"change": change, "algorithm": alg, "seed": g["seed"], "t": g["t"],
                                        "throughput_mbps_1s": g["throughput_mbps_0"].rolling(10, min_periods=1).mean(),
                                        "cwnd": g["cwnd_0"]}))
    return pd.concat(frames, ignore_index=True).round(4) if frames else pd.DataFrame()


def caption(traces, source) -> str:
    algs = ", ".join(style.label(a, None) for a in style.order(set(traces["algorithm"])))
    duration = num(traces["duration"].max() if "duration" in traces else traces["t"].max(), 3)
    return ("Figure: throughput (1 s means of 0.1 s samples) and congestion window over the "
            f"{duration} s run, first seed, one flow per algorithm ({algs}); left the static 10 Mbit/s path, right "
            "the fluctuating capacity; grey hollow markers on a dotted line: the poster's CUBIC, which \"eventually "
            "stabilizes at ... 10.5 Mbps\" (the poster does not say on which path; above the link's goodput "
            f"ceiling). Reproduces the paper's Figures 1 (throughput) and 2 (cwnd). {source}")


def summary(tables: pd.DataFrame, numbers: pd.DataFrame | None = None) -> pd.DataFrame:
    """One row per (change, algorithm) with every summary metric's mean and 95% CI, and the poster's
    settled throughput beside our goodput (CUBIC only: the poster gives no other number)."""
    d = tables[(tables["study"] == STUDY) & tables["metric"].isin(SUMMARY_METRICS)]
    rows = []
    for (change, alg), g in d.groupby(["change", "algorithm"]):
        row = {"change": change, "algorithm": alg, "n_seeds": int(g["n"].max())}
        for m in SUMMARY_METRICS:
            r = g[g["metric"] == m]
            row.update({f"{m}_{c}": (r[c].iloc[0] if len(r) else float("nan")) for c in ("mean", "ci_low", "ci_high")})
        row["paper_settled_throughput_mbps"] = None if numbers is None else poster_value(numbers, alg)
        rows.append(row)
    out = pd.DataFrame(rows)
    if out.empty:
        return out
    order = {c: i for i, c in enumerate(CHANGES)}
    rank = {a: i for i, a in enumerate(style.ALGORITHMS)}
    return out.sort_values(["change", "algorithm"], key=lambda s: s.map(order if s.name == "change" else rank)) \
        .reset_index(drop=True)


def mean_ci(mean, lo, hi) -> str:
    """'mean [lo, hi]' ('deterministic' for a zero-width CI); every metric here is non-negative, so an
    interval end below 0 (few seeds) shows as 0."""
    return number_format.mean_ci_html(mean, lo, hi)


def summary_shown(s: pd.DataFrame) -> pd.DataFrame:
    cols = {"path": [CHANGES.get(c, c) for c in s["change"]],
            "algorithm": [style.label(a, None) for a in s["algorithm"]]}
    for m, title in SUMMARY_METRICS.items():
        k = claim_words.scale(m)            # a share of 1 in %, the unit declared for the metric
        cols[f"{title}: mean [95% CI]"] = [mean_ci(*(k * x for x in v)) for v in
                                           zip(s[f"{m}_mean"], s[f"{m}_ci_low"], s[f"{m}_ci_high"])]
        if m == "goodput_warm_mbps":
            cols["paper: settled throughput (Mbit/s)"] = [num(v) for v in s["paper_settled_throughput_mbps"]]
    return pd.DataFrame(cols)


def n_seeds(tables: pd.DataFrame) -> int:
    return int(tables.loc[tables["study"] == STUDY, "n"].max())
