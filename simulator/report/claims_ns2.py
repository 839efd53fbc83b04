"""Claims ns2-1..ns2-7 of the NS-2 paper (reference/papers.yaml: ns2: Reno, NewReno and Vegas
on wired topologies) decided from our tables results/tables/ns2_*.csv (10 seeds per point).

Every claim is judged twice, once per NS-2 window_ setting of the studies:
  variant "window20": window 20, NS-2's default receive-window cap (our primary setting: the paper
                      does not say it changed it);
  variant "nocap":    window 0, no cap (sensitivity).
ns2-1..ns2-6 are judged once more per count of "multiple" flows: the paper gives the count in none of
its scenarios, so it is not chosen but swept (every count above one that the claim's study ran: 2-5),
and the claim is decided at each count by the rule on its own: one row per window and count, variant
"window20, 3 flows" (PER_FLOW_COUNT names each claim's study). ns2-7 takes every configuration, so
every count. The comparisons are built in simulator/report/claims_ns2_parts.py.

Every claim is decided by the one rule of the scorecard (simulator/report/claim_rule.py): it is a list
of comparisons between table rows ("a is lower than b", "a in [lo, hi]"); the claim is reproduced
when every comparison holds by mean and significantly (Welch's t-test, Holm-adjusted across the
claim's comparisons, 5%), contradicted when any is significantly reversed, inconclusive otherwise.
Runs identical over seeds (sd 0) are compared by value. Values that are floating-point zeros
(|mean| and sd <= 1e-9, e.g. the latency_sd_s of a constant delay, 1e-14 s) count as exactly 0.
  * A loss comparison where both sides dropped nothing (mean loss 0) cannot be made: that instance is
    left out (the note lists it). A table cell the claim needs that is missing makes the claim
    not_testable. A part whose every instance is left out makes it not_testable too, unless the
    comparisons that could be made already contradict it (a claim of several parts is false when one
    part is significantly reversed); the note gives the comparisons that could be made.
  * "rises with x" (falls): the value at the largest x is above (below) the value at the smallest x.
    The steps between neighbouring x are listed in the note (a step significantly the other way is
    flagged) but are not part of the verdict: the rule has no "not significantly reversed" test.

  ns2-1 (topology study, every topology, at each flow count): Vegas has the lowest cwnd_cv and the
        lowest cwnd_stable_s; NewReno has fewer timeouts than Reno where Reno or NewReno drops packets.
  ns2-2 (topology study, every topology, at each flow count): Vegas has the lowest latency_mean_s, the
        lowest latency_sd_s (variation of the 0.5 s mean latency over time) and the lowest loss_pct.
  ns2-3 (flows study, at each swept count of flows above one, separately): Vegas cwnd_mean in [2, 4]
        packets, Reno and NewReno cwnd_mean in [3, 4], Vegas throughput_per_flow_mbps in [0.25, 0.45]
        (the paper: about 0.35); each range is two comparisons against its ends (two one-sided tests).
  ns2-4 (bandwidth study, at each flow count): Reno and NewReno cwnd_mean rise with bandwidth; Vegas's
        cwnd_mean is below both at every bandwidth; loss_pct falls with bandwidth for every variant that
        drops packets.
  ns2-5 (delay study, at each flow count): throughput_cv (the paper's "throughput fluctuations") at 150,
        500, 1000 and 1500 ms is above its value at 100 ms for every variant; at 500, 1000 and 1500 ms
        Vegas has lower latency_mean_s and loss_pct than Reno and NewReno.
  ns2-6 (queue study, at each flow count): fq has lower latency_mean_s and lower loss_pct than droptail
        for every variant; the note quotes latency_max_s against the paper's peaks (0.08-0.09 s FQ,
        0.14 s DropTail Reno).
  ns2-7 (every study): at every distinct configuration (every flow count too) where Reno or NewReno
        drops packets, NewReno has fewer timeouts than Reno and a higher throughput_mbps than Reno's
        ("copes better"; a tie does not hold, as the rule has no non-inferiority test).

Usage (rule `claims` in workflow/rules/report.smk):
  python -m simulator.report.claims_ns2 --tables results/tables/ns2_*.csv \
      --traces results/traces/ns2_*.csv --out results/claims/ns2.csv --notes results/claims/ns2_notes.csv
"""
from __future__ import annotations

