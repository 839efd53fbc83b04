"""The QtColFair paper's dumbbell scenario: study parameters -> built network -> summary metrics.

Parameters (defaults in DEFAULTS; the authors' values, book/published_code.md):
algorithm (any network algorithm of simulator/tcp/cc/catalogue/), alpha (qtcol*), flows, buffer_bdp
(bottleneck buffer as a multiple of the BDP) or buffer_pkts, bottleneck_mbps, delay_ms
(bottleneck one-way), access_gbps, access_delay_ms, duration, warmup (excluded from the
"_warm" metrics), change (static | bandwidth | delay: the paper's schedules), sample_interval,
device_queue_pkts (extra packets of buffer behind the bottleneck queue, as ns-3's device queue),
fluct_interval and fluct_sd (change: fluctuating); and the packet-network models' common keys
(simulator/scenarios/network.params.yaml): stack (ns3, the QtColFair authors' tool, by default;
linux for the Mininet studies; ns2) and its per-detail keys, mss_bytes, rwnd_pkts, random loss per
direction and jitter on the bottleneck, capacity_schedule, start_times_s.
"""
import math
from pathlib import Path

import numpy as np

from simulator.core.rng import Stream
from simulator.params import check_choice, check_span, defaults_of, load_params, with_defaults
from simulator.models.flow_config import samples
from simulator.scenarios import network_keys
from simulator.scenarios import run_summaries as rs
from simulator.tcp import stacks
from simulator.tcp.cc import catalogue

HEADERS = 54                    # bytes on the wire besides the payload (mss_bytes 1448: 1502 bytes)
ACK_WIRE = 66
# every network algorithm of the catalogue (simulator/tcp/cc/catalogue/); SACK recovery for all
# but Tahoe, which has no fast recovery and runs the cumulative-ACK sender
ALGORITHMS = catalogue.names_for(catalogue.Stack("ns3", sack=True))
# every parameter of this model, declared once in simulator/scenarios/dumbbell.params.yaml; the
# defaults derive from them (simulator/params.py)
PARAMS = load_params(Path(__file__).with_suffix(".params.yaml"), ALGORITHMS)
DESCRIPTION = "bulk TCP flows over one bottleneck (QtColFair and Mininet studies)"
DEFAULTS = defaults_of(PARAMS)
CHANGES = ("static", "bandwidth", "delay", "fluctuating")
# the authors' buffer sizes in packets for the BDP multiples they used (1 BDP = 345 packets), on
# their path only (100 Mbit/s, 20 ms one-way, 10 us access links): elsewhere a BDP multiple is
# computed from the path (bdp_packets)
AUTHORS_PATH = (100.0, 20.0, 0.01)
AUTHOR_BUFFERS = {0.003: 1, 0.05: 17, 0.1: 34, 0.25: 86, 0.5: 172, 0.75: 259, 1: 345, 2: 690,
                  3: 1036, 4: 1381, 5: 1727, 6: 2072, 8: 2763, 10: 3454}


def bdp_packets(p):
    base_rtt = 2 * (p["delay_ms"] + 2 * p["access_delay_ms"]) / 1e3
    return p["bottleneck_mbps"] * 1e6 * base_rtt / (8 * p["mss_bytes"])


def buffer_packets(p):
    """Bottleneck buffer in packets: the configured queue plus `device_queue_pkts`, which models
    ns-3's NetDevice transmit queue (100 packets by default) sitting behind the traffic-control
    queue whose size the authors set; 0 (our default) means the configured queue alone."""
    extra = int(p.get("device_queue_pkts") or 0)
    if p["buffer_pkts"] is not None:
        return int(p["buffer_pkts"]) + extra
    x = float(p["buffer_bdp"])
    authors = AUTHOR_BUFFERS.get(x) if (p["bottleneck_mbps"], p["delay_ms"], p["access_delay_ms"]) == AUTHORS_PATH else None
    return (authors or max(1, round(x * bdp_packets(p)))) + extra


def schedule(p, key=None):
    """The QtColFair paper's link changes: bandwidth 100 -> 25 (25 s) -> 500 Mbps (50 s); delay
    20 -> 40 (25 s) -> 20 ms (50 s).  "fluctuating" (the Mininet paper's "wireless with
    fluctuating signal quality", which it does not quantify): every fluct_interval s the
    bottleneck rate is redrawn as mean * (1 + fluct_sd * z), z standard normal from this run's
    own stream, clamped to [0.1, 2] x mean."""
    if p["change"] == "fluctuating":
        rng = Stream(key, "capacity")
        mean, out, t = p["bottleneck_mbps"] * 1e6, [], float(p["fluct_interval"])
        while t < p["duration"]:
            u1, u2 = 1.0 - rng.draw_uniform(), rng.draw_uniform()
            z = math.sqrt(-2.0 * math.log(u1)) * math.cos(2 * math.pi * u2)     # Box-Muller
            out.append((t, "rate", mean * min(2.0, max(0.1, 1.0 + p["fluct_sd"] * z))))
            t += float(p["fluct_interval"])
        return out
    if p["change"] == "bandwidth":
        return [(25.0, "rate", 25e6), (50.0, "rate", 500e6)]
    if p["change"] == "delay":
        return [(25.0, "delay", 0.040), (50.0, "delay", p["delay_ms"] / 1e3)]
    if p["capacity_schedule"] is not None:
        return network_keys.rate_changes(p)
    return []


