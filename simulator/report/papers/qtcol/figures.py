"""Figures of the QtColFair chapter (notebooks/qtcol.ipynb): the first seed's time series of one and
five flows (the paper's Figures 7-23) and the buffer sweep (Figures 24-28).

Figure functions take the chapter's frames and return a matplotlib figure (None when the study did
not run); the `show_*` functions put a section's figures, captions and the CSV of the data behind
each figure into the chapter. Shaded green bands are what the paper calls acceptable: 1-2 BDP of data
in flight, 1-2 baseRTT; the paper's own values are drawn as paper_marks draws them (grey hollow
markers, grey hatched bands), from reference/qtcol/qtcolfair_results.csv.
"""
from __future__ import annotations

import re
from collections import namedtuple

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from simulator import study_files
from simulator.report import paper_marks as pm
from simulator.report import style
from simulator.report.papers.qtcol.scorecard import BASE_RTT_MS, BDP_PKTS

WARMUP_S = 10          # the time series' warm-up (the studies' `warmup`), left out of distributions
ACCEPTABLE = "#2ca02c"  # colour of the paper's acceptable band
MULTI = "qt_multiflow"
SWEEP = "qt_buffer_sweep"
DEVQ = "qt_buffer_sweep_devq"


def study_file(study) -> str:
    return study_files.repo_path(study)


def skipped(ch, study) -> None:
    ch.caption(f"Study `{study}` is not enabled in this run (see `config/config.yaml`); figure skipped.")


def show(ch, fig, name, caption, data=None) -> None:
    """The figure, its caption and, when `data` is given, the data behind it as <name>.csv linked
    at the caption's end."""
    ch.figure(fig, name)
    if data is not None:
        ch.save_download(data, f"{name}.csv")
        caption = f"{caption} {ch.download_link(f'{name}.csv', 'Data (CSV)')}."
    ch.caption(caption)


def paper_value(reference, scenario, algorithm, metric, alpha=None, **params):
    """The paper's number in one row of qtcolfair_results.csv (alpha None: CUBIC and BBR), or None."""
    if reference is None:
        return None
    r = reference[(reference["scenario"] == scenario) & (reference["algorithm"] == algorithm)
                  & (reference["metric"] == metric)]
    a = pd.to_numeric(r["alpha"], errors="coerce")
    r = r[a.isna() if alpha is None or alpha != alpha else np.isclose(a, float(alpha))]
    for k, v in params.items():
        r = r[np.isclose(r[k], v)]
    return float(r["value"].iloc[0]) if len(r) else None


# --------------------------------------------------------------------------- time series helpers

def bdp_pkts(tables) -> float:
    """The BDP (packets) the runs report in their tables, else the scenario's 345.6."""
    if len(tables) and (tables["metric"] == "bdp_pkts").any():
        return float(tables.loc[tables["metric"] == "bdp_pkts", "mean"].iloc[0])
    return BDP_PKTS


FIVE_FLOWS = dict(flows=5, duration=400)  # the grid points of the five-flow figures (18-23): the authors' 400 s runs
BOOKKEEPING = {"study", "paper", "point", "seed", "t"}
SERIES = re.compile(r"^(queue|jain)$|_\d+$")  # queue, jain, cwnd_0, inflight_0, srtt_ms_0, throughput_mbps_0, ...


def parameter_columns(d) -> list:
    """The columns of a trace table that hold its grid point's parameters (not bookkeeping, not series)."""
    return [c for c in d.columns if c not in BOOKKEEPING and not SERIES.search(c)]


def point_of(g) -> str:
    """The grid point a trace belongs to: its `point` path, else its parameters."""
    if "point" in g and g["point"].notna().all():
        return str(g["point"].iloc[0])
    return "/".join(f"{c}~{g[c].iloc[0]}" for c in parameter_columns(g))


