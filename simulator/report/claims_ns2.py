"""Claims ns2-1..ns2-7 of the NS-2 paper (reference/papers.yaml: ns2: Reno, NewReno and Vegas
on wired topologies) decided from our tables results/tables/ns2_*.csv (10 seeds per point).

Every claim is judged twice, once per NS-2 window_ setting of the studies:
  variant "window20": window 20, NS-2's default receive-window cap (our primary setting: the paper
                      does not say it changed it);
  variant "nocap":    window 0, no cap (sensitivity).

Criteria (fixed before looking at verdicts; never tuned):
  * "a is lower than b" holds when a's mean is below b's, Welch's t-test on the per-seed mean, sd and n
    gives p < 0.05 (claims_common.less), and the difference is at least 0.1% of the larger mean;
    smaller differences are ties (runs that are numerically identical but for rounding).
  * A claim is split into parts; each part is a set of such comparisons (or range checks).
    A loss comparison where both sides dropped nothing (mean loss 0) cannot be made: that instance
    is untestable. A part fails if any of its testable comparisons fails, is untestable if none is
    testable, and holds otherwise.
  * Verdict: not_reproduced if any part fails; untestable if no part fails but some part could not be
    tested (no drops); reproduced only if every part was tested and holds.
  * "rises with x" (falls): the value at the largest x is above (below) the value at the smallest x
    by the rule above, and no step between neighbouring x goes significantly the other way.

  ns2-1 (topology study, every topology): Vegas has the lowest cwnd_cv and the lowest cwnd_stable_s;
        NewReno has fewer timeouts than Reno where Reno or NewReno drops packets.
  ns2-2 (topology study, every topology): Vegas has the lowest latency_mean_s, the lowest latency_sd_s
        (variation of the 0.5 s mean latency over time) and the lowest loss_pct.
  ns2-3 (flows study, 3 flows): Vegas cwnd_mean in [2, 4] packets, Reno and NewReno cwnd_mean in
        [3, 4], Vegas throughput_per_flow_mbps in [0.25, 0.45] (the paper: about 0.35).
  ns2-4 (bandwidth study): Reno and NewReno cwnd_mean rise with bandwidth; Vegas's cwnd_mean is below
        both at every bandwidth; loss_pct falls with bandwidth for every variant that drops packets.
  ns2-5 (delay study): throughput_cv (the paper's "throughput fluctuations") at 150, 500, 1000 and
        1500 ms is above its value at 100 ms for every variant; at 500, 1000 and 1500 ms Vegas has
        lower latency_mean_s and loss_pct than Reno and NewReno.
  ns2-6 (queue study): fq has lower latency_mean_s and lower loss_pct than droptail for every variant;
        the note quotes latency_max_s against the paper's peaks (0.08-0.09 s FQ, 0.14 s DropTail Reno).
  ns2-7 (every study): at every distinct configuration where Reno or NewReno drops packets, NewReno
        has fewer timeouts than Reno and a throughput_mbps not lower than Reno's (a tie is allowed:
        where the link is full neither can be higher).

Usage (rule `claims` in workflow/rules/report.smk):
  python -m simulator.report.claims_ns2 --tables results/tables/ns2_*.csv \
      --traces results/traces/ns2_*.csv --out results/claims/ns2.csv --notes results/claims/ns2_notes.csv
"""
from __future__ import annotations

import math

import pandas as pd

from simulator.report import claims_common as cc

PAPER = "ns2"
VARIANTS = {"window20": 20, "nocap": 0}      # variant -> the studies' `window` value
ALGS = ("reno", "newreno", "vegas")
NAMES = {"reno": "Reno", "newreno": "NewReno", "vegas": "Vegas"}
TIE_REL = 1e-3                               # differences below 0.1% of the larger mean are ties,
TIE_ABS = 1e-9                               # and so are differences of numerical zeros (sd 1e-14 s)
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


def tie(a: pd.Series, b: pd.Series) -> bool:
    ma, mb = float(a["mean"]), float(b["mean"])
    return abs(ma - mb) <= max(TIE_REL * max(abs(ma), abs(mb)), TIE_ABS)


def no_drops(row: pd.Series) -> bool:
    return float(row["mean"]) == 0.0


# --------------------------------------------------------------------------- comparisons and parts