import math

import pandas as pd

from simulator.report import claim_rule
from simulator.report import claims_common as cc
from simulator.report.claims_ns2_parts import ALGS, NAMES, Claim, cell, extreme_part, fmt, no_drops, sweep_values
from simulator.report.verdicts import decision_rows

PAPER = "ns2"
VARIANTS = {"window20": 20, "nocap": 0}      # variant -> the studies' `window` value
CLAIM_IDS = [f"ns2-{i}" for i in range(1, 8)]
HIGH_DELAYS = (500, 1000, 1500)              # the paper's "high delay (500 - 1500 ms)"
BASE_DELAY = 100                             # the paper's base delay
NS23_VEGAS_CWND, NS23_RENO_CWND, NS23_TPUT = (2.0, 4.0), (3.0, 4.0), (0.25, 0.45)
PAPER_PEAKS = {"fq": "0.08-0.09 s (Reno, NewReno)", "droptail": "up to 0.14 s (Reno)"}
# the parameters that identify a configuration (besides algorithm and window)
CONFIG_KEYS = ("topology", "flows", "bandwidth_mbps", "delay_ms", "queue")
FLOWS_STUDY = "ns2_flows"
# claim -> its study: the claim is decided at every count of "multiple" flows that study ran
PER_FLOW_COUNT = {"ns2-1": "ns2_topology", "ns2-2": "ns2_topology", "ns2-3": FLOWS_STUDY, "ns2-4": "ns2_bandwidth",
                  "ns2-5": "ns2_delay", "ns2-6": "ns2_queue"}
SWEPT_FLOWS = ('The paper does not give the number of "multiple" flows, so it is not chosen: it is swept and '
               "the claim is decided at each count by the one rule")
SWEEPS = {"ns2_topology": "topology", "ns2_flows": "flows", "ns2_bandwidth": "bandwidth_mbps",
          "ns2_delay": "delay_ms", "ns2_queue": "queue"}     # study -> its swept parameter


# --------------------------------------------------------------------------- the claims

def claim_1(tables, window, claim, flows):
    st, tops = "ns2_topology", sweep_values(tables, "ns2_topology", "topology")
    f = {"window": window, "flows": flows}
    extreme_part(claim, tables, st, "topology", tops, "cwnd_cv", "(a)", "Vegas lowest cwnd_cv", fixed=f)
    extreme_part(claim, tables, st, "topology", tops, "cwnd_stable_s", "(b)", "Vegas lowest cwnd_stable_s (s)",
                 fixed=f)
    p_nr = claim.part("(c)", "NewReno fewer timeouts than Reno where packets are dropped")
    for top in tops:
        nr, r = (cell(tables, st, "timeouts", algorithm=a, topology=top, **f) for a in ("newreno", "reno"))
        lnr, lr = (cell(tables, st, "loss_pct", algorithm=a, topology=top, **f) for a in ("newreno", "reno"))
        if any(x is None for x in (nr, r, lnr, lr)):
            p_nr.missing(top)
        elif no_drops(lnr) and no_drops(lr):
            p_nr.skip(f"{top} (loss_pct 0 for Reno and NewReno)")
        else:
            p_nr.lower(nr, r, f"{top} timeouts", "NewReno", "Reno")
    p_nr.close()
    stat = cell(tables, st, "cwnd_cv", algorithm="vegas", topology="mesh", **f)
    return "cwnd_cv (Vegas lowest); cwnd_stable_s; timeouts NewReno < Reno", stat, math.nan


