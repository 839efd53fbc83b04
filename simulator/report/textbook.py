"""Against closed-form models (notebooks/textbook.ipynb): one long flow under random loss only, from study
textbook_loss, against the formulas that predict its goodput from the loss rate p and the round-trip time.

* Mathis, Semke, Mahdavi and Ott 1997 ("The macroscopic behavior of the TCP congestion avoidance
  algorithm"): rate = C / (RTT sqrt(p)) packets/s, with C = sqrt(3/2) when the window grows one segment
  per RTT (an ACK per packet, or delayed ACKs counted by bytes acked) and sqrt(3/4) when it grows one
  segment per two RTTs (delayed ACKs counted per ACK).
* Padhye, Firoiu, Towsley and Kurose 1998 ("Modeling TCP throughput: a simple model and its empirical
  validation"), with timeouts: 1 / (RTT sqrt(2bp/3) + T0 min(1, 3 sqrt(3bp/8)) p (1 + 32 p^2)), b packets
  per window increment's ACK, T0 the stack's RTO (no receive-window cap: the study sets none).
* RFC 9438 section 5.1 (CUBIC): the average window of the CUBIC region, (C (3 + beta) / (4 (1 - beta)))^(1/4)
  RTT^(3/4) / p^(3/4), and of the Reno-friendly region, sqrt(3 / (2p)) (AIMD with alpha = 3(1-beta)/(1+beta));
  CUBIC runs at the larger, C = 0.4, beta = 0.7.
* BBR v1 has no loss response to model: it should deliver the link's payload rate times (1 - p).

Every model's rate is in packets/s of payload; the chapter compares it with our goodput measured after the
warm-up (goodput_warm_mbps) at the path's base RTT (propagation plus one data packet's serialization: the
buffer never fills, so the flow sees no queueing after its first slow start). A point is inside when our mean
is within BAND of the model, declared in config/studies/textbook_loss.yaml before the study ran.
"""
from __future__ import annotations

import math

import numpy as np
import pandas as pd

from simulator import study_files
from simulator.report import number_format
from simulator.report.textbook_models import (cubic_rfc9438, cubic_window, mathis, mathis_constant,
                                               packets_per_increment, padhye, stack_why, timeout_s)

STUDY = "textbook_loss"
STUDY_FILE = study_files.repo_path(STUDY)
PERIODIC = "textbook_periodic"  # the same flows under periodic loss: the models' own assumption, no verdict
PERIODIC_FILE = study_files.repo_path(PERIODIC)
BAND = 0.15                    # ours/model in [1 - BAND, 1 + BAND]: declared and justified in STUDY_FILE
HEADERS = 54                   # wire bytes besides the payload (simulator/scenarios/dumbbell.py HEADERS)

MODEL_NAMES = {"mathis": "Mathis et al. 1997", "padhye": "Padhye et al. 1998",
               "rfc9438": "RFC 9438 section 5", "link": "link rate x (1 - p)"}
STACK_NAMES = {"ns2": "NS-2", "ns3": "ns-3", "linux": "Linux"}


def models_of(algorithm: str) -> tuple:
    """The models a series is compared with, the first being the one its band verdict counts for the trust table."""
    return {"cubic": ("rfc9438",), "bbr": ("link",)}.get(algorithm, ("padhye", "mathis"))


def base_rtt(row) -> float:
    """The path's RTT without queueing, s: twice the one-way propagation (bottleneck plus two access links)
    plus one data packet's serialization at the bottleneck (its ACK's is a twentieth of that, left out)."""
    from simulator.scenarios.dumbbell import DEFAULTS
    access = float(row.get("access_delay_ms", DEFAULTS["access_delay_ms"]))
    mss = float(row.get("mss_bytes", DEFAULTS["mss_bytes"]))
    return 2 * (float(row["delay_ms"]) + 2 * access) / 1e3 + (mss + HEADERS) * 8 / (float(row["bottleneck_mbps"]) * 1e6)


def mss_bytes(row) -> float:
    from simulator.scenarios.dumbbell import DEFAULTS
    return float(row.get("mss_bytes", DEFAULTS["mss_bytes"]))