class Part:
    """One assertion of a claim: a list of comparisons, each holds / fails / untestable."""

    def __init__(self, name: str):
        self.name = name
        self.items: list[tuple[str, str]] = []    # (status, text)

    def add(self, status: str, text: str) -> None:
        self.items.append((status, text))

    def missing(self, what: str) -> None:
        self.add("untestable", f"{what}: not in the tables")

    @property
    def status(self) -> str:
        states = [s for s, _ in self.items]
        if "fails" in states:
            return "fails"
        return "holds" if "holds" in states else "untestable"

    def text(self) -> str:
        fails = [t for s, t in self.items if s == "fails"]
        holds = [t for s, t in self.items if s == "holds"]
        skipped = [t for s, t in self.items if s == "untestable"]
        out = f"{self.name}: {self.status.upper()}"
        if fails:
            out += f" ({len(fails)} of {len(fails) + len(holds)} tested fail: " + "; ".join(fails) + ")"
        if holds:
            out += (" (holds: " if not fails else " (hold: ") + "; ".join(holds) + ")"
        if skipped:
            out += " (not testable: " + "; ".join(skipped) + ")"
        return out


def lower(a: pd.Series, b: pd.Series, label: str, loss: bool = False) -> tuple[str, str]:
    """(status, text) of 'a is lower than b' under the module's rule. With loss=True an instance
    where neither side dropped anything is untestable."""
    if loss and no_drops(a) and no_drops(b):
        return "untestable", f"{label}: no drops ({fmt(a)} vs {fmt(b)})"
    if tie(a, b):
        return "fails", f"{label}: tie {fmt(a)} vs {fmt(b)}"
    holds, sig = cc.less(a, b)
    if holds and sig:
        return "holds", f"{label}: {fmt(a)} vs {fmt(b)}, significant"
    if holds:
        return "fails", f"{label}: {fmt(a)} vs {fmt(b)}, lower but not significant"
    _, sig_other = cc.less(b, a)
    return "fails", f"{label}: {fmt(a)} vs {fmt(b)}, higher" + (" (significant)" if sig_other else " (not significant)")


def not_lower(a: pd.Series, b: pd.Series, label: str) -> tuple[str, str]:
    """(status, text) of 'a is not significantly below b' (ties allowed)."""
    if tie(a, b):
        return "holds", f"{label}: tie {fmt(a)} vs {fmt(b)}"
    holds, sig = cc.less(a, b)
    if holds and sig:
        return "fails", f"{label}: {fmt(a)} vs {fmt(b)}, significantly lower"
    return "holds", f"{label}: {fmt(a)} vs {fmt(b)}" + (", lower but not significant" if holds else "")


def in_range(row: pd.Series, lo: float, hi: float, label: str) -> tuple[str, str]:
    ok = lo <= float(row["mean"]) <= hi
    return ("holds" if ok else "fails"), f"{label} {fmt(row)} {'inside' if ok else 'outside'} [{lo:g}, {hi:g}]"


def trend(rows: list[tuple[float, pd.Series]], label: str, rising: bool, loss: bool = False) -> list[tuple[str, str]]:
    """'rises (falls) with x': endpoint comparison plus no significant step the other way."""
    if len(rows) < 2:
        return [("untestable", f"{label}: fewer than two points")]
    if loss and all(no_drops(r) for _, r in rows):
        return [("untestable", f"{label}: no drops at any point")]
    (x0, r0), (x1, r1) = rows[0], rows[-1]
    word = "rises" if rising else "falls"
    st, txt = lower(r0, r1, "") if rising else lower(r1, r0, "")
    series = ", ".join(f"{x:g}: {r['mean']:.3g}" for x, r in rows)
    out = [(st, f"{label} {word} from {x0:g} to {x1:g} ({fmt(r0)} -> {fmt(r1)}; "
                f"{'yes' if st == 'holds' else 'no, ' + txt.split(': ', 1)[-1]}); series {series}")]
    against = []
    for (xa, ra), (xb, rb) in zip(rows, rows[1:]):
        st2, _ = lower(rb, ra, "") if rising else lower(ra, rb, "")
        if st2 == "holds":
            against.append(f"{xa:g} -> {xb:g}: {ra['mean']:.3g} -> {rb['mean']:.3g}")
    if against:
        steps = "step" + ("s" if len(against) > 1 else "")
        out.append(("fails", f"{label}: significant {steps} the other way ({'; '.join(against)})"))
    return out