def claim_2(tables, window, claim, flows):
    st, tops = "ns2_topology", sweep_values(tables, "ns2_topology", "topology")
    f = {"window": window, "flows": flows}
    extreme_part(claim, tables, st, "topology", tops, "latency_mean_s", "(a)", "Vegas lowest latency_mean_s (s)",
                 fixed=f)
    extreme_part(claim, tables, st, "topology", tops, "latency_sd_s", "(b)",
                 "Vegas most stable latency (latency_sd_s, s)", fixed=f)
    extreme_part(claim, tables, st, "topology", tops, "loss_pct", "(c)", "Vegas lowest loss_pct (%)", loss=True,
                 fixed=f)
    stat = cell(tables, st, "latency_mean_s", algorithm="vegas", topology="mesh", **f)
    return "latency_mean_s, latency_sd_s, loss_pct (Vegas lowest)", stat, math.nan


def flow_counts(tables: pd.DataFrame, window, study: str = FLOWS_STUDY) -> list[int]:
    """The "multiple" flow counts `study` ran at this window: every count above one, ascending (one
    flow is the paper's "single" case, not a value of "multiple")."""
    if tables.empty or not {"study", "flows", "window"} <= set(tables):
        return []
    t = tables[(tables["study"] == study) & (tables["window"].astype(str) == str(window))]
    return sorted({int(x) for x in t["flows"].dropna()} - {1})


def claim_3(tables, window, claim, flows):
    """ns2-3 at one count of "multiple" flows (build decides it at every count the flows study ran)."""
    st, at = FLOWS_STUDY, f"{flows} flows"
    p_v = claim.part("(a)", f"Vegas cwnd_mean near 3 packets, in [{NS23_VEGAS_CWND[0]:g}, {NS23_VEGAS_CWND[1]:g}]")
    v = cell(tables, st, "cwnd_mean", algorithm="vegas", flows=flows, window=window)
    if v is None:
        p_v.missing(f"Vegas {at}")
    else:
        p_v.within(v, *NS23_VEGAS_CWND, "Vegas cwnd_mean")
    p_r = claim.part("(b)", f"Reno/NewReno cwnd_mean in [{NS23_RENO_CWND[0]:g}, {NS23_RENO_CWND[1]:g}] packets")
    for a in ("reno", "newreno"):
        r = cell(tables, st, "cwnd_mean", algorithm=a, flows=flows, window=window)
        if r is None:
            p_r.missing(f"{a} {at}")
        else:
            p_r.within(r, *NS23_RENO_CWND, f"{NAMES[a]} cwnd_mean")
    p_t = claim.part("(c)", f"Vegas throughput per flow about 0.35 Mbit/s, in [{NS23_TPUT[0]:g}, {NS23_TPUT[1]:g}]")
    t = cell(tables, st, "throughput_per_flow_mbps", algorithm="vegas", flows=flows, window=window)
    if t is None:
        p_t.missing(f"Vegas {at}")
    else:
        p_t.within(t, *NS23_TPUT, "Vegas throughput_per_flow_mbps")
    # context, not scored: the paper also says cwnd is higher with one flow, throughput higher with several
    ctx = []
    for a in ALGS:
        c1, cn = (cell(tables, st, "cwnd_mean", algorithm=a, flows=n, window=window) for n in (1, flows))
        t1, tn = (cell(tables, st, "throughput_mbps", algorithm=a, flows=n, window=window) for n in (1, flows))
        if all(x is not None for x in (c1, cn, t1, tn)):
            ctx.append(f"{NAMES[a]} cwnd 1 flow {fmt(c1)} vs {at} {fmt(cn)}, "
                       f"total throughput {fmt(t1)} vs {fmt(tn)} Mbit/s")
    if ctx:
        claim.extra = (" Context (not scored; the paper: cwnd higher with one flow, throughput higher with several): "
                       + "; ".join(ctx) + ".")
    return f"cwnd_mean (Vegas, {at})", v, 3.0


