"""Claims ns2-1..ns2-7 of the NS-2 paper (reference/papers.yaml: ns2: Reno, NewReno and Vegas
on wired topologies) decided from our tables results/tables/ns2_*.csv (10 seeds per point).

Every claim is judged twice, once per NS-2 window_ setting of the studies:
  variant "window20": window 20, NS-2's default receive-window cap (our primary setting: the paper
                      does not say it changed it);
  variant "nocap":    window 0, no cap (sensitivity).

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

  ns2-1 (topology study, every topology): Vegas has the lowest cwnd_cv and the lowest cwnd_stable_s;
        NewReno has fewer timeouts than Reno where Reno or NewReno drops packets.
  ns2-2 (topology study, every topology): Vegas has the lowest latency_mean_s, the lowest latency_sd_s
        (variation of the 0.5 s mean latency over time) and the lowest loss_pct.
  ns2-3 (flows study, 3 flows): Vegas cwnd_mean in [2, 4] packets, Reno and NewReno cwnd_mean in
        [3, 4], Vegas throughput_per_flow_mbps in [0.25, 0.45] (the paper: about 0.35); each range is
        two comparisons against its ends (two one-sided tests).
  ns2-4 (bandwidth study): Reno and NewReno cwnd_mean rise with bandwidth; Vegas's cwnd_mean is below
        both at every bandwidth; loss_pct falls with bandwidth for every variant that drops packets.
  ns2-5 (delay study): throughput_cv (the paper's "throughput fluctuations") at 150, 500, 1000 and
        1500 ms is above its value at 100 ms for every variant; at 500, 1000 and 1500 ms Vegas has
        lower latency_mean_s and loss_pct than Reno and NewReno.
  ns2-6 (queue study): fq has lower latency_mean_s and lower loss_pct than droptail for every variant;
        the note quotes latency_max_s against the paper's peaks (0.08-0.09 s FQ, 0.14 s DropTail Reno).
  ns2-7 (every study): at every distinct configuration where Reno or NewReno drops packets, NewReno
        has fewer timeouts than Reno and a higher throughput_mbps than Reno's ("copes better"; a tie
        does not hold, as the rule has no non-inferiority test).

Usage (rule `claims` in workflow/rules/report.smk):
  python -m simulator.report.claims_ns2 --tables results/tables/ns2_*.csv \
      --traces results/traces/ns2_*.csv --out results/claims/ns2.csv --notes results/claims/ns2_notes.csv
"""
from __future__ import annotations

import math

import pandas as pd

from simulator.report import claim_rule
from simulator.report import claims_common as cc
from simulator.report.verdicts import decision_rows

PAPER = "ns2"
VARIANTS = {"window20": 20, "nocap": 0}      # variant -> the studies' `window` value
ALGS = ("reno", "newreno", "vegas")
NAMES = {"reno": "Reno", "newreno": "NewReno", "vegas": "Vegas"}
NUMERICAL_ZERO = 1e-9                        # |mean| and sd at most this: a floating-point zero (sd 1e-14 s)
CLAIM_IDS = [f"ns2-{i}" for i in range(1, 8)]
HIGH_DELAYS = (500, 1000, 1500)              # the paper's "high delay (500 - 1500 ms)"
BASE_DELAY = 100                             # the paper's base delay
NS23_VEGAS_CWND, NS23_RENO_CWND, NS23_TPUT = (2.0, 4.0), (3.0, 4.0), (0.25, 0.45)
PAPER_PEAKS = {"fq": "0.08-0.09 s (Reno, NewReno)", "droptail": "up to 0.14 s (Reno)"}
# the parameters that identify a configuration (besides algorithm and window)
CONFIG_KEYS = ("topology", "flows", "bandwidth_mbps", "delay_ms", "queue")
SWEEPS = {"ns2_topology": "topology", "ns2_flows": "flows", "ns2_bandwidth": "bandwidth_mbps",
          "ns2_delay": "delay_ms", "ns2_queue": "queue"}     # study -> its swept parameter