def decide(parts: list[Part]) -> tuple[str, str]:
    states = [p.status for p in parts]
    if "fails" in states:
        verdict = "not_reproduced"
    elif "untestable" in states:
        verdict = "untestable"
    else:
        verdict = "reproduced"
    return verdict, " | ".join(p.text() for p in parts)


# --------------------------------------------------------------------------- the claims

def extreme_part(tables, study, sweep, values, metric, name, target="vegas", loss=False, fixed=None) -> Part:
    """target's metric is below each other variant's at every value of `sweep`."""
    part = Part(name)
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
            part.add(*lower(t, o, f"{x} {NAMES[target]} < {NAMES[other]}", loss=loss))
    return part


def claim_1(tables, window):
    st, tops = "ns2_topology", sweep_values(tables, "ns2_topology", "topology")
    p_cv = extreme_part(tables, st, "topology", tops, "cwnd_cv", "(a) Vegas lowest cwnd_cv", fixed={"window": window})
    p_st = extreme_part(tables, st, "topology", tops, "cwnd_stable_s", "(b) Vegas lowest cwnd_stable_s (s)",
                        fixed={"window": window})
    p_nr = Part("(c) NewReno fewer timeouts than Reno where packets are dropped")
    for top in tops:
        nr, r = (cell(tables, st, m, algorithm=a, topology=top, window=window)
                 for m, a in (("timeouts", "newreno"), ("timeouts", "reno")))
        lnr, lr = (cell(tables, st, "loss_pct", algorithm=a, topology=top, window=window) for a in ("newreno", "reno"))
        if any(x is None for x in (nr, r, lnr, lr)):
            p_nr.missing(top)
        elif no_drops(lnr) and no_drops(lr):
            p_nr.add("untestable", f"{top}: no drops (loss_pct 0 for Reno and NewReno)")
        else:
            p_nr.add(*lower(nr, r, f"{top} timeouts NewReno < Reno"))
    stat = cell(tables, st, "cwnd_cv", algorithm="vegas", topology="mesh", window=window)
    return "cwnd_cv (Vegas lowest); cwnd_stable_s; timeouts NewReno < Reno", stat, math.nan, [p_cv, p_st, p_nr], ""


def claim_2(tables, window):
    st, tops = "ns2_topology", sweep_values(tables, "ns2_topology", "topology")
    f = {"window": window}
    parts = [extreme_part(tables, st, "topology", tops, "latency_mean_s", "(a) Vegas lowest latency_mean_s (s)",
                          fixed=f),
             extreme_part(tables, st, "topology", tops, "latency_sd_s",
                          "(b) Vegas most stable latency (latency_sd_s, s)", fixed=f),
             extreme_part(tables, st, "topology", tops, "loss_pct", "(c) Vegas lowest loss_pct (%)", loss=True,
                          fixed=f)]
    stat = cell(tables, st, "latency_mean_s", algorithm="vegas", topology="mesh", window=window)
    return "latency_mean_s, latency_sd_s, loss_pct (Vegas lowest)", stat, math.nan, parts, ""


def claim_3(tables, window):
    st = "ns2_flows"
    p_v, p_r, p_t = Part("(a) Vegas cwnd_mean near 3 packets"), Part("(b) Reno/NewReno cwnd_mean 3-4 packets"), \
        Part("(c) Vegas throughput per flow about 0.35 Mbit/s")
    v = cell(tables, st, "cwnd_mean", algorithm="vegas", flows=3, window=window)
    if v is None:
        p_v.missing("Vegas 3 flows")
    else:
        p_v.add(*in_range(v, *NS23_VEGAS_CWND, "Vegas"))
    for a in ("reno", "newreno"):
        r = cell(tables, st, "cwnd_mean", algorithm=a, flows=3, window=window)
        if r is None:
            p_r.missing(f"{a} 3 flows")
        else:
            p_r.add(*in_range(r, *NS23_RENO_CWND, NAMES[a]))
    t = cell(tables, st, "throughput_per_flow_mbps", algorithm="vegas", flows=3, window=window)
    if t is None:
        p_t.missing("Vegas 3 flows")
    else:
        p_t.add(*in_range(t, *NS23_TPUT, "Vegas"))
    # context, not scored: the paper also says cwnd is higher with one flow, throughput higher with several
    ctx = []
    for a in ALGS:
        c1, c3 = (cell(tables, st, "cwnd_mean", algorithm=a, flows=n, window=window) for n in (1, 3))
        t1, t3 = (cell(tables, st, "throughput_mbps", algorithm=a, flows=n, window=window) for n in (1, 3))
        if all(x is not None for x in (c1, c3, t1, t3)):
            ctx.append(f"{NAMES[a]} cwnd 1 flow {fmt(c1)} vs 3 flows {fmt(c3)}, "
                       f"total throughput {fmt(t1)} vs {fmt(t3)} Mbit/s")
    extra = (" Context (not scored; the paper: cwnd higher with one flow, throughput higher with several): "
             + "; ".join(ctx) + ".") if ctx else ""
    return "cwnd_mean (Vegas, 3 flows)", v, 3.0, [p_v, p_r, p_t], extra