def points(traces, study, **where) -> list:
    """[(algorithm, alpha or None, trace)], one per grid point of `study` whose parameters equal `where`
    (e.g. flows=5, duration=400), each the first seed's trace in time order; in the book's order."""
    if traces is None:
        return []
    d = traces[traces["study"] == study]
    for col, value in where.items():
        d = d[d[col] == value]
    by_point = "point" in d and d["point"].notna().all()
    keys = ["point"] if by_point else parameter_columns(d)
    out = []
    for _, g in d.groupby(keys, dropna=False, sort=False):
        g = g[g["seed"] == g["seed"].min()].sort_values("t") if "seed" in g else g.sort_values("t")
        alpha = g["alpha"].iloc[0] if "alpha" in g else None
        out.append((g["algorithm"].iloc[0], None if pd.isna(alpha) else float(alpha), g))
    rank = {a: i for i, a in enumerate(style.ALGORITHMS)}
    return sorted(out, key=lambda r: (rank.get(r[0], 99), r[1] or 0))


def one_point_each(rr, what="figure") -> list:
    """`rr` unchanged if every trace is one grid point's one seed and no two share a label; else ValueError
    (a figure must never draw two grid points, or seeds, under one label)."""
    seen = {}
    for alg, alpha, g in rr:
        lab = style.label(alg, alpha)
        if "seed" in g and g["seed"].nunique() > 1:
            raise ValueError(f"{what}: the {lab} trace mixes seeds {sorted(g['seed'].unique())}")
        if "point" in g and g["point"].nunique(dropna=False) > 1:
            raise ValueError(f"{what}: the {lab} trace mixes grid points {sorted(g['point'].unique())}")
        if lab in seen:
            raise ValueError(f"{what}: grid points {seen[lab]} and {point_of(g)} would both be drawn as {lab}; "
                             "select one of them (e.g. by flows and duration)")
        seen[lab] = point_of(g)
    return rr


def runs(traces, study, **where) -> list:
    """The traces a figure draws: `points(traces, study, **where)`, one grid point per (algorithm, alpha)
    (ValueError if the selection leaves several)."""
    return one_point_each(points(traces, study, **where), study)


def five_flow_runs(traces) -> list:
    """The five-flow, 400 s grid points of the multi-flow study (not its 2-4 flow, 100 s points)."""
    return runs(traces, MULTI, **FIVE_FLOWS)


def flow_columns(g, prefix) -> list:
    return [c for c in g.columns if c.startswith(prefix) and g[c].notna().any()]


def trace_data(rr, columns) -> pd.DataFrame:
    """The time series a figure draws, one block of rows per run: its point, algorithm, alpha, seed,
    time and `columns` (prefixes such as 'throughput_mbps_' take every flow's column)."""
    frames = []
    for _, _, g in rr:
        cols = [c for c in g.columns for p in columns if c == p or (p.endswith("_") and c.startswith(p))]
        head = [c for c in ("point", "algorithm", "alpha", "seed", "t") if c in g]
        frames.append(g[head + list(dict.fromkeys(c for c in cols if g[c].notna().any()))])
    return pd.concat(frames, ignore_index=True).round(4) if frames else pd.DataFrame()  # 0.1 s samples: 4 decimals


def rtt_series(g, i=0):
    r = g[f"srtt_ms_{i}"]
    return r.where(r > 0)  # negative: no RTT sample yet


def inflight_total(g):
    return g[flow_columns(g, "inflight_")].sum(axis=1, min_count=1)


def pooled_rtt(g):
    """The RTT samples of every flow of a trace, one series."""
    return pd.concat([rtt_series(g, i) for i in range(int(g["flows"].iloc[0]))], ignore_index=True)


def bands(ax, kind, bdp, alphas=()) -> None:
    """Shade the paper's acceptable band (1-2 BDP or 1-2 baseRTT) and mark alpha x BDP / baseRTT."""
    base = bdp if kind == "inflight" else BASE_RTT_MS
    ax.axhspan(base, 2 * base, color=ACCEPTABLE, alpha=0.07, lw=0)
    ax.axhline(base, color="grey", lw=0.8, ls="-")
    ax.axhline(2 * base, color="grey", lw=0.8, ls="-")
    for a in alphas:
        ax.axhline(a * base, color="grey", lw=0.8, ls=style.alpha_style(a))


