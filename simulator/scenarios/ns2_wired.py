"""The NS-2 paper's wired scenarios (catalogue.yaml: ns2): parameters -> run -> metrics.

The paper gives: wired links, 1500-byte packets, 130 s, bandwidth 0.1-1.0 Mbit/s, delay 100-150 ms
(and 500-1500 ms in scenario 4), DropTail (FQ in scenario 5), FTP, Reno / NewReno / Vegas, and
three topologies (linear, star, mesh: Figure 1).  It does not give node counts, the number of
"multiple" flows, buffer sizes or TCP settings; our choices (each a parameter, stated in the
chapter's "parameters we chose" page):
  * every link of a topology has the scenario's bandwidth and delay (NS-2 `duplex-link ... B D`);
    linear: s_i - r0 - r1 - r2 - d0; star: s_i and d0 around r0; mesh: 4 fully meshed routers,
    sources on r1..r3 and the sink on r0.  All flows go to one sink, so they share its last link.
    (Also parking_lot, not in the paper: a long flow over flows - 1 router hops, one cross flow
    per hop.)
  * `queue_on: shared` puts the discipline only on the monitored (first shared) link instead of
    every link.
  * buffers: NS-2's default queue limit, 50 packets, on every link; DropTail or fair queueing
    (per-flow DRR, NS-2's FQ/DRR) on every link.
  * TCP: NS-2's one-way agents with their defaults (`stack: ns2`, simulator/tcp/stacks.py; each
    detail a key of its own): cumulative ACK per packet (TCPSink), no SACK,
    the window opened per ACK (+1 in slow start, +1/cwnd in congestion avoidance, however many
    packets a stretch ACK covers, as NS-2's opencwnd),
    window_ 20 (a receive-window cap; `window: 0` removes it), syn_ (a 40-byte SYN alone first), windowInit_
    2, NS-2's timer (rto_timer ns2: minimum 0.2 s, initial 3 s, 10 ms ticks), Tahoe/Reno/NewReno with NS-2's
    own recovery (simulator/tcp/recovery.pyx); NewReno's timer restarts only on the first partial ACK
    (newreno_changes1_, RFC 6582's "Impatient" variant); Vegas alpha 1, beta 3, gamma 1 (NS-2's
    v_alpha_/v_beta_/v_gamma_) with Reno's loss recovery.  NS-2 2.35's own runs of these points are in
    reference/ns2_sim/ (simulator/validation/ns2_scripts.py).
  * `flow_pairs: [[src, dst], ...]` (fixed only) replaces the default flows by any host pairs
    of the topology (hosts s0..s{flows-1} and d0).
  * each FTP starts at a uniform random time in [0, start_spread) s: the only randomness, so that
    seeds sample the flows' relative phase (NS-2 runs are otherwise deterministic); or at the
    study's `start_times_s`.
  * random loss per direction, jitter and a capacity schedule (off by default) act on the
    monitored link (simulator/scenarios/network_keys.py).
"""
from dataclasses import replace
from pathlib import Path

import numpy as np

from simulator.core.rng import Stream
from simulator.models.flow_config import samples
from simulator.scenarios import network_keys
from simulator.scenarios import run_summaries as rs
from simulator.params import check_choice, check_span, defaults_of, load_params, with_defaults
from simulator.tcp import stacks
from simulator.tcp.cc import catalogue

# NS-2's one-way TCP agents: no SACK, no pacing. NS-2 has no BBR; an algorithm that needs delivery-rate
# samples and pacing (BBR) runs on the SACK sender instead, with the same window cap, initial window,
# timers and a sink that ACKs every packet, so every network algorithm of the catalogue runs here.
ALGORITHMS = catalogue.NETWORK
TOPOLOGIES = ("linear", "star", "mesh", "parking_lot")
QUEUE_ON = ("all", "shared")            # the discipline on every link, or only on the monitored one
QUEUES = ("droptail", "fq")
# every parameter of this model, declared once in simulator/scenarios/ns2_wired.params.yaml; the
# defaults derive from them (simulator/params.py)
PARAMS = load_params(Path(__file__).with_suffix(".params.yaml"), ALGORITHMS)
DESCRIPTION = "NS-2-style wired topologies with NS-2's one-way TCP agents"
DEFAULTS = defaults_of(PARAMS)
HEADER_BYTES = 40                       # NS-2 TCP/IP header; the payload is packet_bytes - 40
ACK_BYTES = 40