def claim_4(tables, window):
    st, bws = "ns2_bandwidth", sweep_values(tables, "ns2_bandwidth", "bandwidth_mbps")
    p_up = Part("(a) Reno/NewReno cwnd_mean rises with bandwidth")
    for a in ("reno", "newreno"):
        rows = [(b, cell(tables, st, "cwnd_mean", algorithm=a, bandwidth_mbps=b, window=window)) for b in bws]
        rows = [(b, r) for b, r in rows if r is not None]
        for s in trend(rows, f"{NAMES[a]} cwnd", rising=True):
            p_up.add(*s)
    p_vg = extreme_part(tables, st, "bandwidth_mbps", bws, "cwnd_mean", "(b) Vegas cwnd_mean below Reno and NewReno",
                        fixed={"window": window})
    p_loss = Part("(c) loss_pct falls with bandwidth")
    for a in ALGS:
        rows = [(b, cell(tables, st, "loss_pct", algorithm=a, bandwidth_mbps=b, window=window)) for b in bws]
        rows = [(b, r) for b, r in rows if r is not None]
        for s in trend(rows, f"{NAMES[a]} loss", rising=False, loss=True):
            p_loss.add(*s)
    stat = cell(tables, st, "cwnd_mean", algorithm="reno", bandwidth_mbps=bws[-1], window=window) if bws else None
    return "cwnd_mean vs bandwidth_mbps; loss_pct vs bandwidth_mbps", stat, math.nan, [p_up, p_vg, p_loss], ""


def claim_5(tables, window):
    st = "ns2_delay"
    delays = sweep_values(tables, st, "delay_ms")
    p_var = Part(f"(a) throughput_cv above its {BASE_DELAY} ms value at larger delays")
    for a in ALGS:
        base = cell(tables, st, "throughput_cv", algorithm=a, delay_ms=BASE_DELAY, window=window)
        for d in (x for x in delays if x > BASE_DELAY):
            r = cell(tables, st, "throughput_cv", algorithm=a, delay_ms=d, window=window)
            if base is None or r is None:
                p_var.missing(f"{a} {d} ms")
            else:
                p_var.add(*lower(base, r, f"{NAMES[a]} {BASE_DELAY} < {d} ms"))
    high = [d for d in HIGH_DELAYS if d in delays]
    p_lat = extreme_part(tables, st, "delay_ms", high, "latency_mean_s",
                         "(b) Vegas lowest latency_mean_s (s) at 500-1500 ms",
                         fixed={"window": window})
    p_loss = extreme_part(tables, st, "delay_ms", high, "loss_pct", "(c) Vegas lowest loss_pct at 500-1500 ms",
                          loss=True, fixed={"window": window})
    ctx = []
    for a in ALGS:
        c = [cell(tables, st, "cwnd_cv", algorithm=a, delay_ms=d, window=window) for d in delays]
        if all(x is not None for x in c):
            ctx.append(f"{NAMES[a]} " + ", ".join(f"{d}: {x['mean']:.2f}" for d, x in zip(delays, c)))
    extra = (" Context (not scored) cwnd_cv by delay (ms): " + "; ".join(ctx) + ".") if ctx else ""
    rtx = [cell(tables, st, "retransmit_pct", algorithm=a, delay_ms=d, window=window) for a in ALGS for d in high]
    if high and p_loss.status == "untestable" and all(r is not None for r in rtx):
        lo, hi = min(r["mean"] for r in rtx), max(r["mean"] for r in rtx)
        extra += (f" No packet is dropped at {high[0]}-{high[-1]} ms, yet retransmit_pct is "
                  f"{lo:.2g}-{hi:.2g}%: spurious timeouts, consistent "
                  "with the 3 s initial RTO being shorter than the first RTT (>= 3 s there).")
    extra += (" At these delays the RTT (>= 3 s) is many times the 0.5 s throughput sampling interval, so "
              "throughput_cv there also measures the once-per-RTT burstiness of the ACK clock.")
    stat = cell(tables, st, "latency_mean_s", algorithm="vegas", delay_ms=max(high), window=window) if high else None
    metric = "throughput_cv vs delay_ms; latency_mean_s, loss_pct at 500-1500 ms"
    return metric, stat, math.nan, [p_var, p_lat, p_loss], extra


