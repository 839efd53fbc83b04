"""The NS-2 chapter's section on NS-2 2.35 itself: the paper's statement, NS-2's value and ours side by side per
scenario and algorithm, how many grid points agree on goodput, and each claim decided on NS-2's own output.

NS-2's values come from its committed records (reference/ns2_sim/, simulator/validation/ns2_records.py) turned
into a table of our shape (ns2_agreement.ns2_tables), so every number and verdict is computed the same way on
both sides (claims: claims_ns2.build, the one engine and rule).
"""
from __future__ import annotations

import pandas as pd

from simulator import study_files
from simulator.report import claim_words, number_format, paper_values, style
from simulator.report.papers.ns2 import claims as claims_ns2
from simulator.report.papers.ns2 import agreement as ns2_agreement
from simulator.report.papers.ns2 import tables as tables_ns2
from simulator.report.papers.ns2.figures import ALGS, FIGURE_FLOWS, PAPER_FIGURES, SWEEP_LABELS
from simulator.report.papers.ns2.tables import SCENARIOS
from simulator import peers

NS2 = peers.label("ns2")

# metric -> column header (unit); goodput first: the agreement measure
SIDE_METRICS = {"throughput_mbps": "goodput, all flows (Mbit/s)", "cwnd_mean": "cwnd (packets)",
                "latency_mean_s": "mean latency (s)", "loss_pct": "loss (%)", "timeouts": "timeouts (per run)"}
MARKERS = {"reno": "o", "newreno": "s", "vegas": "^"}
# the paper's stated metrics in words (reference/ns2/paper_numbers.csv)
STATED = {"cwnd_mean": "cwnd", "throughput_per_flow_mbps": "throughput per flow", "latency_max_s": "peak latency"}
VERDICT_WORDS = {"reproduced": "reproduced", "contradicted": "contradicted", "inconclusive": "inconclusive",
                 "not_testable": "not testable"}


def _at_figure_point(t: pd.DataFrame, study: str) -> pd.DataFrame:
    """Rows of `study` at window 20 and (where the study sweeps something else) the figures' flow count."""
    d = t[(t["study"] == study) & (t["window"].astype(int) == 20)]
    if claims_ns2.SWEEPS[study] != "flows":
        d = d[d["flows"].astype(int) == FIGURE_FLOWS]
    return d


def _paper_says(numbers, study, alg, value) -> str:
    """What the paper states for `alg` at swept value `value` of `study` ('' where it states nothing)."""
    if numbers is None or numbers.empty:
        return ""
    param = claims_ns2.SWEEPS[study]
    params = {param: value, **({"flows": value if param == "flows" else FIGURE_FLOWS})}
    rows = numbers[(numbers["study"] == study) & (numbers["algorithm"] == alg)]
    said = [f"{STATED.get(r['metric'], r['metric'])} {paper_values.value(r)} {r['unit']}" for _, r in rows.iterrows()
            if paper_values.holds(r["where"], params)]
    return "; ".join(said)


def side_by_side(ours: pd.DataFrame, ns2: pd.DataFrame, study: str, numbers=None) -> pd.DataFrame:
    """Per swept value and algorithm (window 20, the figures' flow count): the paper's number where it states
    one, and each metric as NS-2 2.35's mean | ours, with ours / NS-2's goodput."""
    param = claims_ns2.SWEEPS[study]
    a, b = _at_figure_point(ours, study), _at_figure_point(ns2, study)
    label = SWEEP_LABELS[study][0]
    rows = []
    for point, g in b.groupby("point", sort=False):
        first = g.iloc[0]
        mine = a[a["point"] == point].set_index("metric")["mean"]
        theirs = g.set_index("metric")["mean"]
        row = {SWEEP_LABELS[study][1]: label(first[param]), "algorithm": style.label(first["algorithm"], None),
               "the paper states": _paper_says(numbers, study, first["algorithm"], first[param]) or "–"}
        for m, head in SIDE_METRICS.items():
            row[f"{head}: NS-2 | ours"] = f"{number_format.num(theirs.get(m))} | {number_format.num(mine.get(m))}"
        row["goodput ours / NS-2"] = number_format.num(mine.get("throughput_mbps") / theirs.get("throughput_mbps"))
        rows.append((_order(first[param]), ALGS.index(first["algorithm"]) if first["algorithm"] in ALGS else 9, row))
    return pd.DataFrame([r for *_, r in sorted(rows, key=lambda x: x[:2])])


def _order(v):
    """Numbers ascending, then names (linear, mesh, star; DropTail, FQ)."""
    try:
        return 0, float(v), ""
    except (TypeError, ValueError):
        return 1, 0.0, str(v)