def stack(p, key, flow=0):
    """This model's TCP stack for one flow: the details of the stack in force (simulator/tcp/stacks.py)."""
    return stacks.catalogue_stack(stacks.resolve(p), key, flow, float(p["alpha"]))


MAX_CLASSIC_PACKETS = 1 << 26   # packets a flow without SACK may send (its sender keeps a send time each)


def packet_budget(p, rate_bps):
    """Packets a flow without SACK may send: more than the run can carry at the fastest rate of its
    schedule (capped: MAX_CLASSIC_PACKETS)."""
    budget = int(rate_bps * float(p["duration"]) / (8 * p["mss_bytes"])) * 2 + 1000
    return min(budget, MAX_CLASSIC_PACKETS)


key_params = network_keys.key_params     # unset late keys stay out of the run key


def params_with_defaults(params):
    """The run's full parameters: the declared defaults overridden by `params`, checked."""
    p = with_defaults(DEFAULTS, params)
    for key, allowed in (("algorithm", catalogue.accepted(ALGORITHMS)), ("stack", stacks.NAMES), ("change", CHANGES)):
        check_choice(p, key, allowed, "dumbbell")
    if int(p["flows"]) < 1:
        raise ValueError(f"flows: {p['flows']}; allowed values: flows >= 1")
    check_span(p)
    network_keys.check(p, "dumbbell", int(p["flows"]))
    extra = p["flow_extra_delay_ms"]
    if extra is not None and len(extra) != int(p["flows"]):
        raise ValueError(f"flow_extra_delay_ms: {len(extra)} delays for {p['flows']} flows; allowed: a list of "
                         f"exactly {p['flows']} delays (ms, one per flow, each >= 0)")
    if p["capacity_schedule"] is not None and p["change"] != "static":
        raise ValueError(f"capacity_schedule and change: {p['change']} both set the bottleneck's schedule; "
                         "give one of them (change: static with a capacity_schedule)")
    check_access_faster(p)
    if not catalogue.algorithm(p["algorithm"]).runs_on(stack(p, "")):
        raise ValueError(f"algorithm {p['algorithm']!r} needs the SACK sender's rate samples and pacing; "
                         f"sack: false leaves only cumulative ACKs; allowed: sack: true, or another algorithm")
    return p


def fastest_rate_mbps(p) -> float:
    """The bottleneck's fastest rate over the run, Mbit/s (a fluctuating rate is clamped at 2x its mean)."""
    if p["change"] == "fluctuating":
        return 2.0 * p["bottleneck_mbps"]
    return max([p["bottleneck_mbps"]] + [v / 1e6 for _, what, v in schedule(p) if what == "rate"])


def check_access_faster(p) -> None:
    """The access links are meant never to drop (their buffers are unbounded), which holds only if
    each is faster than the bottleneck: otherwise a flow that sends alone (staggered starts, the
    others backing off) builds its standing queue in its own access link, without limit, instead
    of in the bottleneck's buffer."""
    access, fastest = p["access_gbps"] * 1e3, fastest_rate_mbps(p)
    if access <= fastest:
        raise ValueError(
            f"access_gbps: {p['access_gbps']:g} Gbit/s is no faster than the bottleneck's {fastest:g} Mbit/s; "
            f"the access links have unbounded buffers (they never drop), so a flow's queue would build there "
            f"without limit; allowed: access_gbps x 1000 > {fastest:g} (e.g. access_gbps: {fastest / 1e2:g})")


def run(p, key):
    """One run of parameters `p` (already through params_with_defaults) with run key `key`."""
    from simulator.models.flow_config import FlowConfig
    from simulator.models.flow_model import FlowModel
    n = int(p["flows"])
    ccs, recs = zip(*[catalogue.build(p["algorithm"], stack(p, key, i)) for i in range(n)])
    changes = schedule(p, key)
    fastest = max([p["bottleneck_mbps"] * 1e6] + [v for _, what, v in changes if what == "rate"])
    classic = any(r is not None for r in recs)
    tcp = network_keys.tcp_options(p, stacks.resolve(p))
    if classic:
        tcp["packets"] = packet_budget(p, fastest)
    extra_delays = None if p["flow_extra_delay_ms"] is None else [d / 1e3 for d in p["flow_extra_delay_ms"]]
    config = FlowConfig(
        bottleneck_bps=p["bottleneck_mbps"] * 1e6, bottleneck_delay=p["delay_ms"] / 1e3,
        buffer_pkts=buffer_packets(p), access_bps=p["access_gbps"] * 1e9, access_delay=p["access_delay_ms"] / 1e3,
        duration=float(p["duration"]), start_interval=float(p["start_interval"]),
        sample_interval=float(p["sample_interval"]), data_size=p["mss_bytes"] + HEADERS, ack_size=ACK_WIRE,
        schedule=changes, tcp=tcp, recoveries=list(recs) if classic else None, start_times=p["start_times_s"],
        extra_delays=extra_delays, event_from=float(p["warmup"]))
    sim = FlowModel(key, list(ccs), config)
    for link, cfg in network_keys.bottleneck_impairments(p, key, *sim.bottleneck_links).items():
        sim.configure_link(link, **cfg)
    out = sim.run()
    return summarize(p, out)