def model_mbps(model: str, algorithm: str, stack: str, rtt: float, p: float, mbps: float, mss: float) -> float:
    """Goodput the model predicts, payload Mbit/s."""
    if model == "link":
        return mbps * mss / (mss + HEADERS) * (1 - p)
    if model == "rfc9438":
        pkts = cubic_rfc9438(rtt, p)
    else:
        pkts = mathis(rtt, p, mathis_constant(stack)) if model == "mathis" else \
            padhye(rtt, p, packets_per_increment(stack), timeout_s(stack, rtt))
    return pkts * mss * 8 / 1e6


# --------------------------------------------------------------------------- our points against the models

def points(tables: pd.DataFrame, study: str = STUDY) -> pd.DataFrame:
    """One row per grid point of `study`: parameters, and per metric the mean (and CI of goodput)."""
    if tables.empty or "study" not in tables.columns:
        return pd.DataFrame()
    t = tables[tables["study"] == study]
    if t.empty:
        return pd.DataFrame()
    keys = [c for c in ("algorithm", "stack", "loss_fwd_pct", "bottleneck_mbps", "delay_ms", "duration", "warmup",
                        "access_delay_ms", "mss_bytes") if c in t.columns]
    wide = t.pivot_table(index=keys, columns="metric", values="mean", aggfunc="first")
    gp = t[t["metric"] == "goodput_warm_mbps"].set_index(keys)[["ci_low", "ci_high", "n"]]
    return wide.join(gp).reset_index()


def comparison(tables: pd.DataFrame, study: str = STUDY) -> pd.DataFrame:
    """One row per point and model: the model's goodput, ours (mean, 95% CI), ours/model, inside the band,
    the runs' evidence (timeouts per run and per loss, the measured loss ratio, RTT against the base RTT) and,
    for textbook_loss, the reason of a point outside the band (`reason`)."""
    pts = points(tables, study)
    rows = []
    for _, r in pts.iterrows():
        p, rtt, mss = float(r["loss_fwd_pct"]) / 100, base_rtt(r), mss_bytes(r)
        losses = float(r["sent"]) * p                     # expected lost packets per run (all of the run)
        for k, model in enumerate(models_of(r["algorithm"])):
            m = model_mbps(model, r["algorithm"], r["stack"], rtt, p, float(r["bottleneck_mbps"]), mss)
            ratio = float(r["goodput_warm_mbps"]) / m
            rows.append({
                "algorithm": r["algorithm"], "stack": r["stack"], "p": p, "model": model, "counted": k == 0,
                "model_mbps": m, "ours_mbps": float(r["goodput_warm_mbps"]),
                "ci_low": float(r["ci_low"]), "ci_high": float(r["ci_high"]), "n_seeds": int(r["n"]),
                "ratio": ratio, "ratio_low": float(r["ci_low"]) / m, "ratio_high": float(r["ci_high"]) / m,
                "inside": abs(ratio - 1) <= BAND,
                "timeouts": float(r["timeouts"]), "timeouts_per_loss": float(r["timeouts"]) / losses if losses else 0.0,
                "loss_ratio": float(r["loss_drop_ratio"]) / p if p else float("nan"),
                "rtt_ratio": float(r["mean_rtt_ms"]) / 1e3 / rtt,
                "inflight_bdp": float(r["median_inflight"]) / float(r["bdp_pkts"]),
                "base_rtt_ms": rtt * 1e3, "bottleneck_mbps": float(r["bottleneck_mbps"]),
            })
    cmp = pd.DataFrame(rows)
    if study == STUDY and not cmp.empty:
        periodic = comparison(tables, PERIODIC)
        cmp["periodic_ratio"] = [lookup(periodic, r, "ratio") for _, r in cmp.iterrows()]
        cmp["reason"] = [reason(r, cmp) for _, r in cmp.iterrows()]
    return cmp


