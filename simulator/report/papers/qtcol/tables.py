"""Tables and text of the QtColFair chapter (notebooks/qtcol.ipynb): the paper's numbers beside ours
(verdicts as the scorecard gives them), where we differ, and summaries of the time series per phase,
each with the paper's value in a column beside ours. Every number of the paper shown here comes from
reference/qtcol/qtcolfair_results.csv. Tables are shown by `show_table`: cells written by `num`
(significant digits, integers as integers, ties as ties), units in the headers, the numbers behind
the table as a CSV linked under it."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from simulator.report import chapter
from simulator.report.cells import difference, num
from simulator.report.papers.qtcol import scorecard as sq
from simulator.report import claim_words, style
from simulator.report import number_format
from simulator.report.papers.qtcol.figures import DEVQ, MULTI, SWEEP, paper_value, rtt_series, study_file, warm
from simulator import peers

NS3 = peers.label("ns3")

METRIC_UNITS = {"goodput_mbps": "Mbit/s", "median_rtt_ms": "ms", "median_inflight": "packets", "plr": "ratio",
                "jain": "index"}
METRIC_NAMES = {"goodput_mbps": "goodput (Mbit/s)", "median_rtt_ms": "median RTT (ms)",
                "median_inflight": "median data in flight (packets)", "plr": "PLR (%, retransmitted / sent)",
                "jain": "Jain's index"}
SCENARIO_TITLES = {"single_static": "One flow, static path (Figures 7-14)",
                   "multiflow": "Five flows (Figures 18-21)", "buffer_sweep": "Buffer size, five flows (Figures 26-28)"}


def paper(reference, scenario, algorithm, metric, alpha=None, **params) -> float:
    """The paper's number in one row of qtcolfair_results.csv (alpha None: CUBIC and BBR)."""
    v = paper_value(reference, scenario, algorithm, metric, alpha, **params)
    if v is None:
        raise KeyError(f"qtcolfair_results.csv has no row {scenario} {algorithm} alpha={alpha} {metric} {params}")
    return v


# --------------------------------------------------------------------------- the published numbers beside ours

def published_vs_ours(tables, reference) -> pd.DataFrame:
    """One row per number the scorecard compares: the paper's value, our mean with its 95% CI, the
    difference, and within_tolerance = the scorecard's verdict `inside` (None when we did not run it)."""
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
            tolerance=sq.tolerance_text(metric), within_tolerance=card["verdict"] == "inside" if ran else None))
    return pd.DataFrame(rows)


def published_row_html(r) -> str:
    name = style.label(r.algorithm, r.alpha)
    where = f"{r.flows} flow{'s' if r.flows > 1 else ''}, {num(r.buffer_bdp)} BDP, {num(r.duration_s)} s"
    k = claim_words.scale(r.metric)         # a share of 1 in %, the unit declared for the metric
    if pd.isna(r.ours_mean):
        ours, diff, mark = "<i>not run</i>", "–", "<span style='color:#9a6700'>not run</span>"
    else:
        ours = number_format.mean_ci_html(k * r.ours_mean, k * r.ci_low, k * r.ci_high, bold=True)
        diff = difference(k * r.ours_mean, k * r.paper)
        mark = ("<span style='color:#1a7f37'>✓ yes</span>" if r.within_tolerance
                else "<span style='color:#cf222e'>✗ no</span>")
    return (f"<tr><td style='color:{style.PALETTE.get(r.algorithm, 'black')}'><b>{name}</b></td><td>{where}</td>"
            f"<td>{METRIC_NAMES[r.metric]}</td><td>{num(k * r.paper)}</td><td>{ours}</td><td>{diff}</td>"
            f"<td>{r.tolerance}</td><td>{mark}</td></tr>")