key_params = network_keys.key_params     # unset late keys stay out of the run key


def params_with_defaults(params):
    """The run's full parameters: the declared defaults overridden by `params`, checked."""
    p = with_defaults(DEFAULTS, params)
    for key, allowed in (("algorithm", catalogue.accepted(ALGORITHMS)), ("topology", TOPOLOGIES), ("queue", QUEUES),
                         ("queue_on", QUEUE_ON), ("stack", stacks.NAMES)):
        check_choice(p, key, allowed, "ns2")
    if int(p["flows"]) < 1:
        raise ValueError(f"flows: {p['flows']}; allowed values: flows >= 1")
    check_span(p)
    if p["flow_pairs"] is not None:
        pairs = p["flow_pairs"]
        if not isinstance(pairs, list) or not pairs or any(not isinstance(x, list) or len(x) != 2 for x in pairs):
            raise ValueError(f"flow_pairs must be a list of [source, destination] host names, got {pairs!r}")
        p["flows"] = len(pairs)
        hosts = host_names(p["topology"], len(pairs))
        for i, (src, dst) in enumerate(pairs):
            for end in (src, dst):
                if end not in hosts:
                    raise ValueError(f"flow_pairs[{i}]: {end!r} is not a host of the {p['topology']} topology; "
                                     f"allowed: {', '.join(hosts)}")
            if src == dst:
                raise ValueError(f"flow_pairs[{i}]: source and destination are both {src!r}")
    network_keys.check(p, "ns2", int(p["flows"]))
    if p["bandwidth_mbps"] <= 0 or p["delay_ms"] < 0 or int(p["buffer_pkts"]) < 1:
        raise ValueError("need bandwidth_mbps > 0, delay_ms >= 0, buffer_pkts >= 1 "
                         f"(got {p['bandwidth_mbps']}, {p['delay_ms']}, {p['buffer_pkts']})")
    return p


def host_names(topology, flows):
    """Hosts of a topology built for `flows` flows."""
    if topology == "parking_lot":
        hops = max(1, flows - 1)
        return ["long_src", "long_dst"] + [f"c{i}_{e}" for i in range(hops) for e in ("src", "dst")]
    return [f"s{i}" for i in range(flows)] + ["d0"]


def build_topology(p):
    """(Topology, flow ends, monitored link): every flow ends at d0; the monitored link is the
    first one all flows share (a single flow's first link)."""
    from simulator.net.topology import Topology
    n, rate, delay, buf = int(p["flows"]), p["bandwidth_mbps"] * 1e6, p["delay_ms"] / 1e3, int(p["buffer_pkts"])
    srcs = [f"s{i}" for i in range(n)]
    kind = p["topology"]
    if kind == "linear":
        t = Topology("linear", hosts=srcs + ["d0"], routers=["r0", "r1", "r2"])
        for s in srcs:
            t.add_link(s, "r0", rate, delay, buf)
        t.add_link("r0", "r1", rate, delay, buf)
        t.add_link("r1", "r2", rate, delay, buf)
        t.add_link("r2", "d0", rate, delay, buf)
        monitor = ("r0", "r1")
    elif kind == "star":
        t = Topology("star", hosts=srcs + ["d0"], routers=["r0"])
        for h in t.hosts:
            t.add_link(h, "r0", rate, delay, buf)
        monitor = ("r0", "d0")
    elif kind == "parking_lot":
        # one long flow over every router hop, one cross flow per hop (flows - 1 hops, at least 1)
        from simulator.net.topology import parking_lot
        hops = max(1, n - 1)
        t = parking_lot(hops, rate, delay, buf)
        ends = [("long_src", "long_dst")] + [(f"c{i}_src", f"c{i}_dst") for i in range(hops)][:n - 1]
        if p.get("flow_pairs"):
            ends = [tuple(x) for x in p["flow_pairs"]]
        return t, ends, ("r0", "r1")
    else:
        routers = [f"r{i}" for i in range(4)]
        t = Topology("mesh", hosts=srcs + ["d0"], routers=routers)
        for i in range(4):
            for j in range(i + 1, 4):
                t.add_link(routers[i], routers[j], rate, delay, buf)
        for i, s in enumerate(srcs):
            t.add_link(s, routers[1 + i % 3], rate, delay, buf)
        t.add_link("r0", "d0", rate, delay, buf)
        monitor = ("r0", "d0")
    ends = [tuple(x) for x in p["flow_pairs"]] if p.get("flow_pairs") else [(s, "d0") for s in srcs]
    if len(ends) == 1:           # one flow: its queue builds on its first link (every link has rate B)
        path = t.path(*ends[0])
        monitor = (path[0], path[1])
    return t, ends, monitor