def lookup(cmp: pd.DataFrame, row, column: str, **change):
    """`column` of the row of `cmp` at `row`'s algorithm, stack, p and model (each replaced by `change`); NaN if none."""
    if cmp.empty:
        return float("nan")
    want = {k: change.get(k, row[k]) for k in ("algorithm", "stack", "p", "model")}
    hit = cmp[(cmp["algorithm"] == want["algorithm"]) & (cmp["stack"] == want["stack"])
              & np.isclose(cmp["p"], want["p"]) & (cmp["model"] == want["model"])]
    return hit[column].iloc[0] if len(hit) else float("nan")


def reason(row, cmp: pd.DataFrame | None = None) -> str:
    """Why a point lies outside the band, from runs: its own (timeouts, RTT, measured loss, BBR's in-flight), the
    same flow under periodic loss (textbook_periodic: the model's own assumption), the fuller model at the same
    point (Padhye et al. beside Mathis et al.) and, for Reno, the same stack's NewReno. '' inside."""
    if row["inside"]:
        return ""
    out = []
    if row["model"] == "link":
        out.append(f"median in flight {row['inflight_bdp']:.2f} BDP")
        if row["timeouts"] >= 1:
            out.append(f"{row['timeouts']:.0f} timeouts per run")
        return "BBR no longer keeps the pipe full: " + ", ".join(out)
    if row["timeouts_per_loss"] >= 0.05 or (row["model"] == "mathis" and row["timeouts"] >= 1):
        out.append(f"timeouts: {row['timeouts']:.0f} per run, {row['timeouts_per_loss']:.0%} of the losses"
                   + (" (Mathis et al. model none)" if row["model"] == "mathis" else ""))
    if row["rtt_ratio"] > 1.05:
        out.append(f"mean RTT {row['rtt_ratio']:.2f} x the base RTT the model is given")
    if abs(row["loss_ratio"] - 1) > 0.05:
        out.append(f"measured loss {row['loss_ratio']:.2f} x p")
    if cmp is not None:
        if row["model"] == "mathis":
            full = lookup(cmp, row, "ratio", model="padhye")
            if full == full:
                out.append(f"Padhye et al., with timeouts, at this point: {full:.2f}")
        if row["algorithm"] == "reno":
            nr = lookup(cmp, row, "ratio", algorithm="newreno")
            nt = lookup(cmp, row, "timeouts", algorithm="newreno")
            if nr == nr:
                out.append(f"the same stack's NewReno, which recovers from several losses in a window without a "
                           f"timeout: {nt:.0f} timeouts per run, ours / model {nr:.2f}")
    periodic = row.get("periodic_ratio", float("nan"))
    if periodic == periodic:
        text = f"under periodic loss at this p (the model's assumption) ours / model = {periodic:.2f}"
        if abs(periodic - 1) <= BAND:
            text += ", inside the band: the distance is random loss's, which the model leaves out"
        elif (periodic - 1) * (row["ratio"] - 1) > 0:
            text += ", outside on the same side: the distance is there without random loss too"
        out.append(text)
    return "; ".join(out) if out else "not explained by timeouts, queueing or the loss count"


def exponent(x, y) -> float:
    """Least-squares slope of log y on log x."""
    lx, ly = np.log(np.asarray(x, float)), np.log(np.asarray(y, float))
    return float(np.polyfit(lx, ly, 1)[0]) if len(lx) > 1 else float("nan")


def exponents(cmp: pd.DataFrame) -> pd.DataFrame:
    """Per series: the fitted exponent of our goodput against p and of each model's over the same p, over the
    loss rates 1e-4 to 3e-2 (BBR's extra rates left out, so every series spans the same range)."""
    rows = []
    sub = cmp[cmp["p"] <= 0.03]
    for (alg, stack), g in sub.groupby(["algorithm", "stack"], sort=False):
        first = g[g["counted"]].sort_values("p")
        row = {"algorithm": alg, "stack": stack, "ours": exponent(first["p"], first["ours_mbps"])}
        for model, gm in g.groupby("model", sort=False):
            gm = gm.sort_values("p")
            row[model] = exponent(gm["p"], gm["model_mbps"])
        rows.append(row)
    return pd.DataFrame(rows)