def jain(x):
    x = np.asarray(x, dtype=float)
    return float(x.sum() ** 2 / (len(x) * (x ** 2).sum())) if (x ** 2).sum() > 0 else float("nan")


def summarize(p, out):
    """Metrics both as the authors compute them (cumulative from t=0, at the sender) and with the
    warm-up excluded (at the receivers); distributions are time-weighted (fixed-interval samples)
    and, for RTT and per-flow in-flight, also event-sampled (the *_events metrics)."""
    n, now, cap = int(p["flows"]), out["end_time"], p["bottleneck_mbps"]
    s = samples(out)
    t, cwnd, infl, srtt, deliv = s.t, s.cwnd, s.in_flight, s.srtt, s.delivered
    in_order = s.in_order                                   # the receivers' in-order edge, per flow
    flows = out["flows"]
    warm = t >= p["warmup"]
    i0 = int(np.argmax(warm))
    span = t[-1] - t[i0]

    def warm_mbps(counted):
        """Packets counted from the warm-up's sample to the last, as payload Mbit/s."""
        return (counted[-1] - counted[i0]).sum() * 8 * p["mss_bytes"] / span / 1e6 if span > 0 else float("nan")

    rtt = srtt[warm][srtt[warm] > 0] * 1e3
    tot_infl = infl[warm].sum(axis=1)
    sent = sum(f["sent"] for f in flows)
    per_flow_avg = [f["goodput_receiver_mbps"] for f in flows]
    m = {
        "goodput_mbps": sum(f["goodput_sender_mbps"] for f in flows),          # the authors' way
        "utilization": sum(f["goodput_sender_mbps"] for f in flows) / cap,
        "goodput_warm_mbps": warm_mbps(deliv),
        "median_rtt_ms": float(np.median(rtt)) if rtt.size else float("nan"),
        "p05_rtt_ms": float(np.percentile(rtt, 5)) if rtt.size else float("nan"),
        "p95_rtt_ms": float(np.percentile(rtt, 95)) if rtt.size else float("nan"),
        "mean_rtt_ms": float(np.mean(rtt)) if rtt.size else float("nan"),
        "median_inflight": float(np.median(tot_infl)) if tot_infl.size else float("nan"),
        "p05_inflight": float(np.percentile(tot_infl, 5)) if tot_infl.size else float("nan"),
        "p95_inflight": float(np.percentile(tot_infl, 95)) if tot_infl.size else float("nan"),
        "loss_drop_ratio": sum(f["drops"] for f in flows) / sent if sent else 0.0,
        "plr": sum(f["retransmitted"] for f in flows) / sent if sent else 0.0,   # authors' PLR
        "jain": jain(per_flow_avg) if n > 1 else 1.0,
        "timeouts": sum(f["timeouts"] for f in flows),
        "sent": sent, "acks": out["acks"], "end_time": now, "events": out["events"],
        "buffer_pkts": buffer_packets(p), "bdp_pkts": bdp_packets(p),
    }
    # event-sampled (every 8th ACK, any flow, after warm-up), as the authors' per-cwnd-change logs;
    # the model keeps them as histograms: the RTT median within 0.1 %, the in-flight one exact
    m["median_rtt_ms_events"] = out["event_rtt_median_s"] * 1e3
    m["median_inflight_per_flow_events"] = out["event_inflight_median"]
    m["utilization_warm"] = m["goodput_warm_mbps"] / cap
    # the same span counted at the in-order edge, as an application (ns-3's PacketSink) sees it: data held
    # behind a hole at the warm-up's start or the run's end moves it by several points in a run with timeouts
    m["utilization_warm_in_order"] = warm_mbps(in_order) / cap
    m = {k: (float(v) if isinstance(v, (float, np.floating)) else int(v)) for k, v in m.items()}
    result = {"metrics": m}
    if p["trace"]:
        tput = np.diff(deliv, axis=0, prepend=deliv[:1]) * 8 * p["mss_bytes"] / p["sample_interval"] / 1e6
        cum = np.where(t[:, None] > 0, deliv * 8 * p["mss_bytes"] / np.maximum(t[:, None], 1e-9) / 1e6, 0)
        trace = {"t": t.tolist(), "queue": s.queue_pkts.tolist(),
                 "jain": [jain(row) if row.sum() > 0 else float("nan") for row in cum]}
        for i in range(n):
            trace[f"cwnd_{i}"] = cwnd[:, i].tolist()
            trace[f"inflight_{i}"] = infl[:, i].tolist()
            trace[f"srtt_ms_{i}"] = (srtt[:, i] * 1e3).tolist()
            trace[f"throughput_mbps_{i}"] = tput[:, i].tolist()
        result["trace"] = trace
    return result