def controller_and_recovery(p, key, flow):
    """One flow's algorithm on NS-2's one-way agent (no SACK, the algorithm's own recovery), or on
    the SACK sender (sack: true, or an algorithm the agent cannot carry: BBR)."""
    d = stacks.resolve(p)
    if not catalogue.algorithm(p["algorithm"]).runs_on(stacks.catalogue_stack(d)):
        d = replace(d, sack=True)
    return catalogue.build(p["algorithm"], stacks.catalogue_stack(d, key, flow))


def start_times(p, key):
    """Each flow's start time: the study's `start_times_s`, else uniform in [0, start_spread) from the run's own
    stream (NS-2's scripts of the same seed start at the same times: simulator/validation/ns2_scripts.py)."""
    start_rng = Stream(key, "ftp-start")
    return p["start_times_s"] or [float(p["start_spread"]) * start_rng.draw_uniform() for _ in range(int(p["flows"]))]


def run(p, key):
    """One run of parameters `p` (already through params_with_defaults) with run key `key`."""
    from simulator.models.flow_config import FlowConfig
    from simulator.models.flow_model import FlowModel
    from simulator.net.queue_disc import make_queue
    n = int(p["flows"])
    topo, ends, monitor = build_topology(p)
    starts = start_times(p, key)
    ccs, recs = zip(*[controller_and_recovery(p, key, i) for i in range(n)])
    bound = int(p["bandwidth_mbps"] * 1e6 * p["duration"] / (8 * p["packet_bytes"])) * 2 + 1000
    tcp = {**stacks.tcp_options(stacks.resolve(p)), "max_window": int(p["window"]), "packets": bound,
           "impatient": True}
    queued = [] if p["queue"] == "droptail" else \
        topo.link_ids() if p["queue_on"] == "all" else [topo.link_id(*monitor)]
    links = {link: {"queue": make_queue(p["queue"], int(p["buffer_pkts"]))} for link in queued}
    fwd, rev = topo.link_id(*monitor), topo.link_id(*reversed(monitor))
    for link, cfg in network_keys.bottleneck_impairments(p, key, fwd, rev).items():
        links[link] = {**links.get(link, {}), **cfg}
    config = FlowConfig(
        duration=float(p["duration"]), sample_interval=float(p["sample_interval"]),
        data_size=int(p["packet_bytes"]), ack_size=ACK_BYTES, tcp=tcp, topology=topo, flow_ends=ends,
        monitor=monitor, start_times=starts, recoveries=list(recs), links=links,
        schedule=network_keys.rate_changes(p) if p["capacity_schedule"] is not None else None)
    sim = FlowModel(key, list(ccs), config)
    # An event per link step, as NS-2 schedules them: these topologies' mirror-image flows send packets that
    # leave two links at the same instant having started there at the same instant, so which goes first is
    # decided by the order the steps were scheduled in, and only stepping reproduces it (working departures
    # out ahead, simulator/net/links.pyx plan, moved results at most points and two claim verdicts). The
    # links are 0.1-1 Mbit/s: little to save.
    sim.plan_links = False
    return summarize(p, sim.run())