def claim_4(tables, window, claim, flows):
    st, bws = "ns2_bandwidth", sweep_values(tables, "ns2_bandwidth", "bandwidth_mbps")
    f = {"window": window, "flows": flows}
    p_up = claim.part("(a)", "Reno/NewReno cwnd_mean rises with bandwidth")
    for a in ("reno", "newreno"):
        rows = [(b, cell(tables, st, "cwnd_mean", algorithm=a, bandwidth_mbps=b, **f)) for b in bws]
        p_up.trend([(b, r) for b, r in rows if r is not None], f"{NAMES[a]} cwnd", rising=True)
    p_up.close()
    extreme_part(claim, tables, st, "bandwidth_mbps", bws, "cwnd_mean", "(b)", "Vegas cwnd_mean below Reno and NewReno",
                 fixed=f)
    p_loss = claim.part("(c)", "loss_pct falls with bandwidth")
    for a in ALGS:
        rows = [(b, cell(tables, st, "loss_pct", algorithm=a, bandwidth_mbps=b, **f)) for b in bws]
        p_loss.trend([(b, r) for b, r in rows if r is not None], f"{NAMES[a]} loss", rising=False, loss=True)
    p_loss.close()
    stat = cell(tables, st, "cwnd_mean", algorithm="reno", bandwidth_mbps=bws[-1], **f) if bws else None
    return "cwnd_mean vs bandwidth_mbps; loss_pct vs bandwidth_mbps", stat, math.nan


def claim_5(tables, window, claim, flows):
    st, f = "ns2_delay", {"window": window, "flows": flows}
    delays = sweep_values(tables, st, "delay_ms")
    p_var = claim.part("(a)", f"throughput_cv above its {BASE_DELAY} ms value at larger delays")
    for a in ALGS:
        base = cell(tables, st, "throughput_cv", algorithm=a, delay_ms=BASE_DELAY, **f)
        for d in (x for x in delays if x > BASE_DELAY):
            r = cell(tables, st, "throughput_cv", algorithm=a, delay_ms=d, **f)
            if base is None or r is None:
                p_var.missing(f"{a} {d} ms")
            else:
                p_var.lower(base, r, f"{NAMES[a]} throughput_cv", f"{BASE_DELAY} ms", f"{d} ms")
    p_var.close()
    high = [d for d in HIGH_DELAYS if d in delays]
    extreme_part(claim, tables, st, "delay_ms", high, "latency_mean_s", "(b)",
                 "Vegas lowest latency_mean_s (s) at 500-1500 ms", fixed=f)
    n_drop_parts = len(claim.no_drops)
    extreme_part(claim, tables, st, "delay_ms", high, "loss_pct", "(c)", "Vegas lowest loss_pct at 500-1500 ms",
                 loss=True, fixed=f)
    loss_untested = len(claim.no_drops) > n_drop_parts
    ctx = []
    for a in ALGS:
        c = [cell(tables, st, "cwnd_cv", algorithm=a, delay_ms=d, **f) for d in delays]
        if all(x is not None for x in c):
            ctx.append(f"{NAMES[a]} " + ", ".join(f"{d}: {x['mean']:.2f}" for d, x in zip(delays, c)))
    extra = (" Context (not scored) cwnd_cv by delay (ms): " + "; ".join(ctx) + ".") if ctx else ""
    rtx = [cell(tables, st, "retransmit_pct", algorithm=a, delay_ms=d, **f) for a in ALGS for d in high]
    if high and loss_untested and all(r is not None for r in rtx):
        lo, hi = min(r["mean"] for r in rtx), max(r["mean"] for r in rtx)
        extra += (f" No packet is dropped at {high[0]}-{high[-1]} ms, yet retransmit_pct is "
                  f"{lo:.2g}-{hi:.2g}%: spurious timeouts, consistent "
                  "with the 3 s initial RTO being shorter than the first RTT (>= 3 s there).")
    extra += (" At these delays the RTT (>= 3 s) is many times the 0.5 s throughput sampling interval, so "
              "throughput_cv there also measures the once-per-RTT burstiness of the ACK clock.")
    claim.extra = extra
    stat = cell(tables, st, "latency_mean_s", algorithm="vegas", delay_ms=max(high), **f) if high else None
    return "throughput_cv vs delay_ms; latency_mean_s, loss_pct at 500-1500 ms", stat, math.nan