def published_html(compare) -> str:
    """One HTML table per scenario of `published_vs_ours`."""
    html = ""
    for scen, d in compare.groupby("scenario", sort=False):
        title = (f"<p><b>{SCENARIO_TITLES.get(scen, scen)}</b> (from <code>{study_file(sq.SCENARIO_STUDY[scen])}"
                 "</code>)")
        ran = d[d["ours_mean"].notna()]
        if ran.empty:
            html += f"{title}: the paper's {len(d)} numbers are not compared: the study did not run in this build.</p>"
            continue
        body = "".join(published_row_html(r) for r in ran.itertuples())
        rest = f"; {len(d) - len(ran)} further numbers of the paper not run in this build" if len(ran) < len(d) else ""
        html += (f"{title}{rest}</p>" + chapter.scroll_html(
                     "<table class='repro'><thead><tr><th>algorithm</th><th>setting</th><th>metric (unit)</th>"
                     "<th>paper</th><th>ours: mean [95% CI]</th><th>ours − paper</th><th>tolerance</th>"
                     f"<th>within tolerance</th></tr></thead><tbody>{body}</tbody></table>"))
    return html


def published_summary(compare, link) -> list:
    """Two lines: how many of the numbers we ran lie within the tolerance, overall and per metric."""
    ran = compare[compare["within_tolerance"].notna()]
    by = ran.groupby("metric", sort=False)["within_tolerance"].agg(["sum", "count"])
    return [f"**{int(ran['within_tolerance'].sum())} of {len(ran)} published numbers that we ran lie within the "
            f"tolerance** ({len(compare) - len(ran)} not run). {link}.",
            "Per metric: " + "; ".join(f"{METRIC_NAMES[m].split(' (')[0]} {int(r['sum'])} of {int(r['count'])}"
                                       for m, r in by.iterrows()) + "."]


# --------------------------------------------------------------------------- where we differ

def our_mean(tables, study, alg, metric, alpha=None, **params) -> float:
    c = sq.qt_cell(tables, study, alg, metric, alpha, **params)
    return np.nan if c is None else c["mean"]


def ns3_bbr_1bdp(reference_dir) -> str:
    """' ns-3 3.44's own BBR gets 87.3-91.5 Mbit/s ...': the sealed ns-3 records of the paper's BBR at 1 BDP
    (reference/ns3_qtcol/), which decide that number's fault ('' when the folder has none)."""
    from simulator import peer_records

    path = Path(reference_dir) / "ns3_qtcol" / "records.jsonl"
    if not path.exists():
        return ""
    goodput = [r["metrics"]["goodput_mbps"] for r in peer_records.read(path)]
    return (f" {NS3}'s own BBR (TcpBbr) in the same set-up gets {num(min(goodput), 3)}-{num(max(goodput), 3)} "
            f"Mbit/s over {len(goodput)} seeds (sealed records, reference/ns3_qtcol/), as ours: the paper's code or "
            "set-up is at fault, not our simulator.")