def series_order(cmp: pd.DataFrame) -> list:
    """(algorithm, stack) of the data: Reno before NewReno, NS-2, ns-3, Linux, then CUBIC and BBR."""
    from simulator.report import style
    pairs = set(zip(cmp["algorithm"], cmp["stack"]))
    stacks = list(STACK_NAMES)
    return sorted(pairs, key=lambda a: (style.rank(a[0]), stacks.index(a[1]) if a[1] in stacks else 9))


def series_label(algorithm: str, stack: str) -> str:
    from simulator.report import style
    return f"{style.LABELS[algorithm]} ({STACK_NAMES.get(stack, stack)} stack)"


def trust_rows(tables: pd.DataFrame, mm1_tables: pd.DataFrame | None = None) -> list:
    """For the first page's trust table: per algorithm and stack, the points inside the band of the model that
    counts for it (Padhye et al. for Reno/NewReno, with timeouts; RFC 9438 for CUBIC; the link rate for BBR) and
    the points compared; with `mm1_tables`, the M/M/1/K closed-form cells too. Each row a dict: algorithm, stack,
    model, inside, total."""
    rows = []
    cmp = comparison(tables)
    if not cmp.empty:
        for alg, stack in series_order(cmp):
            g = cmp[(cmp["algorithm"] == alg) & (cmp["stack"] == stack) & cmp["counted"]]
            rows.append({"algorithm": alg, "stack": stack, "model": MODEL_NAMES[g["model"].iloc[0]],
                         "inside": int(g["inside"].sum()), "total": int(len(g))})
    if mm1_tables is not None and "study" in mm1_tables.columns:
        from simulator.report.papers.mm1 import scorecard as scorecard_mm1
        a = scorecard_mm1.analytic_comparison(mm1_tables)
        if not a.empty:
            rows.append({"algorithm": "none", "stack": "M/M/1/K", "model": "M/M/1/K closed forms",
                         "inside": int(a["agree"].sum()), "total": int(len(a))})
    return rows


# --------------------------------------------------------------------------- figures and tables

def figure(cmp: pd.DataFrame, algorithms: tuple):
    """Log-log goodput against p, one panel per series of `algorithms`: our mean with its 95% CI (band and
    error bars) in the algorithm's colour, each model's line in black, the band around the counted model grey."""
    import matplotlib.pyplot as plt
    from matplotlib import ticker
    from simulator.report import style

    series = [s for s in series_order(cmp) if s[0] in algorithms]
    cols = min(len(series), 2)
    rows = math.ceil(len(series) / cols)
    fig, axes = plt.subplots(rows, cols, figsize=(5.2 * cols, 3.6 * rows), squeeze=False)
    lines = {"padhye": "-", "mathis": "--", "rfc9438": "-", "link": "-"}
    for ax, (alg, stack) in zip(axes.flat, series):
        g = cmp[(cmp["algorithm"] == alg) & (cmp["stack"] == stack)].sort_values("p")
        first = g[g["counted"]]
        ps = np.geomspace(first["p"].min(), first["p"].max(), 60)
        r0 = first.iloc[0]
        for model in models_of(alg):
            ys = [model_mbps(model, alg, stack, r0["base_rtt_ms"] / 1e3, p, r0["bottleneck_mbps"], 1448.0)
                  for p in ps]
            ax.plot(ps, ys, color="black", ls=lines[model], lw=1.2, label=MODEL_NAMES[model])
            if model == models_of(alg)[0]:
                ax.fill_between(ps, np.array(ys) * (1 - BAND), np.array(ys) * (1 + BAND), color="0.85", lw=0,
                                label=f"±{BAND:.0%} band")
        if alg == "cubic":
            ax.plot(ps, [cubic_window(r0["base_rtt_ms"] / 1e3, p) / (r0["base_rtt_ms"] / 1e3) * 1448 * 8 / 1e6
                         for p in ps], color="0.4", ls=":", lw=1, label="CUBIC region alone")
        colour = style.PALETTE[alg]
        ax.fill_between(first["p"], first["ci_low"], first["ci_high"], color=colour, alpha=0.25, lw=0)
        ax.errorbar(first["p"], first["ours_mbps"],
                    yerr=[first["ours_mbps"] - first["ci_low"], first["ci_high"] - first["ours_mbps"]],
                    color=colour, marker="o", ms=4, lw=1, capsize=2, label="ours (mean, 95% CI)")
        if "periodic_ratio" in first and first["periodic_ratio"].notna().any():
            ax.plot(first["p"], first["periodic_ratio"] * first["model_mbps"], ls="none", marker="o", ms=6,
                    mfc="none", mec=colour, label="ours, periodic loss (one run)")
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.yaxis.set_major_formatter(ticker.FuncFormatter(lambda v, _: f"{v:g}"))
        ax.yaxis.set_minor_formatter(ticker.FuncFormatter(minor_label))
        ax.set_title(series_label(alg, stack), fontsize=9)
        ax.set_xlabel("random loss rate p (per packet)")
        ax.set_ylabel("goodput (Mbit/s)")
        ax.legend(loc="lower left", fontsize=9)
    for ax in list(axes.flat)[len(series):]:
        ax.set_visible(False)
    fig.tight_layout()
    return fig