def claim_6(tables, window, claim, flows):
    st, fx = "ns2_queue", {"window": window, "flows": flows}
    p_lat = claim.part("(a)", "fq latency_mean_s (s) below droptail")
    p_loss = claim.part("(b)", "fq loss_pct below droptail")
    peaks = []
    for a in ALGS:
        for metric, part in (("latency_mean_s", p_lat), ("loss_pct", p_loss)):
            f, d = (cell(tables, st, metric, algorithm=a, queue=q, **fx) for q in ("fq", "droptail"))
            if f is None or d is None:
                part.missing(f"{a} {metric}")
            else:
                part.lower(f, d, f"{NAMES[a]} {metric}", "fq", "droptail", loss=metric == "loss_pct")
        f, d = (cell(tables, st, "latency_max_s", algorithm=a, queue=q, **fx) for q in ("fq", "droptail"))
        if f is not None and d is not None:
            peaks.append(f"{NAMES[a]} fq {fmt(f)}, droptail {fmt(d)}")
    p_lat.close()
    p_loss.close()
    if peaks:
        claim.extra = (" Peak latency (latency_max_s, s; the paper's peaks: FQ " + PAPER_PEAKS["fq"] + ", DropTail "
                       + PAPER_PEAKS["droptail"] + "): " + "; ".join(peaks)
                       + ". Our one-way path has 0.3 s of propagation delay alone (3 links of 100 ms), so no latency "
                         "of ours can be near the paper's 0.08-0.14 s.")
    stat = cell(tables, st, "latency_max_s", algorithm="reno", queue="droptail", **fx)
    return "latency_mean_s, loss_pct fq < droptail; latency_max_s (Reno, droptail)", stat, 0.14


def configurations(tables: pd.DataFrame, window) -> list[tuple[str, dict]]:
    """Distinct (study, parameters) configurations with Reno and NewReno at this window; a
    configuration that several studies share (the base point) is counted once."""
    seen, out = set(), []
    t = tables[(tables["window"].astype(str) == str(window)) & tables["algorithm"].isin(["reno", "newreno"])]
    keys = [k for k in CONFIG_KEYS if k in t]
    for study in sorted(t["study"].unique()):
        s = t[t["study"] == study]
        for vals, _ in s.groupby([k for k in keys if s[k].notna().any()], dropna=False):
            vals = vals if isinstance(vals, tuple) else (vals,)
            params = dict(zip([k for k in keys if s[k].notna().any()], vals))
            ident = tuple(sorted({**{"queue": "droptail"}, **{k: str(v) for k, v in params.items()}}.items()))
            if ident not in seen:
                seen.add(ident)
                out.append((study, params))
    return out


def claim_7(tables, window, claim):
    p_to = claim.part("(a)", "NewReno fewer timeouts than Reno")
    p_tp = claim.part("(b)", "NewReno higher throughput_mbps than Reno")
    best, n_lossless = None, 0
    for study, params in configurations(tables, window):
        rows = {(m, a): cell(tables, study, m, algorithm=a, window=window, **params)
                for m in ("loss_pct", "timeouts", "throughput_mbps") for a in ("reno", "newreno")}
        if any(v is None for v in rows.values()):
            continue
        lr, lnr = rows[("loss_pct", "reno")], rows[("loss_pct", "newreno")]
        if no_drops(lr) and no_drops(lnr):
            n_lossless += 1
            continue
        key = SWEEPS.get(study)
        label = f"{study} {key}={params[key]}" if key in params else study
        if key != "flows" and "flows" in params:
            label += f", {params['flows']} flows"
        label += f" (loss Reno {lr['mean']:.3g}%, NewReno {lnr['mean']:.3g}%)"
        p_to.lower(rows[("timeouts", "newreno")], rows[("timeouts", "reno")], f"{label} timeouts", "NewReno", "Reno")
        p_tp.greater(rows[("throughput_mbps", "newreno")], rows[("throughput_mbps", "reno")],
                     f"{label} throughput_mbps", "NewReno", "Reno")
        if best is None or float(lr["mean"]) > float(best[0]["mean"]):
            best = (lr, rows[("timeouts", "newreno")])
    if best is None and n_lossless == 0:
        p_to.missing("no configuration with Reno and NewReno rows")
        p_tp.missing("no configuration with Reno and NewReno rows")
    elif best is None:
        p_to.skip(f"no drops for Reno or NewReno at any of the {n_lossless} configurations")
        p_tp.skip("no drops anywhere")
    p_to.close()
    p_tp.close()
    claim.extra = f" {n_lossless} configurations without any drop were left out."
    return "timeouts, throughput_mbps NewReno vs Reno where drops occur", (best[1] if best else None), math.nan


