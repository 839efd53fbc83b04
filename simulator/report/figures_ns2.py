"""Figures and tables of the NS-2 chapter (notebooks/ns2.ipynb): per scenario (topology, flows,
bandwidth, delay, queue) the time series of the paper's Figures 2-9 for the first seed, the same
metrics over all seeds against the swept parameter, and a summary table; where packets are dropped;
the verdict counts of the claims. Every scenario is drawn for NS-2's default window_ 20 and no cap.

Scenarios 1 and 3-5 also sweep the number of flows (the paper gives no count; claims_ns2 decides their
claims at each count). Their figures never mix counts: they draw the 3-flow points (FIGURE_FLOWS, the
count these figures showed before the sweep; for display only, no claim singles it out), the caption
says so, and the summary table lists every count."""
from __future__ import annotations

import numpy as np
import pandas as pd

from simulator.report import chapter_tables, claims_ns2, style

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
PLOT_METRICS = {"cwnd_mean": "cwnd (packets)", "throughput_mbps": "throughput (Mbit/s)",
                "latency_mean_s": "mean latency (s)", "loss_pct": "loss (%)"}
SUMMARY_METRICS = {"cwnd_mean": "cwnd (packets)", "cwnd_cv": "cwnd CV", "throughput_mbps": "throughput, all flows (Mbit/s)",
                   "throughput_per_flow_mbps": "throughput per flow (Mbit/s)", "latency_mean_s": "mean latency (s)",
                   "latency_max_s": "max latency (s)", "loss_pct": "loss (%)", "timeouts": "timeouts (per run)"}
TIMESERIES_ROWS = ["cwnd, flow 0 (packets)", "throughput, all flows\n(Mbit/s, 2 s mean)",
                   "one-way latency (s)", "loss (%, 5 s mean)"]
TS_CAPTION = ("first seed of each point; cwnd is flow 0's window in use "
              "(at most window_ when capped), throughput the sum over flows (2 s means of 0.5 s samples), "
              "latency the mean one-way delay of the data packets delivered in each 0.5 s, loss the drops of an "
              "interval over the packets sent in it, averaged over flows and over 5 s (it can exceed 100% when "
              "packets sent earlier are dropped in a burst).")
SUMMARY_CAPTION = ("time-averaged cwnd (after 10 s), throughput of all flows, mean one-way latency (after 10 s) and "
                   "loss (dropped / sent), mean over 10 seeds with 95% CI; top NS-2's default window_ 20, bottom no "
                   "cap.")


def values_of(tables: pd.DataFrame, study: str) -> list:
    """The swept values of `study`, categories in CATEGORIES order, numbers ascending."""
    vals = tables[tables["study"] == study][claims_ns2.SWEEPS[study]].dropna().unique().tolist()
    return sorted(vals, key=lambda v: CATEGORIES.index(v) if v in CATEGORIES else float(v))


def flow_counts(tables: pd.DataFrame, study: str) -> list[int]:
    """The flow counts `study` ran besides its swept parameter (empty for ns2_flows, whose parameter
    is the count, and for tables without a flows column)."""
    if claims_ns2.SWEEPS[study] == "flows" or "flows" not in tables:
        return []
    return sorted({int(x) for x in tables.loc[tables["study"] == study, "flows"].dropna()})


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


def _first_seed_series(g: pd.DataFrame):
    """Throughput summed over flows (2 s means) and loss averaged over flows (5 s means)."""
    n = int(g["flows"].iloc[0])
    tput = g[[f"throughput_mbps_{i}" for i in range(n)]].sum(axis=1).rolling(4, min_periods=1).mean()
    loss = g[[f"loss_pct_{i}" for i in range(n)]].mean(axis=1).rolling(10, min_periods=1).mean()
    return tput, loss