def minor_label(v, _pos=None) -> str:
    """A log axis' minor tick labelled only at 2 and 5 times a power of ten."""
    if v <= 0:
        return ""
    m = v / 10 ** math.floor(math.log10(v) + 1e-9)
    return f"{v:g}" if round(m, 6) in (2.0, 5.0) else ""


def table(cmp: pd.DataFrame, algorithms: tuple) -> pd.DataFrame:
    """The per-point table of `algorithms`: one row per series and p, ours with its CI, and per model its goodput,
    ours/model and the band verdict (the reasons of the points outside are in show_outside's table)."""
    g = cmp[cmp["algorithm"].isin(algorithms)]
    out = []
    for alg, stack in series_order(g):
        gs = g[(g["algorithm"] == alg) & (g["stack"] == stack)]
        for p, gp in gs.groupby("p", sort=True):
            r0 = gp.iloc[0]
            row = {"series": series_label(alg, stack), "p": p_text(p),
                   "ours (Mbit/s) [95% CI]": number_format.mean_ci(r0["ours_mbps"], r0["ci_low"], r0["ci_high"],
                                                                   lower=None, fmt=lambda v: f"{v:.3g}")}
            for model in models_of(alg):
                m = gp[gp["model"] == model].iloc[0]
                row[f"{MODEL_NAMES[model]} (Mbit/s)"] = f"{m['model_mbps']:.3g}"
                row[f"ours / {MODEL_NAMES[model]}"] = f"{m['ratio']:.2f} {'✓' if m['inside'] else '✗'}"
            row["timeouts per run"] = f"{r0['timeouts']:.0f}"
            out.append(row)
    return pd.DataFrame(out)


def counts_sentence(cmp: pd.DataFrame, algorithms: tuple) -> str:
    """'Padhye et al. 1998: 20 of 24 points inside; Mathis et al. 1997: 14 of 24.' for `algorithms`."""
    g = cmp[cmp["algorithm"].isin(algorithms)]
    parts = [f"{MODEL_NAMES[m]}: {int(gm['inside'].sum())} of {len(gm)} points inside ±{BAND:.0%}"
             for m, gm in g.groupby("model", sort=False)]
    return "; ".join(parts) + "."


def exponent_table(cmp: pd.DataFrame) -> pd.DataFrame:
    ex = exponents(cmp)
    out = pd.DataFrame({"series": [series_label(a, s) for a, s in zip(ex["algorithm"], ex["stack"])],
                        "ours": [f"{v:.2f}" for v in ex["ours"]]})
    for model in ("padhye", "mathis", "rfc9438", "link"):
        if model in ex.columns:
            out[MODEL_NAMES[model]] = [("" if pd.isna(v) else f"{v:.2f}") for v in ex[model]]
    return out