def disagreements(tables, reference, reference_dir="reference") -> str:
    """Markdown list of our largest departures from the paper, each only when this build's numbers show
    it (empty if none does)."""
    p = lambda *a, **k: paper(reference, *a, **k)  # noqa: E731
    v = lambda *a, **k: our_mean(tables, *a, **k)  # noqa: E731
    ok = lambda *xs: not any(np.isnan(x) for x in xs)  # noqa: E731
    lines = []
    g_cubic, plr_cubic = v("qt_single_static", "cubic", "goodput_mbps", flows=1), v("qt_single_static", "cubic", "plr", flows=1)
    g_qtcol = v("qt_single_static", "qtcol", "goodput_mbps", 1.2, flows=1)
    if ok(g_cubic, plr_cubic) and plr_cubic < p("single_static", "cubic", "plr") / 2 \
            and g_cubic > p("single_static", "cubic", "goodput"):
        above = f" and above our QtCol α=1.2's ({num(g_qtcol)})" if ok(g_qtcol) and g_cubic > g_qtcol else ""
        lines.append(f"- **Our CUBIC loses far less than the authors' ns-3 CUBIC.** In the single-flow 5 BDP run its PLR "
                     f"is {num(plr_cubic, 2)} against the paper's {p('single_static', 'cubic', 'plr'):g}, so its goodput "
                     f"({num(g_cubic)} Mbit/s) is above the paper's {p('single_static', 'cubic', 'goodput'):g}{above}: a "
                     "flow that almost never retransmits loses nothing in the authors' goodput formula.")
    rtt_bbr = v("qt_single_static", "bbr", "median_rtt_ms", flows=1)
    if ok(rtt_bbr) and rtt_bbr < 0.85 * p("single_static", "bbr", "median_rtt"):
        lines.append(f"- **Our single BBR flow keeps a shorter queue than the paper's.** Median RTT {num(rtt_bbr, 3)} ms "
                     f"against {p('single_static', 'bbr', 'median_rtt'):g} ms.")
    u = {a: v(MULTI, a, "utilization", None, flows=5, duration=400) for a in ("cubic", "bbr")}
    pg = {a: p("multiflow", a, "goodput", al) for a, al in (("cubic", None), ("bbr", None), ("qtcolfair", 1.2))}
    if ok(*u.values()) and u["cubic"] > u["bbr"]:
        lines.append(f"- **With 5 flows the utilization ranking differs**: CUBIC {num(100 * u['cubic'], 3)}% > BBR "
                     f"{num(100 * u['bbr'], 3)}%, while the paper has CUBIC {num(pg['cubic'], 3)}% < BBR "
                     f"{num(pg['bbr'], 3)}% < QtColFair {num(pg['qtcolfair'], 3)}%.")
    j = {a: v(MULTI, "qtcol", "jain", a, flows=5, duration=400) for a in (1.1, 1.2, 1.5)}
    if ok(j[1.2]) and j[1.2] > p("multiflow", "qtcol", "jain", 1.2) + 0.05:
        starve = [f"α={a:g} ({num(x, 2)})" for a, x in j.items() if a != 1.2 and ok(x) and x < 0.5]
        lines.append(f"- **QtCol α=1.2 is fairer in our run** (Jain {num(j[1.2], 2)}) than the paper's "
                     f"{p('multiflow', 'qtcol', 'jain', 1.2):g}" + (f"; {' and '.join(starve)} do starve flows as "
                                                                     "published" if starve else "") + ".")
    b1 = v(SWEEP, "bbr", "goodput_mbps", flows=5, buffer_bdp=1)
    if ok(b1) and b1 > p("buffer_sweep", "bbr", "goodput", buffer_bdp=1) + 1.5:
        lines.append(f"- **BBR at 1 BDP with 5 flows reaches {num(b1, 3)} Mbit/s** where the paper reports "
                     f"{p('buffer_sweep', 'bbr', 'goodput', buffer_bdp=1):g} Mbit/s." + ns3_bbr_1bdp(reference_dir))
    f0, b0 = (v(SWEEP, a, "utilization", al, flows=5, buffer_bdp=0.003) for a, al in (("qtcolfair", 1.2), ("bbr", None)))
    if ok(f0, b0) and f0 < b0:
        lines.append(f"- **QtColFair collapses in a near-zero buffer** (0.003 BDP, 1 packet): utilization "
                     f"{num(100 * f0, 3)}% with 5 flows, below BBR's {num(100 * b0, 3)}%; the paper places it between "
                     "CUBIC and BBR there.")
    if not lines:
        return ""
    return ("**Where we disagree with the paper** (details in the sections below and in the "
            "[scorecard](scorecard.html)):\n\n" + "\n".join(lines))


# --------------------------------------------------------------------------- time series per phase

def per_run(rr, summary) -> pd.DataFrame:
    """One row per run: its label, then the columns summary(algorithm, alpha, trace) returns."""
    return pd.DataFrame([{"algorithm": style.label(alg, alpha), **summary(alg, alpha, g)} for alg, alpha, g in rr])


def between(g, t0, t1):
    return g[(g["t"] >= t0) & (g["t"] < t1)]