# --------------------------------------------------------------------------- table access

def cell(tables: pd.DataFrame, study: str, metric: str, **params) -> pd.Series | None:
    """The table row of `metric` in `study` at these parameters, or None if the study lacks it."""
    if tables is None or tables.empty or "study" not in tables:
        return None
    t = tables[tables["study"] == study]
    if t.empty or any(k not in t for k in params):
        return None
    try:
        return cc.pick(t, metric, **params)
    except KeyError:
        return None


def sweep_values(tables: pd.DataFrame, study: str, column: str) -> list:
    t = tables[tables["study"] == study] if "study" in tables else tables.iloc[0:0]
    return sorted(t[column].dropna().unique().tolist()) if column in t else []


def fmt(row: pd.Series) -> str:
    return f"{row['mean']:.4g} [{row['ci_low']:.4g}, {row['ci_high']:.4g}]"


def no_drops(row: pd.Series) -> bool:
    return float(row["mean"]) == 0.0


def value(row: pd.Series) -> dict:
    """mean, sd, n of a table row for claim_rule; a floating-point zero counts as exactly 0 (sd 0)."""
    m, n = float(row["mean"]), int(row["n"])
    sd = float(row["sd"]) if not pd.isna(row["sd"]) else math.nan
    if abs(m) <= NUMERICAL_ZERO and (math.isnan(sd) or sd <= NUMERICAL_ZERO):
        return {"mean": 0.0, "sd": 0.0 if n > 1 else math.nan, "n": n}
    return {"mean": m, "sd": sd, "n": n}


# --------------------------------------------------------------------------- a claim's comparisons

class Claim:
    """The comparisons of one claim and variant, gathered part by part, and what could not be compared."""

    def __init__(self):
        self.parts: list[str] = []                          # "(a) Vegas lowest cwnd_cv"
        self.comparisons: list[claim_rule.Comparison] = []
        self.missing: list[str] = []                        # table cells the claim needs and lacks
        self.no_drops: list[str] = []                       # parts with nothing to compare: no drops
        self.skipped: list[str] = []                        # instances left out: neither side drops
        self.steps: list[tuple[str, list[claim_rule.Comparison]]] = []   # trend steps (not scored)
        self.extra = ""

    def part(self, tag: str, text: str) -> "Part":
        self.parts.append(f"{tag} {text}")
        return Part(self, tag)

    def decide(self) -> tuple[claim_rule.Decision, str]:
        """The claim's Decision under the rule and the note (every comparison, what was left out)."""
        tested = claim_rule.decide(self.comparisons)
        reason = ""
        if self.missing:
            reason = "missing table cells: " + ", ".join(self.missing)
        elif self.no_drops and tested.verdict != "contradicted":    # a reversal elsewhere still contradicts
            reason = "no packet drops, so a loss comparison the claim needs cannot be made: " + "; ".join(self.no_drops)
        decision = claim_rule.decide(self.comparisons, not_testable=reason) if reason else tested
        note = "Parts: " + "; ".join(self.parts) + ". "
        if reason:
            note += f"Not testable: {reason}. "
            if self.comparisons:
                note += f"The comparisons that could be made (alone: {tested.verdict}): {tested.note}."
        else:
            note += tested.note + "."
            if self.no_drops:
                note += (" Contradicted by the comparisons above although a part has nothing to compare (no drops): "
                         + "; ".join(self.no_drops) + ".")
        if self.skipped:
            note += " Left out, neither side dropped a packet: " + "; ".join(self.skipped) + "."
        for label, steps in self.steps:
            against = [c for c in claim_rule.holm(steps) if c.reversed]
            note += (f" {label} (steps, not scored; Holm over its steps): "
                     + ("significantly the other way at " + "; ".join(c.describe() for c in against)
                        if against else "no step significantly the other way") + ".")
        return decision, note + self.extra