def show(ch, tables: pd.DataFrame, algorithms: tuple, name: str, what: str) -> None:
    """One algorithm family's figure, caption and per-point table (with download) in the chapter."""
    from simulator.report import chapter

    cmp = comparison(tables)
    cmp = cmp[cmp["algorithm"].isin(algorithms)]
    if cmp.empty:
        ch.markdown(f"*Study `{STUDY}` has no {what} point in this build.*")
        return
    models = ", ".join(dict.fromkeys(MODEL_NAMES[m] for m in cmp["model"]))
    ch.figure(figure(cmp, algorithms), f"textbook_{name}")
    ch.caption(f"Figure: {what}: goodput after the warm-up against the random loss rate, log-log; our mean over "
               f"{int(cmp['n_seeds'].min())} seeds with its 95% CI (shaded and error bars) against {models} "
               f"(black lines) at the path's base RTT of {cmp['base_rtt_ms'].iloc[0]:.1f} ms, and the ±{BAND:.0%} "
               f"band declared before the runs (grey); open circles: the same flow under periodic loss (no verdict). "
               f"Made from `{STUDY_FILE}` and `{PERIODIC_FILE}`. "
               + ch.download_link(f"textbook_{name}.csv", "Data as CSV") + ".")
    ch.save_download(cmp, f"textbook_{name}.csv")
    view = table(cmp, algorithms)
    chapter.html(chapter.long_frame_html(view, index=False, escape=True))
    ch.markdown(f"✓: ours within ±{BAND:.0%} of the model, ✗: outside (each with its reason below). "
                + counts_sentence(cmp, algorithms) + " " + ch.download_link(f"textbook_{name}.csv") + ".")


def show_exponents(ch, tables: pd.DataFrame) -> None:
    cmp = comparison(tables)
    if cmp.empty:
        return
    ch.table(exponent_table(cmp), "textbook_exponents.csv",
             "Fitted exponent of goodput against p (least squares on the log-log points from 10⁻⁴ to 3×10⁻²), ours "
             "and each model's over the same loss rates. Mathis et al.'s is -0.5 by construction; timeouts make "
             "Padhye et al.'s steeper at high loss; RFC 9438's CUBIC region alone would give -0.75.")


def show_stack_constants(ch, rtt: float = 0.2) -> None:
    names = list(STACK_NAMES)
    ch.table(pd.DataFrame({"stack": [STACK_NAMES[s] for s in names],
                           "Mathis C": [f"{mathis_constant(s):.3f}" for s in names],
                           "Padhye b": [packets_per_increment(s) for s in names],
                           f"T0 at RTT {rtt * 1e3:.0f} ms (s)": [f"{timeout_s(s, rtt):.3f}" for s in names],
                           "why": [stack_why(s) for s in names]}),
             "textbook_stack_constants.csv", "What each stack's ACK and window-growth rules and its retransmission "
             "timer imply for the models (simulator/tcp/stacks.py).")


def bbr_sentence(cmp: pd.DataFrame) -> str:
    """Where BBR stops tracking the link: the lowest loss rate whose point falls below the band, from the data."""
    g = cmp[(cmp["algorithm"] == "bbr") & cmp["counted"]].sort_values("p")
    if g.empty:
        return ""
    below = g[g["ratio"] < 1 - BAND]
    if below.empty:
        return (f"BBR stays within ±{BAND:.0%} of the link's payload rate x (1 - p) at every loss rate up to "
                f"{g['p'].max():.0%}.")
    first = below.iloc[0]
    last_in = g[g["p"] < first["p"]]
    held = f"up to {last_in['p'].max():.0%} " if not last_in.empty else ""
    return (f"BBR tracks the link's payload rate x (1 - p) within ±{BAND:.0%} {held}and stops tracking it at "
            f"{first['p']:.0%}, where it delivers {first['ratio']:.0%} of it.")