def band_handles(kind) -> list:
    name = "BDP" if kind == "inflight" else "baseRTT"
    return [plt.Rectangle((0, 0), 1, 1, color=ACCEPTABLE, alpha=0.15, label=f"1-2 × {name} (acceptable)")]


# --------------------------------------------------------------------------- one flow (Figures 7-14)

# paper: what the paper's text states for the group (qtcolfair_results.csv): the ranges its in-flight
# data and RTT swing over, or the steady levels they settle at; None: nothing beyond the box plots' medians
Group = namedtuple("Group", "title algorithms fig_inflight fig_rtt alphas paper")
SINGLE_GROUPS = [Group("CUBIC and BBR", ("cubic", "bbr"), "7", "8", (), "range"),
                 Group("QtCol", ("qtcol",), "9", "10", (1.2, 1.5), "steady"),
                 Group("QtColFair", ("qtcolfair",), "11", "12", (1.2, 1.5), None)]
KINDS = (("inflight", "packets"), ("rtt", "ms"))


def in_group(group, alg) -> bool:
    """Whether `alg`'s single-flow runs are drawn in `group`'s figure: its own algorithms, and in the
    first (the loss- and rate-based baselines) any algorithm no group names (a user's)."""
    return alg in group.algorithms or (group is SINGLE_GROUPS[0]
                                       and not any(alg in g.algorithms for g in SINGLE_GROUPS))   # the two panels: metric stem of the reference rows, unit


def paper_ranges(ax, reference, scenario, kind, unit, algorithms) -> None:
    """The ranges the paper states for `kind` (inflight or rtt) of each algorithm, as hatched bands."""
    for alg, hatch in zip(algorithms, pm.HATCHES):
        lo, hi = (paper_value(reference, scenario, alg, f"{kind}_{end}") for end in ("low", "high"))
        if lo is not None and hi is not None:
            pm.band(ax, lo, hi, f"{style.LABELS[alg]} {lo:g}-{hi:g} {unit}", hatch)


def paper_levels(ax, reference, scenario, kind, unit, sel, t0, t1) -> None:
    """The steady levels the paper states for `kind` of each (algorithm, alpha) drawn, along the time axis."""
    for k, (alg, alpha, _) in enumerate(sel):
        v = paper_value(reference, scenario, alg, f"{kind}_steady", alpha)
        if v is not None:
            pm.level(ax, v, t0, t1, f"{style.label(alg, alpha)} ≈ {v:g} {unit}", pm.marker(alg), shift=k / len(sel))