def paper_range(reference, scenario, alg, kind, alpha=None) -> str:
    """'low-high' of the range the paper states for `kind` (inflight or rtt)."""
    return (f"{paper(reference, scenario, alg, f'{kind}_low', alpha):g}-"
            f"{paper(reference, scenario, alg, f'{kind}_high', alpha):g}")


def span(lo, hi, digits=4) -> str:
    """'lo–hi', one number when both ends are equal, '–' when the range is not given."""
    if lo is None or hi is None or pd.isna(lo) or pd.isna(hi):
        return "–"
    a, b = num(lo, digits), num(hi, digits)
    return a if a == b else f"{a}–{b}"


def paper_span(reference, scenario, alg, kind, alpha=None) -> tuple:
    """(low, high) of what the paper's text states for `kind` (inflight or rtt): its range, or its steady
    level twice; (None, None) when it states nothing for this run."""
    lo, hi = (paper_value(reference, scenario, alg, f"{kind}_{e}", alpha) for e in ("low", "high"))
    if lo is None:
        lo = hi = paper_value(reference, scenario, alg, f"{kind}_steady", alpha)
    return lo, hi


def single_ranges(ss, reference=None) -> pd.DataFrame:
    """5th-95th percentile and median of in-flight data and RTT per single-flow run after warm-up, and
    what the paper's text states for them."""
    def ranges(alg, alpha, g):
        w = warm(g)
        out = {}
        for kind, x in (("inflight", w["inflight_0"].dropna()), ("rtt", rtt_series(w).dropna())):
            out.update({f"{kind}_p05": x.quantile(.05), f"{kind}_p95": x.quantile(.95), f"{kind}_median": x.median()})
            out[f"paper_{kind}_low"], out[f"paper_{kind}_high"] = paper_span(reference, "single_static", alg, kind,
                                                                           alpha)
        return out
    return per_run(ss, ranges)


def single_ranges_shown(d) -> pd.DataFrame:
    return pd.DataFrame({
        "algorithm": d["algorithm"],
        "in flight p05–p95 (packets)": [span(a, b, 3) for a, b in zip(d["inflight_p05"], d["inflight_p95"])],
        "median in flight (packets)": [num(v, 3) for v in d["inflight_median"]],
        "paper: in flight (packets)": [span(a, b) for a, b in zip(d["paper_inflight_low"], d["paper_inflight_high"])],
        "RTT p05–p95 (ms)": [span(a, b, 3) for a, b in zip(d["rtt_p05"], d["rtt_p95"])],
        "median RTT (ms)": [num(v, 3) for v in d["rtt_median"]],
        "paper: RTT (ms)": [span(a, b) for a, b in zip(d["paper_rtt_low"], d["paper_rtt_high"])]})


def single_ranges_caption() -> str:
    return ("Table: ranges of the single-flow time series after the 10 s warm-up (first seed), and the ranges or "
            "steady levels the paper's text states (Section 5.2; – where it states none). "
            f"Made from `{study_file('qt_single_static')}`.")


PHASES = ((10, 25), (25, 50), (50, 100))   # bandwidth change: 100, 25, 500 Mbit/s


def bandwidth_phases(rr, reference=None) -> pd.DataFrame:
    """RTT 5th-95th percentiles per phase of the bandwidth change (100, 25, 500 Mbit/s), and the RTT
    range the paper's text states for the whole run."""
    def phases(alg, alpha, g):
        out = {}
        for a, b in PHASES:
            r = rtt_series(between(g, a, b)).dropna()
            out[f"rtt_{a}_{b}s_p05"], out[f"rtt_{a}_{b}s_p95"] = r.quantile(.05), r.quantile(.95)
        out["paper_rtt_low"], out["paper_rtt_high"] = paper_span(reference, "bandwidth_change", alg, "rtt", alpha)
        return out
    return per_run(rr, phases)


