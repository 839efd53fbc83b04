"""Named functions of the NS-2 paper's claims (ns2-3, ns2-5, ns2-6, ns2-7 in reference/ns2/claims.yaml):
the context sentences of their notes, numbers a reader checks the verdict against (never scored)."""
from __future__ import annotations

from dataclasses import replace

from simulator.report import claim_engine as engine, number_format
from simulator.report.claim_functions import Missing, context

ALGS = ("reno", "newreno", "vegas")
NAMES = {"reno": "Reno", "newreno": "NewReno", "vegas": "Vegas"}
HIGH_DELAYS = (500, 1000, 1500)              # the paper's "high delay (500 - 1500 ms)"
PAPER_PEAKS = {"fq": "0.08-0.09 s (Reno, NewReno)", "droptail": "up to 0.14 s (Reno)"}


def _get(cells, **spec):
    """The table row of a cell, or None when the tables lack it."""
    try:
        return cells.get(spec)
    except Missing:
        return None


def _fmt(row) -> str:
    """'mean [CI]', or 'mean (deterministic)' when every seed gave the same value (no zero-width CI)."""
    return number_format.mean_ci(row["mean"], row["ci_low"], row["ci_high"], digits=4, lower=None)


@context("ns2_one_flow")
def one_flow(cells, scope) -> str:
    """ns2-3: the paper also says cwnd is higher with one flow and throughput higher with several: each
    variant's cwnd_mean and total throughput_mbps with one flow (outside this row's scope, same window)
    against this row's count."""
    n = scope.where["flows"]
    one = engine.Cells(cells.unscoped, None, replace(scope, where={**scope.where, "flows": 1}))
    out = []
    for a in ALGS:
        c1, cn, t1, tn = (_get(c, study="ns2_flows", algorithm=a, metric=m)
                          for m in ("cwnd_mean", "throughput_mbps") for c in (one, cells))
        if all(x is not None for x in (c1, cn, t1, tn)):
            out.append(f"{NAMES[a]} cwnd 1 flow {_fmt(c1)} vs {n} flows {_fmt(cn)}, "
                       f"total throughput {_fmt(t1)} vs {_fmt(tn)} Mbit/s")
    if not out:
        raise Missing("no ns2_flows rows with one flow")
    return ("Context (not scored; the paper: cwnd higher with one flow, throughput higher with several): "
            + "; ".join(out) + ".")


@context("ns2_delay")
def delay(cells, scope) -> str:
    """ns2-5: cwnd_cv at every delay; where nothing is dropped at 500-1500 ms (ns2-5 (c) then has nothing
    to compare) the retransmissions there, spurious timeouts of the 3 s initial RTO; and why throughput_cv
    at these delays also measures the ACK clock's burstiness."""
    delays = cells.values_of("delay_ms", {"study": "ns2_delay"})
    out = []
    by_alg = {a: [_get(cells, study="ns2_delay", algorithm=a, metric="cwnd_cv", delay_ms=d) for d in delays]
              for a in ALGS}
    shown = [f"{NAMES[a]} " + ", ".join(f"{d}: {x['mean']:.2f}" for d, x in zip(delays, c))
             for a, c in by_alg.items() if all(x is not None for x in c)]
    if shown:
        out.append("Context (not scored) cwnd_cv by delay (ms): " + "; ".join(shown) + ".")
    high = [d for d in HIGH_DELAYS if any(float(d) == float(x) for x in delays)]
    loss = [_get(cells, study="ns2_delay", algorithm=a, metric="loss_pct", delay_ms=d) for a in ALGS for d in high]
    rtx = [_get(cells, study="ns2_delay", algorithm=a, metric="retransmit_pct", delay_ms=d) for a in ALGS for d in high]
    if high and all(x is not None for x in loss + rtx) and all(engine.stat(x)["mean"] == 0 for x in loss):
        lo, hi = min(r["mean"] for r in rtx), max(r["mean"] for r in rtx)
        out.append(f"No packet is dropped at {high[0]}-{high[-1]} ms, yet retransmit_pct is {lo:.2g}-{hi:.2g}%: "
                   "spurious timeouts, consistent with the 3 s initial RTO being shorter than the first RTT "
                   "(>= 3 s there).")
    out.append("At these delays the RTT (>= 3 s) is many times the 0.5 s throughput sampling interval, so "
               "throughput_cv there also measures the once-per-RTT burstiness of the ACK clock.")
    return " ".join(out)


@context("ns2_peak_latency")
def peak_latency(cells, scope) -> str:
    """ns2-6: each variant's latency_max_s with fq and droptail against the paper's peaks, and why no
    latency of ours can be near them."""
    peaks = []
    for a in ALGS:
        f, d = (_get(cells, study="ns2_queue", algorithm=a, metric="latency_max_s", queue=q) for q in ("fq", "droptail"))
        if f is not None and d is not None:
            peaks.append(f"{NAMES[a]} fq {_fmt(f)}, droptail {_fmt(d)}")
    if not peaks:
        raise Missing("no latency_max_s of ns2_queue")
    return ("Peak latency (latency_max_s, s; the paper's peaks: FQ " + PAPER_PEAKS["fq"] + ", DropTail "
            + PAPER_PEAKS["droptail"] + "): " + "; ".join(peaks)
            + ". Our one-way path has 0.3 s of propagation delay alone (3 links of 100 ms), so no latency of ours "
              "can be near the paper's 0.08-0.14 s.")


@context("ns2_lossless")
def lossless(cells, scope, configurations: dict) -> str:
    """ns2-7: how many of the configurations (the claim's `points` domain) neither Reno nor NewReno
    dropped a packet in: they are left out, as a comparison of recovery from loss cannot be made there."""
    n = 0
    for point in engine.domain(configurations, cells, {}):
        loss = [_get(cells, algorithm=a, metric="loss_pct", **point) for a in ("reno", "newreno")]
        n += all(x is not None and engine.stat(x)["mean"] == 0 for x in loss)
    return f"{n} configurations without any drop were left out."