def single_flow(ss, group, bdp, reference=None):
    """In-flight data with cwnd (left) and RTT (right) of one group's single-flow runs, with what the
    paper states for them; None if none ran."""
    sel = one_point_each([r for r in ss if in_group(group, r[0])], "single flow")
    if not sel:
        return None
    fig, axes = plt.subplots(1, 2, figsize=(12, 4.2))
    for alg, alpha, g in sel:
        kw = dict(color=style.colour(alg, alpha), ls=style.alpha_style(alpha), lw=1.2)
        axes[0].plot(g["t"], g["inflight_0"], label=style.label(alg, alpha), **kw)
        axes[0].plot(g["t"], g["cwnd_0"], color=style.colour(alg, alpha), ls=style.alpha_style(alpha), lw=0.6, alpha=0.45)
        axes[1].plot(g["t"], rtt_series(g), label=style.label(alg, alpha), **kw)
    t0, t1 = min(float(g["t"].min()) for *_, g in sel), max(float(g["t"].max()) for *_, g in sel)
    for ax, (kind, unit) in zip(axes, KINDS):
        bands(ax, kind, bdp, group.alphas)
        if group.paper == "range":
            paper_ranges(ax, reference, "single_static", kind, unit, [a for a in group.algorithms
                                                                       if a in {r[0] for r in sel}])
        elif group.paper == "steady":
            paper_levels(ax, reference, "single_static", kind, unit, sel, t0, t1)
    axes[0].set_ylabel("packets")
    axes[1].set_ylabel("smoothed RTT (ms)")
    for ax in axes:
        ax.set_xlabel("time (s)")
    for ax, (kind, _), ours, base in zip(axes, KINDS, (lambda g: g["inflight_0"], rtt_series), (bdp, BASE_RTT_MS)):
        paper = [v for a, al, _ in sel for end in ("high", "steady")
                 if (v := paper_value(reference, "single_static", a, f"{kind}_{end}", al)) is not None]
        top = max([float(np.nanmax(ours(g))) for _, _, g in sel] + paper)   # ours and the paper's both in view
        ax.set_ylim(0, max(2.3 * base, 1.1 * top))
    h0, l0 = axes[0].get_legend_handles_labels()
    thin = plt.Line2D([], [], color="grey", lw=0.6, alpha=0.6)
    axes[0].legend(h0 + [thin] + band_handles("inflight"), l0 + ["thin: cwnd", "1-2 × BDP (acceptable)"],
                   fontsize=9, ncol=2, loc="upper center", bbox_to_anchor=(0.5, -0.2))
    h1, l1 = axes[1].get_legend_handles_labels()
    axes[1].legend(h1 + band_handles("rtt"), l1 + ["1-2 × baseRTT (acceptable)"], fontsize=9, ncol=2,
                   loc="upper center", bbox_to_anchor=(0.5, -0.2))
    axes[0].set_title(f"{group.title}: data in flight and cwnd", fontsize=10)
    axes[1].set_title(f"{group.title}: RTT", fontsize=10)
    fig.tight_layout()
    return fig


PAPER_TEXT = {"range": "grey hatched bands: the ranges the paper's text states for them",
              "steady": "grey hollow markers on a dotted line: the levels the paper's text states for them"}


def names(rr) -> str:
    """'Cubic, BBR and QtCol α=1.2': the labels of the runs a figure draws."""
    labels = [style.label(a, al) for a, al, *_ in rr]
    return " and ".join([", ".join(labels[:-1]), labels[-1]] if len(labels) > 1 else labels)


def single_flow_caption(group, sel) -> str:
    ref = (" Grey lines: 1 × and 2 × BDP / baseRTT (solid) and α × BDP / baseRTT for α = "
           + ", ".join(f"{a:g}" for a in group.alphas) + " (line style of that α).") if group.alphas else ""
    paper = f"; {PAPER_TEXT[group.paper]}" if group.paper else ""
    return (f"Figure: one flow, 5 BDP buffer, {names(sel)}: data in flight (thick) and cwnd (thin), packets, and "
            f"smoothed RTT, ms, over time (first seed, 0.1 s samples). "
            f"Reproduces the paper's Figures {group.fig_inflight} (in-flight) and {group.fig_rtt} (RTT); green band: "
            f"the paper's acceptable 1-2 BDP / 1-2 baseRTT{paper}.{ref} Made from `{study_file('qt_single_static')}`.")


def show_single_flow(ch, ss, bdp, reference=None) -> None:
    """Figures 7-12, one per group of algorithms that ran."""
    if not ss:
        skipped(ch, "qt_single_static")
    for group in SINGLE_GROUPS if ss else []:
        fig = single_flow(ss, group, bdp, reference)
        if fig is not None:
            sel = [r for r in ss if in_group(group, r[0])]
            show(ch, fig, f"single_{group.title.split()[0].lower()}", single_flow_caption(group, sel),
                 trace_data(sel, ["inflight_0", "cwnd_0", "srtt_ms_0"]))