class Part:
    """One assertion of a claim; adds its comparisons to the claim."""

    def __init__(self, claim: Claim, tag: str):
        self.claim, self.tag, self.made, self.left_out, self.lacking = claim, tag, 0, 0, 0

    def add(self, comparison: claim_rule.Comparison) -> None:
        self.claim.comparisons.append(comparison)
        self.made += 1

    def missing(self, what: str) -> None:
        self.claim.missing.append(f"{self.tag} {what}")
        self.lacking += 1

    def skip(self, what: str) -> None:
        self.claim.skipped.append(f"{self.tag} {what}")
        self.left_out += 1

    def lower(self, a: pd.Series, b: pd.Series, where: str, na: str, nb: str, loss: bool = False) -> None:
        """'a is lower than b'; with loss=True an instance where neither side dropped anything is left out."""
        if loss and no_drops(a) and no_drops(b):
            self.skip(f"{where} {na} vs {nb}")
            return
        self.add(claim_rule.less(value(a), value(b),
                                 f"{self.tag} {where}: {na} {a['mean']:.4g} < {nb} {b['mean']:.4g}"))

    def greater(self, a: pd.Series, b: pd.Series, where: str, na: str, nb: str) -> None:
        self.add(claim_rule.greater(value(a), value(b),
                                    f"{self.tag} {where}: {na} {a['mean']:.4g} > {nb} {b['mean']:.4g}"))

    def within(self, row: pd.Series, lo: float, hi: float, label: str) -> None:
        for c in claim_rule.within(value(row), lo, hi, f"{self.tag} {label} {row['mean']:.4g}"):
            self.add(c)

    def trend(self, rows: list[tuple[float, pd.Series]], label: str, rising: bool, loss: bool = False) -> None:
        """'rises (falls) with x': the value at the largest x against the value at the smallest; the
        steps between neighbours go to the note."""
        if len(rows) < 2:
            self.missing(f"{label}: fewer than two points")
            return
        if loss and all(no_drops(r) for _, r in rows):
            self.skip(f"{label}: no drops at any point")
            return
        (x0, r0), (x1, r1) = rows[0], rows[-1]
        series = ", ".join(f"{x:g}: {r['mean']:.3g}" for x, r in rows)
        word = "rises" if rising else "falls"
        cmp = claim_rule.greater if rising else claim_rule.less
        self.add(cmp(value(r1), value(r0), f"{self.tag} {label} {word} from {x0:g} to {x1:g} "
                                           f"({r0['mean']:.4g} -> {r1['mean']:.4g}; series {series})"))
        self.claim.steps.append((f"{label} {word}", [
            cmp(value(rb), value(ra), f"{xa:g} -> {xb:g}: {ra['mean']:.3g} -> {rb['mean']:.3g}")
            for (xa, ra), (xb, rb) in zip(rows, rows[1:])]))

    def close(self) -> None:
        """A part with nothing compared: not testable (no drops), or missing if nothing was there."""
        if self.made == 0 and self.left_out > 0:
            self.claim.no_drops.append(f"{self.tag} (every instance)")
        elif self.made == 0 and self.lacking == 0:
            self.claim.missing.append(f"{self.tag} no table rows")


# --------------------------------------------------------------------------- the claims

def extreme_part(claim, tables, study, sweep, values, metric, tag, text, target="vegas", loss=False, fixed=None):
    """target's metric is below each other variant's at every value of `sweep`."""
    part = claim.part(tag, text)
    for x in values:
        params = dict(fixed or {}, **{sweep: x})
        t = cell(tables, study, metric, algorithm=target, **params)
        if t is None:
            part.missing(f"{sweep}={x} {target}")
            continue
        for other in ALGS:
            if other == target:
                continue
            o = cell(tables, study, metric, algorithm=other, **params)
            if o is None:
                part.missing(f"{sweep}={x} {other}")
                continue
            part.lower(t, o, f"{x} {metric}", NAMES[target], NAMES[other], loss=loss)
    part.close()


