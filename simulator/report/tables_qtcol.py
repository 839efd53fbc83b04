"""Tables and text of the QtColFair chapter (notebooks/qtcol.ipynb): the paper's numbers beside ours
(verdicts as the scorecard gives them), where we differ, and summaries of the time series per phase.
Every number of the paper shown here comes from reference/qtcol/qtcolfair_results.csv."""
from __future__ import annotations

import numpy as np
import pandas as pd

from simulator.report import scorecard_qtcol as sq
from simulator.report import style
from simulator.report.figures_qtcol import DEVQ, MULTI, SWEEP, rtt_series, study_file, warm

METRIC_UNITS = {"goodput_mbps": "Mbit/s", "median_rtt_ms": "ms", "median_inflight": "packets", "plr": "ratio",
                "jain": "index"}


def paper(reference, scenario, algorithm, metric, alpha=None, **params) -> float:
    """The paper's number in one row of qtcolfair_results.csv (alpha None: CUBIC and BBR)."""
    r = reference[(reference["scenario"] == scenario) & (reference["algorithm"] == algorithm)
                  & (reference["metric"] == metric)]
    a = pd.to_numeric(r["alpha"], errors="coerce")
    r = r[a.isna() if alpha is None else np.isclose(a, alpha)]
    for k, v in params.items():
        r = r[np.isclose(r[k], v)]
    if r.empty:
        raise KeyError(f"qtcolfair_results.csv has no row {scenario} {algorithm} alpha={alpha} {metric} {params}")
    return float(r["value"].iloc[0])


# --------------------------------------------------------------------------- the published numbers beside ours

def published_vs_ours(tables, reference) -> pd.DataFrame:
    """One row per number the scorecard compares: the paper's value, our mean with its 95% CI, the
    difference, and meets_target = the scorecard's verdict `inside` (None when we did not run it)."""
    ref = sq.compared(reference)
    rows = []
    for r, card in zip(ref.itertuples(index=False), sq.number_rows(tables, ref)):
        ran = card["verdict"] != "missing"
        metric = card["metric"]
        rows.append(dict(
            scenario=r.scenario, study=sq.SCENARIO_STUDY[r.scenario], algorithm=r.algorithm,
            alpha=None if pd.isna(r.alpha) else float(r.alpha), flows=int(r.flows), buffer_bdp=r.buffer_bdp,
            duration_s=r.duration_s, metric=metric, unit=METRIC_UNITS[metric], paper=card["paper_value"],
            ours_mean=card["ours_mean"], ci_low=card["ci_low"], ci_high=card["ci_high"], n_seeds=card["n_seeds"],
            difference=card["ours_mean"] - card["paper_value"] if ran else np.nan,
            tolerance=sq.tolerance_text(metric), meets_target=card["verdict"] == "inside" if ran else None))
    return pd.DataFrame(rows)


def number_text(v, metric) -> str:
    if pd.isna(v):
        return "–"
    return f"{v:.4f}" if metric in ("plr", "jain") else f"{v:.1f}" if abs(v) < 1000 else f"{v:.0f}"


def published_row_html(r) -> str:
    name = style.label(r.algorithm, r.alpha)
    where = f"{r.flows} flow{'s' if r.flows > 1 else ''}, {r.buffer_bdp:g} BDP, {r.duration_s:g} s"
    if pd.isna(r.ours_mean):
        ours, diff, mark = "<i>not run</i>", "–", "<span style='color:#9a6700'>missing</span>"
    else:
        ours = (f"<b>{number_text(r.ours_mean, r.metric)}</b> <small>[{number_text(r.ci_low, r.metric)}, "
                f"{number_text(r.ci_high, r.metric)}]</small>")
        rel = f" ({100 * r.difference / r.paper:+.0f}%)" if r.paper else ""
        diff = f"{r.difference:+.4g}{rel}"
        mark = ("<span style='color:#1a7f37'>✓ yes</span>" if r.meets_target
                else "<span style='color:#cf222e'>✗ no</span>")
    return (f"<tr><td style='color:{style.PALETTE.get(r.algorithm, 'black')}'><b>{name}</b></td><td>{where}</td>"
            f"<td>{r.metric} ({r.unit})</td><td>{number_text(r.paper, r.metric)}</td><td>{ours}</td><td>{diff}</td>"
            f"<td>{r.tolerance}</td><td>{mark}</td></tr>")