def summarize(p, out):
    """NS-2-paper metrics: cwnd level and variability, throughput, one-way latency (data packets,
    sender to receiver), loss (dropped / sent), recovery events; all after `warmup` except the
    time-to-stabilise and the loss/timeout counts, which cover the whole run."""
    s = samples(out)
    t, cwnd, srtt, deliv, drops, sent = s.t, s.cwnd, s.srtt, s.delivered, s.drops, s.sent
    dsum, dcnt, dmax = s.delay_sum, s.delay_count, s.delay_max
    if int(p["window"]) > 0:        # the window in use: NS-2's cwnd_ keeps growing past window_
        cwnd = np.minimum(cwnd, int(p["window"]))
    dt, payload = float(p["sample_interval"]), p["packet_bytes"] - HEADER_BYTES
    warm = t >= p["warmup"]
    tput = rs.throughput_mbps(deliv, dt, payload)                  # per flow, per interval
    d_sum, d_cnt = rs.per_interval(dsum), rs.per_interval(dcnt)
    lat = np.where(d_cnt.sum(axis=1) > 0, d_sum.sum(axis=1) / np.maximum(d_cnt.sum(axis=1), 1), np.nan)
    flows, end = out["flows"], out["end_time"]
    total_sent = sum(f["sent"] for f in flows)
    m = {
        "cwnd_mean": float(cwnd[warm].mean()),
        "cwnd_sd": float(cwnd[warm].std(axis=0).mean()),          # per flow over time, averaged
        "cwnd_cv": float(np.nanmean([rs.cv(cwnd[warm, i]) for i in range(cwnd.shape[1])])),
        "cwnd_stable_s": stabilisation_time(t, cwnd),
        "throughput_mbps": float(sum(f["delivered"] for f in flows) * 8 * payload / end / 1e6),
        "throughput_per_flow_mbps": float(sum(f["delivered"] for f in flows) * 8 * payload / end / 1e6 / len(flows)),
        "throughput_cv": float(np.nanmean([rs.cv(tput[warm, i]) for i in range(tput.shape[1])])),
        "latency_mean_s": float(np.nansum(d_sum[warm]) / max(np.nansum(d_cnt[warm]), 1)),
        "latency_sd_s": float(np.nanstd(lat[warm])),
        "latency_p95_s": float(np.nanpercentile(lat[warm], 95)) if np.isfinite(lat[warm]).any() else float("nan"),
        "latency_max_s": float(dmax[warm].max()),
        "loss_pct": 100.0 * sum(f["drops"] for f in flows) / total_sent if total_sent else 0.0,
        "retransmit_pct": 100.0 * sum(f["retransmitted"] for f in flows) / total_sent if total_sent else 0.0,
        "timeouts": sum(f["timeouts"] for f in flows),
        "fast_retransmits": sum(f["recoveries"] for f in flows),
        "mean_srtt_ms": float(np.nanmean([f["mean_srtt_ms"] for f in flows])),
        "sent": total_sent, "end_time": end, "events": out["events"],
    }
    result = {"metrics": rs.clean(m)}
    if p["trace"]:
        drop_i, sent_i = rs.per_interval(drops), rs.per_interval(sent)
        trace = {"t": t.tolist(), "queue_pkts": s.queue_pkts.tolist(),
                 "latency_s": [None if not np.isfinite(x) else float(x) for x in lat]}
        for i in range(cwnd.shape[1]):
            trace[f"cwnd_{i}"] = cwnd[:, i].tolist()
            trace[f"throughput_mbps_{i}"] = tput[:, i].tolist()
            trace[f"loss_pct_{i}"] = np.where(sent_i[:, i] > 0, 100 * drop_i[:, i] / np.maximum(sent_i[:, i], 1),
                                              0.0).tolist()
        result["trace"] = trace
    return result


def stabilisation_time(t, cwnd, tolerance=0.25, hold=10.0):
    """First time from which flow 0's cwnd stays within +-tolerance of its mean over the run's
    last `hold` s; the run's length if it never settles."""
    c = cwnd[:, 0]
    ref = c[t >= t[-1] - hold].mean()
    if ref <= 0:
        return float(t[-1])
    outside = np.abs(c - ref) > tolerance * ref
    idx = np.nonzero(outside)[0]
    if idx.size == 0:
        return float(t[0])
    return float(t[idx[-1] + 1]) if idx[-1] + 1 < len(t) else float(t[-1])