CLAIMS = {"ns2-1": claim_1, "ns2-2": claim_2, "ns2-3": claim_3, "ns2-4": claim_4, "ns2-5": claim_5,
          "ns2-6": claim_6, "ns2-7": claim_7}


def settings(cid: str, tables: pd.DataFrame, variant: str, window) -> list[tuple[str, dict, str]]:
    """(variant name, extra arguments of the claim function, what the note says of the setting) of each
    row of claim `cid` at this window: one row, or for a claim of PER_FLOW_COUNT one row per count of
    "multiple" flows its study ran."""
    head = f"window {window}{' (NS-2 default window_)' if window else ' (no cap)'}"
    if cid not in PER_FLOW_COUNT:
        return [(variant, {}, head + ".")]
    study = PER_FLOW_COUNT[cid]
    counts = flow_counts(tables, window, study)
    swept = ", ".join(str(n) for n in counts)
    return [(f"{variant}, {n} flows", {"flows": n},
             f"{head}, {n} flows. {SWEPT_FLOWS} ({study} ran {swept} flows); this row decides it at {n} flows.")
            for n in counts]


def build(tables: pd.DataFrame, traces: pd.DataFrame | None = None) -> tuple[list[dict], list[dict]]:
    """Scorecard rows and notes for ns2-1..ns2-7, one of each per claim and variant; ns2-1..ns2-6 have
    one per variant and count of "multiple" flows their study ran ("window20, 3 flows"). `traces` is
    accepted for the common interface; every criterion uses the tables."""
    if tables is None:
        tables = pd.DataFrame()
    if "paper" in tables:
        tables = tables[tables["paper"] == PAPER]
    rows, notes = [], []

    def not_testable(cid, variant, reason):
        row, note = decision_rows(PAPER, cid, variant, claim_rule.decide([], not_testable=reason))
        rows.append(row)
        notes.append(note)

    for cid, fn in CLAIMS.items():
        for variant, window in VARIANTS.items():
            if tables.empty or "window" not in tables or not (tables["window"].astype(str) == str(window)).any():
                not_testable(cid, variant, f"no ns2 table rows with window {window}")
                continue
            rowsets = settings(cid, tables, variant, window)
            if not rowsets:
                not_testable(cid, variant, f"no {PER_FLOW_COUNT[cid]} runs with more than one flow at window "
                                           f"{window}; " + SWEPT_FLOWS)
            for name, kwargs, head in rowsets:
                claim = Claim()
                metric, stat, pv = fn(tables, window, claim, **kwargs)
                decision, text = claim.decide()
                row, note = decision_rows(PAPER, cid, name, decision, metric=metric, headline=stat, paper_value=pv)
                if kwargs:
                    row["note"] += f" Decided at {kwargs['flows']} flows, one of the swept counts (the paper does not give it)."
                note["note"] = f"{head} {text}"
                rows.append(row)
                notes.append(note)
    return rows, notes


if __name__ == "__main__":
    cc.cli(build, __doc__)