def published_html(compare) -> str:
    """One HTML table per scenario of `published_vs_ours`."""
    html = ""
    for scen, d in compare.groupby("scenario", sort=False):
        body = "".join(published_row_html(r) for r in d.itertuples())
        html += (f"<p><b>{scen}</b> (from <code>{study_file(sq.SCENARIO_STUDY[scen])}</code>)</p>"
                 "<table class='repro'><thead><tr><th>algorithm</th><th>setting</th><th>metric</th><th>paper</th>"
                 "<th>ours: mean [95% CI]</th><th>ours − paper</th><th>target</th><th>meets</th></tr></thead>"
                 f"<tbody>{body}</tbody></table>")
    return html


def published_summary(compare, link) -> list:
    """Two lines: how many of the numbers we ran meet the target, overall and per metric."""
    ran = compare[compare["meets_target"].notna()]
    by = ran.groupby("metric")["meets_target"].agg(["sum", "count"])
    return [f"**{int(ran['meets_target'].sum())} of {len(ran)} published numbers that we ran meet the target** "
            f"({len(compare) - len(ran)} not run). {link}.",
            "Per metric: " + "; ".join(f"{m}: {int(r['sum'])}/{int(r['count'])}" for m, r in by.iterrows()) + "."]


# --------------------------------------------------------------------------- where we differ

def our_mean(tables, study, alg, metric, alpha=None, **params) -> float:
    c = sq.qt_cell(tables, study, alg, metric, alpha, **params)
    return np.nan if c is None else c["mean"]


def disagreements(tables, reference) -> str:
    """Markdown list of our largest departures from the paper (empty if none of those runs exist)."""
    p = lambda *a, **k: paper(reference, *a, **k)  # noqa: E731
    v = lambda *a, **k: our_mean(tables, *a, **k)  # noqa: E731
    lines = []
    g_cubic, plr_cubic = v("qt_single_static", "cubic", "goodput_mbps", flows=1), v("qt_single_static", "cubic", "plr", flows=1)
    if not np.isnan(g_cubic):
        lines.append(f"- **Our CUBIC loses far less than the authors' ns-3 CUBIC.** In the single-flow 5 BDP run its PLR "
                     f"is {plr_cubic:.4f} against the paper's {p('single_static', 'cubic', 'plr'):g}, so its goodput "
                     f"({g_cubic:.2f} Mbit/s) is above the paper's {p('single_static', 'cubic', 'goodput'):g} and even "
                     f"above QtCol's: a flow that almost never retransmits loses nothing in the authors' goodput "
                     f"formula. Its in-flight data and RTT do oscillate as the paper says (below).")
    rtt_bbr = v("qt_single_static", "bbr", "median_rtt_ms", flows=1)
    if not np.isnan(rtt_bbr):
        lines.append(f"- **Our single BBR flow keeps a shorter queue than the paper's.** Median RTT {rtt_bbr:.1f} ms "
                     f"against {p('single_static', 'bbr', 'median_rtt'):g} ms; its in-flight data stay near 1 BDP and "
                     "rarely reach the paper's 2 BDP.")
    u = {a: v(MULTI, a, "utilization", None, flows=5, duration=400) for a in ("cubic", "bbr")}
    if not any(np.isnan(x) for x in u.values()):
        pg = {a: p("multiflow", a, "goodput", al) for a, al in (("cubic", None), ("bbr", None), ("qtcolfair", 1.2))}
        lines.append(f"- **With 5 flows the utilization ranking differs**: CUBIC {100 * u['cubic']:.1f}% > BBR "
                     f"{100 * u['bbr']:.1f}%, while the paper has CUBIC ~{pg['cubic']:.0f}% < BBR ~{pg['bbr']:.0f}% < "
                     f"QtColFair ~{pg['qtcolfair']:.0f}%.")
    j = v(MULTI, "qtcol", "jain", 1.2, flows=5, duration=400)
    if not np.isnan(j):
        lines.append(f"- **QtCol α=1.2 is fairer in our run** (Jain {j:.2f}) than the paper's "
                     f"{p('multiflow', 'qtcol', 'jain', 1.2):g}; α=1.1 and 1.5 do starve flows as published.")
    b1 = v(SWEEP, "bbr", "goodput_mbps", flows=5, buffer_bdp=1)
    if not np.isnan(b1):
        lines.append(f"- **BBR at 1 BDP with 5 flows reaches {b1:.1f} Mbit/s** where the paper reports "
                     f"{p('buffer_sweep', 'bbr', 'goodput', buffer_bdp=1):g} Mbit/s; our deep-buffer CUBIC does not "
                     "lose utilization as the buffer grows (it hardly loses packets).")
    f0 = v(SWEEP, "qtcolfair", "utilization", 1.2, flows=5, buffer_bdp=0.003)
    if not np.isnan(f0):
        lines.append(f"- **QtColFair collapses in a near-zero buffer** (0.003 BDP, 1 packet): utilization {100 * f0:.1f}% "
                     "with 5 flows, below BBR; the paper places it between CUBIC and BBR there.")
    if not lines:
        return ""
    return ("**Where we disagree with the paper** (details in the sections below and in the "
            "[scorecard](scorecard.html)):\n\n" + "\n".join(lines))