def bandwidth_phases_shown(d) -> pd.DataFrame:
    cols = {"algorithm": d["algorithm"]}
    for (a, b), rate in zip(PHASES, ("100", "25", "500")):
        cols[f"RTT {a}–{b} s, {rate} Mbit/s: p05–p95 (ms)"] = [span(x, y, 3) for x, y in
                                                             zip(d[f"rtt_{a}_{b}s_p05"], d[f"rtt_{a}_{b}s_p95"])]
    cols["paper: RTT over the run (ms)"] = [span(x, y) for x, y in zip(d["paper_rtt_low"], d["paper_rtt_high"])]
    return pd.DataFrame(cols)


def bandwidth_phases_caption() -> str:
    return ("Table: RTT range per phase of the bandwidth change (first seed) and the range, or for QtCol and "
            "QtColFair the level, the paper's text states for the whole run (Section 5.3). "
            f"Made from `{study_file('qt_bandwidth_change')}`.")


DELAY_COLUMNS = {"inflight_15_25s": "in flight 15–25 s, 20 ms (packets)", "inflight_30_50s": "in flight 30–50 s, 40 ms "
                 "(packets)", "inflight_60_100s": "in flight 60–100 s, 20 ms (packets)",
                 "throughput_30_50s_mbps": "throughput 30–50 s (Mbit/s)"}


def delay_phases(rr) -> pd.DataFrame:
    """Mean in-flight data before, during and after the longer delay, and throughput during it."""
    return per_run(rr, lambda alg, alpha, g: {
        "inflight_15_25s": between(g, 15, 25)["inflight_0"].mean(),
        "inflight_30_50s": between(g, 30, 50)["inflight_0"].mean(),
        "inflight_60_100s": between(g, 60, 100)["inflight_0"].mean(),
        "throughput_30_50s_mbps": between(g, 30, 50)["throughput_mbps_0"].mean()})


def delay_phases_caption() -> str:
    return ("Table: mean data in flight and throughput per phase of the delay change (first seed); at 40 ms the BDP "
            "doubles to about 690 packets. The paper gives no number for these. "
            f"Made from `{study_file('qt_delay_change')}`.")


def delay_phases_shown(d) -> pd.DataFrame:
    return pd.DataFrame({"algorithm": d["algorithm"],
                         **{title: [num(v, 3) for v in d[c]] for c, title in DELAY_COLUMNS.items()}})


# --------------------------------------------------------------------------- tables of means

MULTI_METRICS = {"goodput_mbps": ("goodput (Mbit/s)", "goodput"), "jain": ("Jain's index", "jain"),
                 "median_rtt_ms": ("median RTT (ms)", "median_rtt")}


def multiflow_means(tables, reference=None) -> pd.DataFrame:
    """Goodput, Jain's index and median RTT (mean and 95% CI) per grid point of the multi-flow study,
    the paper's value beside each (five flows only); empty if the study did not run."""
    d = tables[(tables["study"] == MULTI) & (tables["metric"].isin(list(MULTI_METRICS)))]
    rows = []
    for (alg, alpha, flows, duration), g in d.groupby(["algorithm", d["alpha"].fillna(0), "flows", "duration"]):
        row = {"algorithm": alg, "alpha": alpha or None, "flows": int(flows), "duration_s": duration}
        for metric, (_, ref_metric) in MULTI_METRICS.items():
            m = g[g["metric"] == metric]
            row.update({f"{metric}_{c}": (m[c].iloc[0] if len(m) else np.nan) for c in ("mean", "ci_low", "ci_high")})
            row[f"paper_{metric}"] = paper_value(reference, "multiflow", alg, ref_metric, alpha or None, flows=flows,
                                                 duration_s=duration)
        rows.append(row)
    out = pd.DataFrame(rows)
    if out.empty:
        return out
    rank = out["algorithm"].map({a: i for i, a in enumerate(style.ALGORITHMS)})
    return out.assign(r=rank, a=out["alpha"].fillna(0)).sort_values(["flows", "r", "a"]).drop(columns=["r", "a"]) \
        .reset_index(drop=True)


def multiflow_means_caption() -> str:
    return ("Table: every grid point of the multi-flow study (2-4 flows: 100 s runs; 5 flows: 400 s), our mean with "
            "its 95% CI over the seeds, and the paper's value where it gives one (5 flows). "
            f"Made from `{study_file(MULTI)}`.")