def claim_6(tables, window):
    st = "ns2_queue"
    p_lat, p_loss = Part("(a) fq latency_mean_s (s) below droptail"), Part("(b) fq loss_pct below droptail")
    peaks = []
    for a in ALGS:
        for metric, part in (("latency_mean_s", p_lat), ("loss_pct", p_loss)):
            f, d = (cell(tables, st, metric, algorithm=a, queue=q, window=window) for q in ("fq", "droptail"))
            if f is None or d is None:
                part.missing(a)
            else:
                part.add(*lower(f, d, f"{NAMES[a]} fq < droptail", loss=metric == "loss_pct"))
        f, d = (cell(tables, st, "latency_max_s", algorithm=a, queue=q, window=window) for q in ("fq", "droptail"))
        if f is not None and d is not None:
            peaks.append(f"{NAMES[a]} fq {fmt(f)}, droptail {fmt(d)}")
    extra = (" Peak latency (latency_max_s, s; the paper's peaks: FQ " + PAPER_PEAKS["fq"] + ", DropTail "
             + PAPER_PEAKS["droptail"] + "): " + "; ".join(peaks)
             + ". Our one-way path has 0.3 s of propagation delay alone (3 links of 100 ms), so no latency of ours "
               "can be near the paper's 0.08-0.14 s.") if peaks else ""
    stat = cell(tables, st, "latency_max_s", algorithm="reno", queue="droptail", window=window)
    return "latency_mean_s, loss_pct fq < droptail; latency_max_s (Reno, droptail)", stat, 0.14, [p_lat, p_loss], extra


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


def claim_7(tables, window):
    p_to, p_tp = Part("(a) NewReno fewer timeouts than Reno"), Part("(b) NewReno throughput_mbps not below Reno's")
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
        p_to.add(*lower(rows[("timeouts", "newreno")], rows[("timeouts", "reno")], label))
        p_tp.add(*not_lower(rows[("throughput_mbps", "newreno")], rows[("throughput_mbps", "reno")], label))
        if best is None or float(lr["mean"]) > float(best[0]["mean"]):
            best = (lr, rows[("timeouts", "newreno")])
    if not p_to.items:
        p_to.add("untestable", f"no drops for Reno or NewReno at any of the {n_lossless} configurations")
        p_tp.add("untestable", "no drops anywhere")
    extra = f" {n_lossless} configurations without any drop were left out."
    return "timeouts, throughput_mbps NewReno vs Reno where drops occur", (best[1] if best else None), math.nan, \
        [p_to, p_tp], extra


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
                verdict, metric, stat, pv = "untestable", "", None, math.nan
                note = f"no ns2 table rows with window {window}"
            else:
                metric, stat, pv, parts, extra = fn(tables, window)
                verdict, text = decide(parts)
                note = (f"window {window}{' (NS-2 default window_)' if window else ' (no cap)'}. {text}.{extra}")
                if verdict == "untestable":
                    note += " Untestable: a part needs packet drops and none occur there."
            rows.append(cc.claim_row(PAPER, cid, variant, metric, verdict, stat, pv))
            notes.append(cc.note_row(cid, variant, verdict, note))
    return rows, notes


if __name__ == "__main__":
    cc.cli(build, __doc__)