# --------------------------------------------------------------------------- time series per phase

def per_run(rr, summary) -> pd.DataFrame:
    """One row per run: its label, then the columns summary(trace) returns."""
    return pd.DataFrame([{"algorithm": style.label(alg, alpha), **summary(g)} for alg, alpha, g in rr])


def between(g, t0, t1):
    return g[(g["t"] >= t0) & (g["t"] < t1)]


def single_ranges(ss) -> pd.DataFrame:
    """5th-95th percentile and median of in-flight data and RTT per single-flow run, after warm-up."""
    def ranges(g):
        w = warm(g)
        infl, rtt = w["inflight_0"], rtt_series(w).dropna()
        return {"in-flight p05-p95 (packets)": f"{infl.quantile(.05):.0f}-{infl.quantile(.95):.0f}",
                "median in-flight": f"{infl.median():.0f}",
                "RTT p05-p95 (ms)": f"{rtt.quantile(.05):.1f}-{rtt.quantile(.95):.1f}",
                "median RTT (ms)": f"{rtt.median():.1f}"}
    return per_run(ss, ranges)


def paper_range(reference, scenario, alg, kind, alpha=None) -> str:
    """'low-high' of the range the paper states for `kind` (inflight or rtt)."""
    return (f"{paper(reference, scenario, alg, f'{kind}_low', alpha):g}-"
            f"{paper(reference, scenario, alg, f'{kind}_high', alpha):g}")


def single_ranges_caption(reference) -> str:
    s = lambda alg, m, a=None: f"{paper(reference, 'single_static', alg, m, a):g}"  # noqa: E731
    return ("Table: ranges of the single-flow time series after the 10 s warm-up (first seed). Paper: CUBIC "
            f"{paper_range(reference, 'single_static', 'cubic', 'inflight')} packets and "
            f"{paper_range(reference, 'single_static', 'cubic', 'rtt')} ms; BBR "
            f"{paper_range(reference, 'single_static', 'bbr', 'inflight')} packets and "
            f"{paper_range(reference, 'single_static', 'bbr', 'rtt')} ms; QtCol {s('qtcol', 'inflight_steady', 1.2)} / "
            f"{s('qtcol', 'inflight_steady', 1.5)} packets and {s('qtcol', 'rtt_steady', 1.2)} / "
            f"{s('qtcol', 'rtt_steady', 1.5)} ms for α = 1.2 / 1.5. Made from `{study_file('qt_single_static')}`.")