def claim_1(tables, window, claim):
    st, tops = "ns2_topology", sweep_values(tables, "ns2_topology", "topology")
    f = {"window": window}
    extreme_part(claim, tables, st, "topology", tops, "cwnd_cv", "(a)", "Vegas lowest cwnd_cv", fixed=f)
    extreme_part(claim, tables, st, "topology", tops, "cwnd_stable_s", "(b)", "Vegas lowest cwnd_stable_s (s)",
                 fixed=f)
    p_nr = claim.part("(c)", "NewReno fewer timeouts than Reno where packets are dropped")
    for top in tops:
        nr, r = (cell(tables, st, "timeouts", algorithm=a, topology=top, window=window) for a in ("newreno", "reno"))
        lnr, lr = (cell(tables, st, "loss_pct", algorithm=a, topology=top, window=window) for a in ("newreno", "reno"))
        if any(x is None for x in (nr, r, lnr, lr)):
            p_nr.missing(top)
        elif no_drops(lnr) and no_drops(lr):
            p_nr.skip(f"{top} (loss_pct 0 for Reno and NewReno)")
        else:
            p_nr.lower(nr, r, f"{top} timeouts", "NewReno", "Reno")
    p_nr.close()
    stat = cell(tables, st, "cwnd_cv", algorithm="vegas", topology="mesh", window=window)
    return "cwnd_cv (Vegas lowest); cwnd_stable_s; timeouts NewReno < Reno", stat, math.nan


def claim_2(tables, window, claim):
    st, tops = "ns2_topology", sweep_values(tables, "ns2_topology", "topology")
    f = {"window": window}
    extreme_part(claim, tables, st, "topology", tops, "latency_mean_s", "(a)", "Vegas lowest latency_mean_s (s)",
                 fixed=f)
    extreme_part(claim, tables, st, "topology", tops, "latency_sd_s", "(b)",
                 "Vegas most stable latency (latency_sd_s, s)", fixed=f)
    extreme_part(claim, tables, st, "topology", tops, "loss_pct", "(c)", "Vegas lowest loss_pct (%)", loss=True,
                 fixed=f)
    stat = cell(tables, st, "latency_mean_s", algorithm="vegas", topology="mesh", window=window)
    return "latency_mean_s, latency_sd_s, loss_pct (Vegas lowest)", stat, math.nan


def claim_3(tables, window, claim):
    st = "ns2_flows"
    p_v = claim.part("(a)", f"Vegas cwnd_mean near 3 packets, in [{NS23_VEGAS_CWND[0]:g}, {NS23_VEGAS_CWND[1]:g}]")
    v = cell(tables, st, "cwnd_mean", algorithm="vegas", flows=3, window=window)
    if v is None:
        p_v.missing("Vegas 3 flows")
    else:
        p_v.within(v, *NS23_VEGAS_CWND, "Vegas cwnd_mean")
    p_r = claim.part("(b)", f"Reno/NewReno cwnd_mean in [{NS23_RENO_CWND[0]:g}, {NS23_RENO_CWND[1]:g}] packets")
    for a in ("reno", "newreno"):
        r = cell(tables, st, "cwnd_mean", algorithm=a, flows=3, window=window)
        if r is None:
            p_r.missing(f"{a} 3 flows")
        else:
            p_r.within(r, *NS23_RENO_CWND, f"{NAMES[a]} cwnd_mean")
    p_t = claim.part("(c)", f"Vegas throughput per flow about 0.35 Mbit/s, in [{NS23_TPUT[0]:g}, {NS23_TPUT[1]:g}]")
    t = cell(tables, st, "throughput_per_flow_mbps", algorithm="vegas", flows=3, window=window)
    if t is None:
        p_t.missing("Vegas 3 flows")
    else:
        p_t.within(t, *NS23_TPUT, "Vegas throughput_per_flow_mbps")
    # context, not scored: the paper also says cwnd is higher with one flow, throughput higher with several
    ctx = []
    for a in ALGS:
        c1, c3 = (cell(tables, st, "cwnd_mean", algorithm=a, flows=n, window=window) for n in (1, 3))
        t1, t3 = (cell(tables, st, "throughput_mbps", algorithm=a, flows=n, window=window) for n in (1, 3))
        if all(x is not None for x in (c1, c3, t1, t3)):
            ctx.append(f"{NAMES[a]} cwnd 1 flow {fmt(c1)} vs 3 flows {fmt(c3)}, "
                       f"total throughput {fmt(t1)} vs {fmt(t3)} Mbit/s")
    if ctx:
        claim.extra = (" Context (not scored; the paper: cwnd higher with one flow, throughput higher with several): "
                       + "; ".join(ctx) + ".")
    return "cwnd_mean (Vegas, 3 flows)", v, 3.0