def boxplot(series, kind, ylabel, title, bdp, paper=None):
    """Box (quartiles, median) and whiskers (5th-95th percentiles) per (algorithm, alpha, samples); log y.
    `paper`: the paper's median per series (None where it gives none), as grey hollow markers."""
    fig, ax = plt.subplots(figsize=(11, 4.2))
    labels = [style.label(a, al) for a, al, _ in series]
    bp = ax.boxplot([s.dropna().to_numpy() for _, _, s in series], whis=(5, 95), showfliers=False, patch_artist=True,
                    medianprops=dict(color="black"))
    for patch, (a, _, _) in zip(bp["boxes"], series):
        patch.set_facecolor(style.PALETTE[a])
        patch.set_alpha(0.75)
    ax.set_xticks(range(1, len(labels) + 1), labels, rotation=20, ha="right")
    bands(ax, kind, bdp)
    extra = []
    if paper is not None and any(v is not None for v in paper):
        xs = [i + 1 for i, v in enumerate(paper) if v is not None]
        extra = [pm.points(ax, xs, [v for v in paper if v is not None], "median", marker="D")]
    ax.set_ylabel(ylabel)
    ax.set_xlabel("algorithm")
    ax.set_yscale("log")
    handles = [plt.Rectangle((0, 0), 1, 1, color=style.PALETTE[a], alpha=0.75, label=style.LABELS[a])
               for a in style.order({a for a, _, _ in series})]
    ax.legend(handles=handles + extra + band_handles(kind), fontsize=9, ncol=1, loc="upper left",
              bbox_to_anchor=(1.0, 1.0))
    ax.set_title(title, fontsize=10)
    fig.tight_layout()
    return fig


def box_data(series, paper=None) -> pd.DataFrame:
    """What a box plot draws: per series its 5th, 25th, 50th, 75th and 95th percentiles (and the
    paper's median where given)."""
    rows = []
    for i, (a, al, s) in enumerate(series):
        q = s.dropna().quantile([.05, .25, .5, .75, .95]).to_numpy()
        rows.append({"algorithm": a, "alpha": al, "samples": int(s.notna().sum()),
                     **dict(zip(["p05", "p25", "median", "p75", "p95"], q)),
                     "paper_median": None if paper is None else paper[i]})
    return pd.DataFrame(rows)


def warm(g):
    """The trace after its run's warm-up (the `warmup` parameter; WARMUP_S when the trace lacks it)."""
    w = float(g["warmup"].iloc[0]) if "warmup" in g and len(g) and pd.notna(g["warmup"].iloc[0]) else WARMUP_S
    return g[g["t"] >= w]


def show_single_boxes(ch, ss, bdp, reference=None) -> None:
    """Figures 13-14: in-flight and RTT distributions of the single-flow runs after warm-up, the
    paper's medians beside them."""
    src = f"Made from `{study_file('qt_single_static')}` (first seed's time series after the warm-up)."
    for name, kind, ref_metric, sample, ylabel, fig_no, band in (
            ("box_inflight", "inflight", "median_inflight", lambda g: warm(g)["inflight_0"], "data in flight (packets)",
             13, "1-2 BDP"),
            ("box_rtt", "rtt", "median_rtt", lambda g: rtt_series(warm(g)), "smoothed RTT (ms)", 14,
             "1-2 baseRTT (40-80 ms)")):
        series = [(a, al, sample(g)) for a, al, g in ss]
        paper = [paper_value(reference, "single_static", a, ref_metric, al) for a, al, _ in series]
        show(ch, boxplot(series, kind, ylabel, f"Single flow: {ylabel.split(' (')[0]} after warm-up", bdp, paper),
             name, f"Figure: {ylabel} per algorithm ({names(series)}), one flow, "
             "5 BDP buffer (box: quartiles and median; whiskers: 5th and 95th percentiles; log scale); grey hollow "
             "diamonds: the paper's medians (over the rows its trace logs at every cwnd change). Reproduces the "
             f"paper's Figure {fig_no}; green band: {band}. {src}", box_data(series, paper))


# --------------------------------------------------------------------------- path changes (Figures 15-17)

CHANGES = {  # study -> (figure name, [(time s, label)], title, the paper's figures, scenario of its RTT values)
    "qt_bandwidth_change": ("bandwidth_change", [(25, "25 Mbit/s"), (50, "500 Mbit/s")],
                            "bottleneck 100 → 25 → 500 Mbit/s", "Figure 15 (RTT; throughput and in-flight added)",
                            "bandwidth_change"),
    "qt_delay_change": ("delay_change", [(25, "40 ms"), (50, "20 ms")], "bottleneck delay 20 → 40 → 20 ms",
                        "Figures 16 (QtCol in-flight) and 17 (QtColFair in-flight); CUBIC, BBR, RTT and throughput "
                        "added", None),
}