def bandwidth_phases(rr) -> pd.DataFrame:
    """RTT 5th-95th percentiles per phase of the bandwidth change (100, 25, 500 Mbit/s)."""
    def phases(g):
        rtt = {(a, b): rtt_series(between(g, a, b)).dropna() for a, b in ((10, 25), (25, 50), (50, 100))}
        return {f"RTT {a}-{b} s: p05-p95 (ms)": f"{r.quantile(.05):.0f}-{r.quantile(.95):.0f}"
                for (a, b), r in rtt.items()}
    return per_run(rr, phases)


def bandwidth_phases_caption(reference) -> str:
    steady = {f"{paper(reference, 'bandwidth_change', a, 'rtt_steady', 1.2):g}" for a in ("qtcol", "qtcolfair")}
    return ("Table: RTT range per phase of the bandwidth change (first seed). Paper: CUBIC "
            f"{paper_range(reference, 'bandwidth_change', 'cubic', 'rtt')} ms, BBR "
            f"{paper_range(reference, 'bandwidth_change', 'bbr', 'rtt')} ms, QtCol/QtColFair near "
            f"{' / '.join(sorted(steady))} ms. Made from `{study_file('qt_bandwidth_change')}`.")


def delay_phases(rr) -> pd.DataFrame:
    """Mean in-flight data before, during and after the longer delay, and throughput during it."""
    return per_run(rr, lambda g: {
        "in-flight 15-25 s": f"{between(g, 15, 25)['inflight_0'].mean():.0f}",
        "in-flight 30-50 s (40 ms)": f"{between(g, 30, 50)['inflight_0'].mean():.0f}",
        "in-flight 60-100 s": f"{between(g, 60, 100)['inflight_0'].mean():.0f}",
        "throughput 30-50 s (Mbit/s)": f"{between(g, 30, 50)['throughput_mbps_0'].mean():.1f}"})


# --------------------------------------------------------------------------- tables of means

def multiflow_means(tables) -> pd.DataFrame:
    """Goodput, Jain and median RTT per algorithm and flow count (empty if the study did not run)."""
    d = tables[(tables["study"] == MULTI) & (tables["metric"].isin(["goodput_mbps", "jain", "median_rtt_ms"]))]
    if d.empty:
        return d
    w = d.pivot_table(index=["algorithm", d["alpha"].fillna(0), "flows"], columns="metric", values="mean").reset_index()
    w["algorithm"] = [style.label(a, al or None) for a, al in zip(w["algorithm"], w["alpha"])]
    return w.drop(columns="alpha").rename(columns={"goodput_mbps": "goodput (Mbit/s)", "jain": "Jain",
                                                   "median_rtt_ms": "median RTT (ms)"})


def buffer_sweep_5flows(tables) -> pd.DataFrame:
    """Utilization, PLR and mean RTT per buffer size (rows) and algorithm (columns), five flows."""
    bs = tables[tables["study"] == SWEEP]
    w = bs[bs["metric"].isin(["utilization", "plr", "mean_rtt_ms"]) & (bs["flows"] == 5)]
    w = w.pivot_table(index="buffer_bdp", columns=[w["algorithm"], "metric"], values="mean")
    w.columns = [f"{style.LABELS[a]} {m}" for a, m in w.columns]
    return w


def device_queue_utilization(tables, bdp=0.003) -> str:
    """Our utilization per algorithm at the smallest buffer with the device queue (first row of each
    algorithm, whatever its alpha)."""
    dq = tables[tables["study"] == DEVQ]
    d = dq[(dq["metric"] == "utilization") & np.isclose(dq["buffer_bdp"], bdp)]
    u = d.groupby("algorithm")["mean"].first()
    return (f"At {bdp:g} BDP with the device queue, utilization is "
            + ", ".join(f"{style.label(a, None)} {100 * v:.1f}%" for a, v in u.items()) + ".")