def agreement_table(ours: pd.DataFrame, ns2: pd.DataFrame) -> pd.DataFrame:
    """Per window setting and algorithm: distinct grid points whose goodput is within the tolerance of
    NS-2's, of those compared, and the range of ours / NS-2's."""
    t = ns2_agreement.by_algorithm(ours, ns2)
    return pd.DataFrame({
        "window_ (packets)": t["window"].map({20: "20 (NS-2 default)", 0: "0 (no cap)"}),
        "algorithm": [style.label(a, None) for a in t["algorithm"]],
        f"points within {ns2_agreement.TOLERANCE:.0%} of NS-2": [f"{i} of {n}" for i, n in zip(t["inside"], t["points"])],
        "goodput ours / NS-2, lowest–highest": [f"{number_format.num(lo)}–{number_format.num(hi)}"
                                                 for lo, hi in zip(t["ratio_min"], t["ratio_max"])]})


def outside_points(ours: pd.DataFrame, ns2: pd.DataFrame) -> pd.DataFrame:
    """Every distinct grid point outside the tolerance, worst first."""
    a = ns2_agreement.agreement(ours, ns2)
    a = a[~a["inside"]]
    a = a.assign(off=(a["ratio"] - 1).abs()).sort_values("off", ascending=False)   # of the outside rows only
    return pd.DataFrame({
        "scenario": [SCENARIOS.get(s, s) for s in a["study"]],
        "grid point": [claim_words.prose(p.replace("~", " ").replace("/", ", ")) for p in a["point"]],   # reader words
        "goodput NS-2 (Mbit/s)": [number_format.num(v) for v in a["mean_ns2"]],
        "goodput ours (Mbit/s)": [number_format.num(v) for v in a["mean_ours"]],
        "ours / NS-2": [number_format.num(v) for v in a["ratio"]]})


def claims_both(ours_claims: pd.DataFrame, ns2_rows: list) -> pd.DataFrame:
    """Each claim row's verdict on NS-2 2.35's output and on ours, and what the pair says."""
    theirs = pd.DataFrame(ns2_rows)[["item", "variant", "verdict"]].rename(
        columns={"item": "claim", "verdict": f"{NS2}"})
    both = ours_claims[["claim", "variant", "verdict"]].rename(columns={"verdict": "ours"}).merge(
        theirs, on=["claim", "variant"], how="left")
    both["reading"] = [_reading(n, o) for n, o in zip(both[f"{NS2}"], both["ours"])]
    for c in (f"{NS2}", "ours"):
        both[c] = both[c].map(lambda v: VERDICT_WORDS.get(v, "–"))
    return both[["claim", "variant", f"{NS2}", "ours", "reading"]]


def _reading(ns2: str, ours: str) -> str:
    if ns2 == ours == "reproduced":
        return "NS-2 and ours reproduce the paper"
    if ns2 == "contradicted" and ours == "contradicted":
        return "NS-2 itself contradicts the paper: the claim, not our model"
    if ns2 == ours:
        return f"same verdict on both ({VERDICT_WORDS.get(ns2, ns2)})"
    if ns2 == "reproduced":
        return "NS-2 reproduces it, ours does not: our model"
    if ours == "reproduced":
        return "ours reproduces it, NS-2 does not: the paper's claim does not hold in its own simulator"
    return "verdicts differ (neither reproduces the paper)"


def verdict_pairs(both: pd.DataFrame) -> pd.DataFrame:
    """How many claim rows got each (NS-2, ours) pair of verdicts."""
    counts = both.groupby([f"{NS2}", "ours"]).size().rename("claim rows").reset_index()
    return counts.sort_values("claim rows", ascending=False).reset_index(drop=True)


def goodput_figure(ours: pd.DataFrame, ns2: pd.DataFrame):
    """Our mean goodput against NS-2's at every distinct grid point, per algorithm, with the tolerance band."""
    import matplotlib.pyplot as plt
    import numpy as np

    a = ns2_agreement.agreement(ours, ns2)
    fig, axes = plt.subplots(1, 2, figsize=(10, 4.4), sharex=True, sharey=True)
    lo, hi = a[["mean_ns2", "mean_ours"]].min().min() * 0.8, a[["mean_ns2", "mean_ours"]].max().max() * 1.2
    x = np.geomspace(lo, hi, 50)
    for ax, window in zip(axes, (20, 0)):
        d = a[a["window"].astype(int) == window]
        ax.fill_between(x, x * (1 - ns2_agreement.TOLERANCE), x * (1 + ns2_agreement.TOLERANCE), color="0.85",
                        label=f"within {ns2_agreement.TOLERANCE:.0%}")
        ax.plot(x, x, color="0.5", lw=0.8)
        for alg, g in sorted(d.groupby("algorithm"), key=lambda kv: ALGS.index(kv[0]) if kv[0] in ALGS else 9):
            hollow = alg == "newreno"           # drawn over Reno, whose points it mostly shares
            ax.scatter(g["mean_ns2"], g["mean_ours"], s=30 if hollow else 14, marker=MARKERS.get(alg, "o"),
                       facecolors="none" if hollow else style.PALETTE[alg], edgecolors=style.PALETTE[alg],
                       label=style.label(alg, None))
        ax.set(xscale="log", yscale="log", xlim=(lo, hi), ylim=(lo, hi), xlabel=f"{NS2} goodput (Mbit/s)",
               title="window 20 (NS-2 default)" if window else "window 0 (no cap)")
    axes[0].set_ylabel("our goodput (Mbit/s)")
    axes[0].legend(loc="upper left", fontsize=9)
    return fig