def timeseries(tables: pd.DataFrame, traces: pd.DataFrame, study: str, window: int):
    """Rows cwnd / throughput / latency / loss over time, one column per value of the swept parameter;
    first seed of each point."""
    import matplotlib.pyplot as plt

    key, (lab, _) = claims_ns2.SWEEPS[study], SWEEP_LABELS[study]
    vals = values_of(tables, study)
    tr = at_figure_flows(traces[(traces["study"] == study) & (traces["window"] == window)], tables, study)
    fig, axes = plt.subplots(4, len(vals), figsize=(2.7 * len(vals) + 1.0, 8.6), sharex="col", squeeze=False)
    for col, v in enumerate(vals):
        for alg in ALGS:
            g = tr[(tr["algorithm"] == alg) & (tr[key].astype(str) == str(v))]
            if g.empty:
                continue
            g = g[g["seed"] == g["seed"].min()].sort_values("t")
            tput, loss = _first_seed_series(g)
            kw = dict(color=style.PALETTE[alg], lw=1.0, label=style.label(alg, None))
            axes[0, col].plot(g["t"], g["cwnd_0"], **kw)
            axes[1, col].plot(g["t"], tput, **kw)
            lat = g[["t", "latency_s"]].dropna()       # no sample when nothing was delivered
            axes[2, col].plot(lat["t"], lat["latency_s"], **kw)
            axes[3, col].plot(g["t"], loss, **kw)
        axes[0, col].set_title(lab(v), fontsize=9)
        axes[3, col].set_xlabel("time (s)")
    for row, ylab in enumerate(TIMESERIES_ROWS):
        axes[row, 0].set_ylabel(ylab)
    axes[0, 0].legend(fontsize=7)
    fig.suptitle(WINDOWS[window], fontsize=10)
    fig.tight_layout()
    return fig


def _errorbars(ax, d, key, vals, categorical, j, alg):
    """One algorithm's means with 95% CI at the swept values; categories side by side."""
    g = d[d["algorithm"] == alg]
    g = g.set_index(g[key].astype(str)).reindex([str(v) for v in vals]).reset_index(drop=True)
    x = (np.arange(len(vals)) + 0.12 * (j - 1)) if categorical else np.array(vals, dtype=float)
    ax.errorbar(x, g["mean"], yerr=[g["mean"] - g["ci_low"], g["ci_high"] - g["mean"]],
                color=style.PALETTE[alg], marker="o", ms=3.5, lw=1.1, capsize=2.5, label=style.label(alg, None))


def _flat_ylim(ax):
    """(Nearly) identical values: a +-5% range, so they look identical instead of magnified noise."""
    lo, hi = ax.get_ylim()
    mid = (lo + hi) / 2
    if hi - lo < 0.02 * abs(mid):
        ax.set_ylim(mid - 0.05 * abs(mid), mid + 0.05 * abs(mid))


def summary_plot(tables: pd.DataFrame, study: str, metrics=None, logx=None):
    """Each metric against the swept parameter, mean with 95% CI over seeds; one row per window."""
    import matplotlib.pyplot as plt

    metrics = PLOT_METRICS if metrics is None else metrics
    logx = study in LOG_X if logx is None else logx
    key, (lab, xlabel) = claims_ns2.SWEEPS[study], SWEEP_LABELS[study]
    vals = values_of(tables, study)
    categorical = not all(isinstance(v, (int, float, np.integer, np.floating)) for v in vals) or key == "flows"
    d = at_figure_flows(tables[(tables["study"] == study)], tables, study)
    fig, axes = plt.subplots(2, len(metrics), figsize=(2.9 * len(metrics), 5.6), squeeze=False, sharex=True)
    for row, window in enumerate(WINDOWS):
        for col, (metric, ylab) in enumerate(metrics.items()):
            ax = axes[row, col]
            dm = d[(d["window"] == window) & (d["metric"] == metric)]
            for j, alg in enumerate(ALGS):
                _errorbars(ax, dm, key, vals, categorical, j, alg)
            if categorical:
                ax.set_xticks(range(len(vals)), [lab(v) for v in vals], fontsize=8)
            elif logx:
                ax.set_xscale("log")
            ax.set_ylabel(ylab)
            ax.ticklabel_format(axis="y", useOffset=False, style="plain")
            _flat_ylim(ax)
            if row == 1:
                ax.set_xlabel(xlabel)
            if col == 0:
                ax.set_title(WINDOWS[window], fontsize=9, loc="left")
    axes[0, 0].legend(fontsize=7)
    fig.tight_layout()
    return fig