def claim_4(tables, window, claim):
    st, bws = "ns2_bandwidth", sweep_values(tables, "ns2_bandwidth", "bandwidth_mbps")
    p_up = claim.part("(a)", "Reno/NewReno cwnd_mean rises with bandwidth")
    for a in ("reno", "newreno"):
        rows = [(b, cell(tables, st, "cwnd_mean", algorithm=a, bandwidth_mbps=b, window=window)) for b in bws]
        p_up.trend([(b, r) for b, r in rows if r is not None], f"{NAMES[a]} cwnd", rising=True)
    p_up.close()
    extreme_part(claim, tables, st, "bandwidth_mbps", bws, "cwnd_mean", "(b)", "Vegas cwnd_mean below Reno and NewReno",
                 fixed={"window": window})
    p_loss = claim.part("(c)", "loss_pct falls with bandwidth")
    for a in ALGS:
        rows = [(b, cell(tables, st, "loss_pct", algorithm=a, bandwidth_mbps=b, window=window)) for b in bws]
        p_loss.trend([(b, r) for b, r in rows if r is not None], f"{NAMES[a]} loss", rising=False, loss=True)
    p_loss.close()
    stat = cell(tables, st, "cwnd_mean", algorithm="reno", bandwidth_mbps=bws[-1], window=window) if bws else None
    return "cwnd_mean vs bandwidth_mbps; loss_pct vs bandwidth_mbps", stat, math.nan


def claim_5(tables, window, claim):
    st = "ns2_delay"
    delays = sweep_values(tables, st, "delay_ms")
    p_var = claim.part("(a)", f"throughput_cv above its {BASE_DELAY} ms value at larger delays")
    for a in ALGS:
        base = cell(tables, st, "throughput_cv", algorithm=a, delay_ms=BASE_DELAY, window=window)
        for d in (x for x in delays if x > BASE_DELAY):
            r = cell(tables, st, "throughput_cv", algorithm=a, delay_ms=d, window=window)
            if base is None or r is None:
                p_var.missing(f"{a} {d} ms")
            else:
                p_var.lower(base, r, f"{NAMES[a]} throughput_cv", f"{BASE_DELAY} ms", f"{d} ms")
    p_var.close()
    high = [d for d in HIGH_DELAYS if d in delays]
    extreme_part(claim, tables, st, "delay_ms", high, "latency_mean_s", "(b)",
                 "Vegas lowest latency_mean_s (s) at 500-1500 ms", fixed={"window": window})
    n_drop_parts = len(claim.no_drops)
    extreme_part(claim, tables, st, "delay_ms", high, "loss_pct", "(c)", "Vegas lowest loss_pct at 500-1500 ms",
                 loss=True, fixed={"window": window})
    loss_untested = len(claim.no_drops) > n_drop_parts
    ctx = []
    for a in ALGS:
        c = [cell(tables, st, "cwnd_cv", algorithm=a, delay_ms=d, window=window) for d in delays]
        if all(x is not None for x in c):
            ctx.append(f"{NAMES[a]} " + ", ".join(f"{d}: {x['mean']:.2f}" for d, x in zip(delays, c)))
    extra = (" Context (not scored) cwnd_cv by delay (ms): " + "; ".join(ctx) + ".") if ctx else ""
    rtx = [cell(tables, st, "retransmit_pct", algorithm=a, delay_ms=d, window=window) for a in ALGS for d in high]
    if high and loss_untested and all(r is not None for r in rtx):
        lo, hi = min(r["mean"] for r in rtx), max(r["mean"] for r in rtx)
        extra += (f" No packet is dropped at {high[0]}-{high[-1]} ms, yet retransmit_pct is "
                  f"{lo:.2g}-{hi:.2g}%: spurious timeouts, consistent "
                  "with the 3 s initial RTO being shorter than the first RTT (>= 3 s there).")
    extra += (" At these delays the RTT (>= 3 s) is many times the 0.5 s throughput sampling interval, so "
              "throughput_cv there also measures the once-per-RTT burstiness of the ACK clock.")
    claim.extra = extra
    stat = cell(tables, st, "latency_mean_s", algorithm="vegas", delay_ms=max(high), window=window) if high else None
    return "throughput_cv vs delay_ms; latency_mean_s, loss_pct at 500-1500 ms", stat, math.nan