def show_outside(ch, tables: pd.DataFrame) -> None:
    """Every point outside the band, with the reason its runs give, as a table with its download."""
    cmp = comparison(tables)
    if cmp.empty:
        return
    out = cmp[~cmp["inside"]].copy()
    if out.empty:
        ch.markdown(f"Every point lies inside ±{BAND:.0%} of its models.")
        return
    out = in_series_order(out, cmp)
    view = pd.DataFrame({
        **point_columns(out),
        "ours / model": [f"{r:.2f} [{lo:.2f}, {hi:.2f}]" for r, lo, hi in zip(out["ratio"], out["ratio_low"], out["ratio_high"])],
        "timeouts per run": [f"{t:.1f}" for t in out["timeouts"]],
        "timeouts per lost packet": [f"{t:.2f}" for t in out["timeouts_per_loss"]],
        "mean RTT / base RTT": [f"{r:.2f}" for r in out["rtt_ratio"]],
        "measured loss / p": [f"{r:.2f}" for r in out["loss_ratio"]],
        "under periodic loss": [("" if v != v else f"{v:.2f}") for v in out["periodic_ratio"]],
        "reason": list(out["reason"]),
    })
    ch.table(view, "textbook_outside.csv",
             f"{len(out)} of {len(cmp)} comparisons lie outside ±{BAND:.0%}; ours / model with the 95% CI of our mean. "
             "Timeouts per lost packet: timeouts over the packets the loss rate drops in a run (sent x p).")


def p_text(p: float) -> str:
    """A loss rate as the tables print it: 1e-4, 3e-3, 0.15 (two significant digits, never rounded to another rate)."""
    return f"{p:.2g}".replace("e-0", "e-")


def in_series_order(rows: pd.DataFrame, cmp: pd.DataFrame) -> pd.DataFrame:
    """`rows` of the comparison sorted by series (as the figures draw them), model and loss rate."""
    order = {s: i for i, s in enumerate(series_order(cmp))}
    key = pd.Series([order[(a, s)] for a, s in zip(rows["algorithm"], rows["stack"])], index=rows.index)
    return rows.assign(_o=key).sort_values(["_o", "model", "p"]).drop(columns="_o")


def point_columns(rows: pd.DataFrame) -> dict:
    """The columns naming each point of a table: series, model and loss rate."""
    return {"series": [series_label(a, s) for a, s in zip(rows["algorithm"], rows["stack"])],
            "model": [MODEL_NAMES[m] for m in rows["model"]],
            "p": [p_text(p) for p in rows["p"]]}


def show_mm1k(ch, mm1_tables: pd.DataFrame) -> None:
    """The M/M/1/K closed-form comparison of the M/M/1 paper's study mm1_analytic (figures_mm1_checks)."""
    from simulator.report.papers.mm1 import checks as figures_mm1_checks
    from simulator.report.papers.mm1 import scorecard as scorecard_mm1
    if mm1_tables.empty or "study" not in mm1_tables.columns:
        ch.markdown(f"*Study `{scorecard_mm1.ANALYTIC_STUDY}` is not enabled in this build; comparison skipped.*")
        return
    figures_mm1_checks.show_closed_forms(ch, mm1_tables)


def show_periodic(ch, tables: pd.DataFrame) -> None:
    """Ours / model under random loss (textbook_loss) beside periodic loss (textbook_periodic), per series and p."""
    cmp = comparison(tables)
    if cmp.empty or cmp["periodic_ratio"].isna().all():
        ch.markdown(f"*Study `{PERIODIC}` is not enabled in this build.*")
        return
    g = cmp[cmp["model"] != "link"].copy()
    g = in_series_order(g, cmp)
    view = pd.DataFrame({
        **point_columns(g),
        "ours / model, random loss": [f"{r:.2f}" for r in g["ratio"]],
        "ours / model, periodic loss": [("" if v != v else f"{v:.2f}") for v in g["periodic_ratio"]],
    })
    ch.table(view, "textbook_periodic.csv",
             f"Random loss (`{STUDY_FILE}`, mean of the seeds) beside periodic loss at the same rate "
             f"(`{PERIODIC_FILE}`, one run: it draws no random number). No verdict is taken on the periodic runs.")