def _summary_rows(tables: pd.DataFrame, study: str) -> pd.DataFrame:
    return tables[(tables["study"] == study) & tables["metric"].isin(SUMMARY_METRICS)]


def summary_table(tables: pd.DataFrame, study: str) -> pd.DataFrame:
    """One row per (window, swept value, flow count where the study sweeps it too, algorithm), one
    column per metric: 'mean [CI]'; window 20 first."""
    flows = ["flows"] if len(flow_counts(tables, study)) > 1 else []
    index = ["window", claims_ns2.SWEEPS[study], *flows, "algorithm"]
    wide = chapter_tables.metric_columns(_summary_rows(tables, study), index, SUMMARY_METRICS)
    return wide.sort_index(level=list(range(len(index) - 1)), ascending=[False] + [True] * (len(index) - 2))


def n_seeds(tables: pd.DataFrame, study: str) -> int:
    return int(_summary_rows(tables, study)["n"].max())


def drops(tables: pd.DataFrame) -> pd.DataFrame:
    """Per study and window: grid points, points where some run dropped a packet, largest mean loss."""
    lp = tables[tables["metric"] == "loss_pct"]
    out = (lp.groupby(["study", "window"])
           .agg(points=("mean", "size"), points_with_drops=("run_max", lambda s: int((s > 0).sum())),
                max_mean_loss_pct=("mean", "max"))
           .reset_index().sort_values(["window", "study"], ascending=[False, True]))
    out["window"] = out["window"].map({20: "20 (NS-2 default)", 0: "0 (no cap)"})
    return out


def verdict_counts(claims: pd.DataFrame) -> pd.DataFrame:
    """How many claim rows got each verdict, per window setting (window20, nocap); a claim decided at
    several flow counts (ns2-1..ns2-6: "window20, 3 flows") counts once per count."""
    window = claims["variant"].str.split(",").str[0].rename("variant")
    return claims.groupby([window, "verdict"]).size().unstack(fill_value=0)


def _source(study: str) -> str:
    return f"Made from `config/studies/{study}.yaml`."


def timeseries_section(ch, tables, traces, study: str) -> None:
    """The first-seed time series of `study` for both windows with captions, or a note that it did
    not run (said here once; summary_section then stays silent)."""
    if not chapter_tables.ran(tables, study):
        ch.markdown(chapter_tables.not_run(study))
        return
    short, fc = study.removeprefix("ns2_"), flows_caption(tables, study)
    for window in WINDOWS:
        ch.figure(timeseries(tables, traces, study, window), f"{short}_timeseries_w{window}")
        ch.caption(f"Figure: cwnd, throughput, latency and packet loss over the 130 s run per algorithm, "
                   f"{WINDOWS[window]}{', ' + fc if fc else ''}; {TS_CAPTION} Reproduces {PAPER_FIGURES[study]} "
                   f"of the paper. {_source(study)}")


def summary_section(ch, tables, study: str) -> None:
    """The metrics of `study` over all seeds against its swept parameter, and its summary table."""
    if not chapter_tables.ran(tables, study):
        return
    short = study.removeprefix("ns2_")
    ch.figure(summary_plot(tables, study), f"{short}_summary")
    fc = flows_caption(tables, study)
    ch.caption(f"Figure: {SUMMARY_CAPTION}{' Drawn at ' + fc + '.' if fc else ''} Summarises "
               f"{PAPER_FIGURES[study]} of the paper over all seeds. {_source(study)}")
    ch.table(summary_table(tables, study), f"{study}_summary.csv", index=True,
             note=f"Mean over {n_seeds(tables, study)} seeds with 95% CI; window 20 is NS-2's default cap, 0 no "
                  f"cap{'; every flow count the study ran' if len(flow_counts(tables, study)) > 1 else ''}. {{link}}. "
                  f"{_source(study)}")