def claim_6(tables, window, claim):
    st = "ns2_queue"
    p_lat = claim.part("(a)", "fq latency_mean_s (s) below droptail")
    p_loss = claim.part("(b)", "fq loss_pct below droptail")
    peaks = []
    for a in ALGS:
        for metric, part in (("latency_mean_s", p_lat), ("loss_pct", p_loss)):
            f, d = (cell(tables, st, metric, algorithm=a, queue=q, window=window) for q in ("fq", "droptail"))
            if f is None or d is None:
                part.missing(f"{a} {metric}")
            else:
                part.lower(f, d, f"{NAMES[a]} {metric}", "fq", "droptail", loss=metric == "loss_pct")
        f, d = (cell(tables, st, "latency_max_s", algorithm=a, queue=q, window=window) for q in ("fq", "droptail"))
        if f is not None and d is not None:
            peaks.append(f"{NAMES[a]} fq {fmt(f)}, droptail {fmt(d)}")
    p_lat.close()
    p_loss.close()
    if peaks:
        claim.extra = (" Peak latency (latency_max_s, s; the paper's peaks: FQ " + PAPER_PEAKS["fq"] + ", DropTail "
                       + PAPER_PEAKS["droptail"] + "): " + "; ".join(peaks)
                       + ". Our one-way path has 0.3 s of propagation delay alone (3 links of 100 ms), so no latency "
                         "of ours can be near the paper's 0.08-0.14 s.")
    stat = cell(tables, st, "latency_max_s", algorithm="reno", queue="droptail", window=window)
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


def build(tables: pd.DataFrame, traces: pd.DataFrame | None = None) -> tuple[list[dict], list[dict]]:
    """Scorecard rows and notes for ns2-1..ns2-7, one of each per claim and variant. `traces` is
    accepted for the common interface; every criterion uses the tables."""
    if tables is None:
        tables = pd.DataFrame()
    if "paper" in tables:
        tables = tables[tables["paper"] == PAPER]
    rows, notes = [], []
    for cid, fn in CLAIMS.items():
        for variant, window in VARIANTS.items():
            if tables.empty or "window" not in tables or not (tables["window"].astype(str) == str(window)).any():
                reason = f"no ns2 table rows with window {window}"
                row, note = decision_rows(PAPER, cid, variant, claim_rule.decide([], not_testable=reason))
            else:
                claim = Claim()
                metric, stat, pv = fn(tables, window, claim)
                decision, text = claim.decide()
                row, note = decision_rows(PAPER, cid, variant, decision, metric=metric, headline=stat, paper_value=pv)
                note["note"] = f"window {window}{' (NS-2 default window_)' if window else ' (no cap)'}. {text}"
            rows.append(row)
            notes.append(note)
    return rows, notes


if __name__ == "__main__":
    cc.cli(build, __doc__)