def section(ch, ours: pd.DataFrame, ns2: pd.DataFrame, ours_claims: pd.DataFrame, numbers=None) -> None:
    """The whole section: agreement counts and figure, the side-by-side tables, the claims on both; a note
    instead when this build ran none of the grid points NS-2's records hold (a profile or study of one's own)."""
    if ns2_agreement.agreement(ours, ns2).empty:
        ch.markdown(f"{NS2}'s records (`reference/ns2_sim/`) hold the grid points of `config/studies/ns2/ns2_*.yaml` "
                    "with 10 seeds; this build ran none of those points, so there is nothing to put beside them.")
        return
    inside, total = ns2_agreement.summary(ours, ns2)
    ch.markdown(f"**{inside} of {total}** distinct grid points agree within {ns2_agreement.TOLERANCE:.0%} on goodput "
                f"(our mean over the seeds against {NS2}'s over the same seeds and start times).")
    ch.figure(goodput_figure(ours, ns2), "ns2_sim_goodput")
    data = ns2_agreement.agreement(ours, ns2)[["study", "point", "algorithm", "window", "mean_ns2", "mean_ours",
                                               "ratio", "inside"]]
    ch.save_download(data, "ns2_sim_goodput.csv")
    ch.caption(f"Figure: our mean goodput (all flows, Mbit/s, log scale) against {NS2}'s at every "
                       "distinct grid point of the five scenarios (Figures 2-9 of the paper), per algorithm; grey: "
                       f"within {ns2_agreement.TOLERANCE:.0%}. Made from `config/studies/ns2/ns2_*.yaml` and "
                       "`reference/ns2_sim/`. " + ch.download_link("ns2_sim_goodput.csv", "Data of this figure (CSV)") + ".")
    ch.table(agreement_table(ours, ns2), "ns2_sim_agreement.csv",
             note="Distinct grid points (a point several scenarios share counts once). {link}.")
    outside = outside_points(ours, ns2)
    if outside.empty:
        ch.markdown(f"No grid point's goodput is more than {ns2_agreement.TOLERANCE:.0%} from NS-2's.")
    else:
        ch.table(outside, "ns2_sim_outside.csv",
                 note=f"Every grid point where our goodput is more than {ns2_agreement.TOLERANCE:.0%} from NS-2's; "
                      "the section on agent details below says why. {link}.")
    for study in claims_ns2.SWEEPS:
        ch.table(side_by_side(ours, ns2, study, numbers), f"{study}_ns2_sim.csv",
                 note=f"Scenario {SCENARIOS[study]} ({PAPER_FIGURES[study]} of the paper), window 20"
                      f"{'' if study == 'ns2_flows' else f', {FIGURE_FLOWS} flows'}: the paper's number where it "
                      "states one, then " + NS2 + "'s mean and ours over the same 10 seeds (start times). {link}. "
                      f"Made from `{study_files.repo_path(study)}` and `reference/ns2_sim/{study}.jsonl`.")
    silent = " ".join(tables_ns2.lossless_timeouts_against(ours, ns2, study) for study in claims_ns2.SWEEPS).strip()
    if silent:
        ch.markdown(silent)
    rows, _ = claims_ns2.build(ns2)
    both = claims_both(ours_claims, rows)
    ch.table(verdict_pairs(both), "ns2_sim_verdict_pairs.csv",
             note="Claim rows by their verdict on " + NS2 + "'s output and on ours (same claims, engine and rule). {link}.")
    ch.table(both, "ns2_sim_claims.csv",
             note=f"Every claim row decided on {NS2}'s records and on our runs by the same rule; *reading* says "
                  "what the pair separates: a claim NS-2 itself does not reproduce is the paper's, a claim only "
                  "ours misses is our model's. {link}.")