def path_change(rr, events, bdp, reference=None, scenario=None):
    """Throughput, RTT and in-flight data of one flow over time, dotted lines at the changes; the RTT
    ranges and levels the paper states for `scenario` (if any) on the RTT panel."""
    fig, axes = plt.subplots(3, 1, figsize=(11, 8.8), sharex=True)
    sel = one_point_each(rr, "path change")
    for alg, alpha, g in sel:
        kw = dict(color=style.colour(alg, alpha), ls=style.alpha_style(alpha), lw=2.4 if alg == "qtcol" else 1.1,
                  label=style.label(alg, alpha))
        axes[0].plot(g["t"], g["throughput_mbps_0"].rolling(10, min_periods=1).mean(), **kw)
        axes[1].plot(g["t"], rtt_series(g), **kw)
        axes[2].plot(g["t"], g["inflight_0"], **kw)
    bands(axes[1], "rtt", bdp, (1.2,))
    if scenario:
        paper_ranges(axes[1], reference, scenario, "rtt", "ms", [a for a in ("cubic", "bbr") if a in {r[0] for r in sel}])
        t1 = max(float(g["t"].max()) for *_, g in sel)
        paper_levels(axes[1], reference, scenario, "rtt", "ms", [r for r in sel if r[0] in ("qtcol", "qtcolfair")],
                     0, t1)
    axes[1].set_yscale("log")
    axes[2].set_yscale("log")
    axes[0].set_ylabel("throughput (Mbit/s,\n1 s moving mean)")
    axes[1].set_ylabel("smoothed RTT (ms)")
    axes[2].set_ylabel("data in flight (packets)")
    axes[2].set_xlabel("time (s)")
    for ax in axes:
        for t, _ in events:
            ax.axvline(t, color="black", lw=0.7, ls=":")
    for t, lab in events:
        axes[0].annotate(lab, (t, 1), xycoords=("data", "axes fraction"), xytext=(3, -12), textcoords="offset points",
                         fontsize=9)
    h, l = axes[0].get_legend_handles_labels()
    axes[0].legend(h, l, ncol=4, fontsize=9, loc="upper left", bbox_to_anchor=(0, 1.3))
    h1, l1 = axes[1].get_legend_handles_labels()
    paper = [(hh, ll) for hh, ll in zip(h1, l1) if ll.startswith("paper")]
    axes[1].legend(band_handles("rtt") + [plt.Line2D([], [], color="grey", lw=0.8)] + [hh for hh, _ in paper],
                   ["1-2 × baseRTT (acceptable)", "1.2 × baseRTT"] + [ll for _, ll in paper], fontsize=9,
                   loc="upper left", bbox_to_anchor=(1.0, 1.0))
    fig.tight_layout()
    return fig


def show_path_change(ch, traces, study, bdp, reference=None) -> list:
    """Figure 15 or 16-17; returns the runs of the study (empty if it did not run)."""
    rr = runs(traces, study)
    if not rr:
        skipped(ch, study)
        return rr
    name, events, title, figs, scenario = CHANGES[study]
    paper = "; grey hatched bands and hollow markers: the RTT ranges and levels the paper's text states" if scenario \
        else ""
    show(ch, path_change(rr, events, bdp, reference, scenario), name,
         f"Figure: {title}: throughput (1 s moving mean), smoothed RTT and data in flight of one flow over time, "
         f"{names(rr)} (first seed; log scales for RTT and in-flight; QtCol "
         f"drawn thicker, as QtColFair often covers it){paper}. Reproduces the paper's {figs}; dotted lines: the "
         f"changes. Made from `{study_file(study)}`.",
         trace_data(rr, ["throughput_mbps_0", "srtt_ms_0", "inflight_0"]))
    return rr