def multiflow_means_shown(d) -> pd.DataFrame:
    cols = {"algorithm": [style.label(a, al) for a, al in zip(d["algorithm"], d["alpha"])],
            "flows": d["flows"].astype(int), "run (s)": [num(v) for v in d["duration_s"]]}
    for metric, (title, _) in MULTI_METRICS.items():
        cols[f"{title}: mean [95% CI]"] = [number_format.mean_ci_html(m, lo, hi) for m, lo, hi in
                                           zip(d[f"{metric}_mean"], d[f"{metric}_ci_low"], d[f"{metric}_ci_high"])]
        cols[f"paper: {title}"] = [num(v) for v in d[f"paper_{metric}"]]
    return pd.DataFrame(cols)


SWEEP_METRICS = {"utilization": "utilization (%)", "plr": "PLR (%)", "mean_rtt_ms": "mean RTT (ms)"}


def buffer_sweep_5flows(tables, reference=None) -> pd.DataFrame:
    """Utilization and PLR (in %) and mean RTT, our means, per buffer size and grid point (algorithm and
    alpha) of the five-flow sweep, the paper's utilization beside ours."""
    bs = tables[(tables["study"] == SWEEP) & (tables["flows"] == 5) & tables["metric"].isin(list(SWEEP_METRICS))]
    if bs.empty:
        return pd.DataFrame()
    w = bs.pivot_table(index=["buffer_bdp", "algorithm", bs["alpha"].fillna(0)], columns="metric",
                       values="mean").reset_index()
    w = w.rename(columns={"alpha": "a"}).assign(alpha=lambda x: x["a"].where(x["a"] > 0))
    w["utilization"] *= 100
    w["plr"] *= 100
    # the paper's goodput in Mbit/s on a 100 Mbit/s link: its utilization in %
    w["paper_utilization"] = [paper_value(reference, "buffer_sweep", a, "goodput", al, flows=5, buffer_bdp=b)
                              for a, al, b in zip(w["algorithm"], w["alpha"], w["buffer_bdp"])]
    w["r"] = w["algorithm"].map({a: i for i, a in enumerate(style.ALGORITHMS)})
    w = w.sort_values(["buffer_bdp", "r", "a"])
    return w[["buffer_bdp", "algorithm", "alpha", "utilization", "paper_utilization", "plr", "mean_rtt_ms"]] \
        .rename(columns={"utilization": "utilization_pct", "plr": "plr_pct"}).reset_index(drop=True)


def buffer_sweep_caption() -> str:
    return ("Table: five flows, our means per buffer size and algorithm (utilization as the authors compute it, PLR, "
            "mean RTT) and the paper's utilization (1-10 BDP; – where it gives none). "
            f"Made from `{study_file(SWEEP)}`.")


def buffer_sweep_5flows_shown(w) -> pd.DataFrame:
    return pd.DataFrame({
        "buffer (BDP)": [num(v) for v in w["buffer_bdp"]],
        "algorithm": [style.label(a, al) for a, al in zip(w["algorithm"], w["alpha"])],
        "utilization (%)": [num(v, 3) for v in w["utilization_pct"]],
        "paper: utilization (%)": [num(v, 3) for v in w["paper_utilization"]],
        "PLR (%)": [num(v, 2) for v in w["plr_pct"]],
        "mean RTT (ms)": [num(v, 3) for v in w["mean_rtt_ms"]]})


def device_queue_utilization(tables, bdp=0.003) -> str:
    """Our utilization per grid point at the smallest buffer with the device queue."""
    dq = tables[tables["study"] == DEVQ]
    d = dq[(dq["metric"] == "utilization") & np.isclose(dq["buffer_bdp"], bdp)]
    return (f"At {bdp:g} BDP with the device queue, utilization is "
            + ", ".join(f"{style.label(r.algorithm, r.alpha)} {100 * r.mean:.1f}%" for r in d.itertuples()) + ".")
