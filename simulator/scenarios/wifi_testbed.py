"""The Wi-Fi testbed study (catalogue.yaml: testbed): parameters -> run -> metrics.

What the paper and its scripts fix: a Linux sender (client) on Ethernet or Wi-Fi and a receiver
on Wi-Fi, both on one consumer access point; iperf3 for 60 s with BBR, CUBIC, Reno or Vegas;
background "light" and "heavy" were both 8 parallel flows; ping every 0.2 s under load gives RTT
and loss; `ss` snapshots of cwnd every second; per run mean/p90/p95 of 1-s throughput and of
RTT, ping loss %, median/p95 cwnd.  What it leaves open, and our choices (parameters, stated in
the chapter's "parameters we chose" page; none tuned to the paper's numbers):
  * Wi-Fi: one half-duplex channel of wifi_mbps (802.11n-class TCP-level capacity) shared by
    every wireless hop in both directions (Network.set_medium: one frame on the air at a time,
    round robin among the senders with frames waiting), 1 ms one way per hop.  So on the
    Wi-Fi-to-Wi-Fi path each data packet uses the air twice, and ACKs, the reverse flow of a
    bidirectional run and pings all take airtime.  Ethernet: 1 Gbit/s, 0.1 ms.
  * Wi-Fi noise on every wireless hop, both directions: independent loss after MAC retries
    (loss_pct), jitter uniform in [0, 2 * jitter_ms] ms without
    reordering, and capacity redrawn every capacity_interval s by a seeded AR(1) process
    (sd capacity_sd of the mean); or, with `capacity_schedule: [[t_s, mbit/s], ...]`, a fixed
    schedule of the wireless capacity instead (times increasing, from 0).
  * the access point's transmit queue: DropTail of ap_buffer_pkts (Linux's txqueuelen 1000); or, with
    medium: wifi and ap_queue: fq_codel, mac80211's FQ-CoDel on each of its wireless links (target, interval
    and quantum as mac80211 sets them; simulator/net/codel.pyx).
  * background flows: CUBIC (Linux's default) from the same client to the same server, started
    with the measured flow; bidirectional: a second flow of the same algorithm server -> client.
  * optional UDP-like cross traffic on the same path at cross_mbps (mean load): Poisson packets,
    or on-off (exponential on and off periods of mean 0.5 s, twice the load while on).
  * TCP: Linux's details (`stack: linux`, simulator/tcp/stacks.py; each a key of its own); extra
    random loss per direction on the access point's hop to the server (loss_fwd_pct: data,
    loss_rev_pct: ACKs, on top of loss_pct), mss_bytes, rwnd_pkts and start_times_s (one per flow:
    measured, reverse, background) as in the other network models.
"""
from pathlib import Path

import numpy as np

from simulator.core.rng import Stream
from simulator.models.flow_config import samples
from simulator.scenarios import network_keys
from simulator.scenarios import run_summaries as rs
from simulator.params import check_choice, check_span, defaults_of, load_params, with_defaults
from simulator.tcp import stacks
from simulator.tcp.cc import catalogue
from simulator.scenarios.dumbbell import MAX_CLASSIC_PACKETS
from simulator.net import wifi_phy

ALGORITHMS = catalogue.names_for(catalogue.Stack("linux", sack=True))   # simulator/tcp/cc/catalogue/
LINK_SETUPS = ("eth_wifi", "wifi_wifi")
MEDIA = ("simple", "wifi")
CROSS_MODES = ("poisson", "onoff")      # UDP-like cross traffic: Poisson, or on-off (mean 0.5 s each)
BACKGROUNDS = {"none": 0, "light": 8, "heavy": 8}   # the authors' scripts: both 8 parallel flows
# every parameter of this model, declared once in simulator/scenarios/wifi_testbed.params.yaml; the
# defaults derive from them (simulator/params.py)
PARAMS = load_params(Path(__file__).with_suffix(".params.yaml"), ALGORITHMS)
DESCRIPTION = "hosts on Ethernet or Wi-Fi behind one access point, with background load and ping"
DEFAULTS = defaults_of(PARAMS)
# Ethernet framing: TCP data is mss_bytes + HEADERS on the wire, UDP cross traffic WIRE; ping: 56-byte payload
HEADERS, WIRE, ACK_WIRE, PING_WIRE = 66, 1514, 66, 98


# keys of the abstract channel (medium: simple) and of the 802.11 one (medium: wifi, the mac_ keys)
SIMPLE_ONLY = ("wifi_mbps", "loss_pct", "jitter_ms", "capacity_sd", "capacity_interval", "capacity_schedule")

# the access point's FQ-CoDel (ap_queue: fq_codel): out of every fifo run's key, so existing runs keep theirs
AP_QUEUE_KEYS = ("ap_queue", "ap_codel_target_ms", "ap_codel_interval_ms", "ap_fq_quantum_bytes")
AP_QUEUES = ("fifo", "fq_codel")


def mac_keys(p):
    return [k for k in p if k.startswith("mac_")]


def key_params(p):
    """The parameters a run's key is computed from: unset late keys stay out, and so do `medium` and
    the mac_ keys of a simple-medium run (they came later and do not touch it: every existing run
    kept its key), and the simple channel's keys of an 802.11 run (it does not read them)."""
    q = network_keys.key_params(p)
    if q.get("ap_queue", "fifo") == "fifo":
        q = {k: v for k, v in q.items() if k not in AP_QUEUE_KEYS}
    if q.get("medium", "simple") == "simple":
        return {k: v for k, v in q.items() if k != "medium" and not k.startswith("mac_")}
    q = {k: v for k, v in q.items() if not (k[4:] in wifi_phy.LATE_DEFAULTS and v == wifi_phy.LATE_DEFAULTS[k[4:]])}
    return {k: v for k, v in q.items() if k not in SIMPLE_ONLY}


def check_medium_keys(p, given):
    """Each medium's keys only with that medium: a key the run would not read is an error, not ignored."""
    if p["medium"] == "wifi":
        wrong = [k for k in SIMPLE_ONLY if given.get(k) is not None]
        other = "medium: simple"
    else:
        wrong = [k for k in mac_keys(given) if given[k] is not None]
        other = "medium: wifi"
    if wrong:
        raise ValueError(f"keys {wrong} apply to {other} only, and this run has medium: {p['medium']}; "
                         f"allowed: drop them, or set medium to the one they describe")
    check_ap_queue_keys(p, given)


def check_ap_queue_keys(p, given):
    """FQ-CoDel needs the 802.11 channel (its wireless links are the ones the discipline is set on), and
    its keys need ap_queue: fq_codel."""
    if p["ap_queue"] == "fq_codel" and p["medium"] != "wifi":
        raise ValueError(f"ap_queue: fq_codel needs medium: wifi (mac80211's queues on the 802.11 channel), "
                         f"and this run has medium: {p['medium']}; allowed: ap_queue: fifo, or medium: wifi")
    wrong = [k for k in AP_QUEUE_KEYS[1:] if given.get(k) is not None]
    if p["ap_queue"] == "fifo" and wrong:
        raise ValueError(f"keys {wrong} apply to ap_queue: fq_codel only, and this run has ap_queue: fifo; "
                         f"allowed: drop them, or set ap_queue: fq_codel")
    if p["ap_codel_target_ms"] > p["ap_codel_interval_ms"]:
        raise ValueError(f"ap_codel_target_ms: {p['ap_codel_target_ms']} exceeds ap_codel_interval_ms: "
                         f"{p['ap_codel_interval_ms']}; allowed: a target at most the interval (RFC 8289 4.4)")


def params_with_defaults(params):
    """The run's full parameters: the declared defaults overridden by `params`, checked."""
    p = with_defaults(DEFAULTS, params)
    for key, allowed in (("medium", MEDIA), ("algorithm", catalogue.accepted(ALGORITHMS)), ("link_setup", LINK_SETUPS),
                         ("background", tuple(BACKGROUNDS)), ("background_cc", catalogue.accepted(ALGORITHMS)),
                         ("cross_mode", CROSS_MODES), ("stack", stacks.NAMES), ("ap_queue", AP_QUEUES)):
        check_choice(p, key, allowed, "testbed")
    network_keys.check(p, "testbed", len(flow_algorithms(p)))
    for name in set(flow_algorithms(p)):
        if not catalogue.algorithm(name).runs_on(stacks.catalogue_stack(stacks.resolve(p))):
            raise ValueError(f"algorithm {name!r} needs the SACK sender's rate samples and pacing; sack: false "
                             f"leaves only cumulative ACKs; allowed: sack: true, or another algorithm")
    if p["duration"] <= 2 or p["wifi_mbps"] <= 0 or not 0 <= p["loss_pct"] < 100:
        raise ValueError("need duration > 2 s, wifi_mbps > 0, 0 <= loss_pct < 100 "
                         f"(got {p['duration']}, {p['wifi_mbps']}, {p['loss_pct']})")
    check_span(p)
    check_medium_keys(p, params)
    if p["medium"] == "wifi":
        try:
            wifi_phy.wifi_config(mac_params(p))   # the PHY's combinations (e.g. 802.11n has no 80 MHz)
        except ValueError as e:
            raise ValueError(f"testbed: the mac_ keys (wifi.params.yaml's names with mac_ in front): {e}") from None
    return p


def mac_params(p):
    """The 802.11 channel's parameters (simulator/net/wifi.params.yaml names) of a medium: wifi run."""
    return {k[len("mac_"):]: p[k] for k in mac_keys(p)}


def build_topology(p, stations=1):
    """The access point, the client (wired or wireless) and the server; stations > 1 adds wireless hosts
    server2, server3, ... (the ns-3 comparison's multi-station cells)."""
    from simulator.net.topology import access_point
    wired = ["client"] if p["link_setup"] == "eth_wifi" else []
    wireless = ["server"] + [f"server{i}" for i in range(2, stations + 1)] + ([] if wired else ["client"])
    return access_point(wired, wireless, p["wired_mbps"] * 1e6, p["wifi_mbps"] * 1e6,
                        p["wired_delay_ms"] / 1e3, p["wifi_delay_ms"] / 1e3, int(p["ap_buffer_pkts"]))


def controller(name, p, key, flow):
    """(controller, recovery) of one flow: the details of the stack in force, QtCol's alpha 1.2."""
    return catalogue.build(name, stacks.catalogue_stack(stacks.resolve(p), key, flow, 1.2))


def flow_algorithms(p):
    """Algorithm of each TCP flow: measured, reverse (bidir), background."""
    return [p["algorithm"]] + ([p["algorithm"]] if p["bidir"] else []) \
        + [p["background_cc"]] * BACKGROUNDS[p["background"]]


def impairments(topo, p, key):
    """Loss and jitter on every wireless hop, each direction with its own stream.  Losses are
    independent (Bernoulli): a per-packet Gilbert-Elliott chain only moves when packets pass, so
    on an idle link it would stay in its bad state and punish slow senders (Vegas) and ping
    unphysically; fading is a matter of time, not of packets."""
    from simulator.net.impairments import BernoulliLoss, Jitter
    j = p["jitter_ms"] / 1e3
    extra = {topo.link_id("ap", "server"): p["loss_fwd_pct"] / 100.0,
             topo.link_id("server", "ap"): p["loss_rev_pct"] / 100.0}
    out = {}
    for link in topo.link_ids("wireless"):
        mean = p["loss_pct"] / 100.0
        if extra.get(link, 0.0) > 0:        # both drop independently: survive both
            mean = 1.0 - (1.0 - mean) * (1.0 - extra[link])
        out[link] = {"loss": BernoulliLoss(mean, Stream(key, f"wifi-loss-{link}")) if mean > 0 else None,
                     "jitter": Jitter(j, j, "uniform", Stream(key, f"wifi-jitter-{link}"), False) if j > 0 else None}
    return out


def capacity_process(p, key):
    """The wireless hops' capacity over time: the study's schedule, or the seeded AR(1) process
    (None when capacity_sd is 0 and there is no schedule)."""
    from simulator.net.impairments import RandomCapacity
    if p["capacity_schedule"] is not None:
        return network_keys.capacity_schedule(p)
    if p["capacity_sd"] <= 0:
        return None
    return RandomCapacity(p["wifi_mbps"] * 1e6, float(p["capacity_sd"]),
                          float(p["capacity_interval"]), Stream(key, "wifi-capacity"))


def capacity_schedule(topo, p, key):
    """Rate changes of every wireless hop (both directions and both hops together: one channel),
    at each change point of the capacity process."""
    proc = capacity_process(p, key)
    if proc is None:
        return []
    links = topo.link_ids("wireless")
    out, t = [], 0.0
    while t < p["duration"]:
        out.append((t, "rate", proc.py_rate_at(t), links))
        t = proc.py_next_change(t)
    return out


def wifi_channel(topo, p):
    """The 802.11 channel's set-up: every wireless link, sent on by its source node (the access point
    has one backoff for its links to both hosts)."""
    links, owners = [], []
    for link in topo.link_ids("wireless"):
        spec = topo.links[link // 2]
        links.append(link)
        owners.append(spec.a if link % 2 == 0 else spec.b)
    return {"links": links, "owners": owners, "params": mac_params(p)}


def ap_queues(topo, p):
    """ap_queue: fq_codel: one FQ-CoDel per access-point-to-host wireless link, as mac80211 keeps one per
    station and TID (net/mac80211/tx.c; one TID here), each reading the run's clock (FlowModel builds it
    with the EventQueue).  mtu 0: mac80211's codel_params have no MTU floor (codel_params_init leaves it 0)."""
    if p["ap_queue"] == "fifo":
        return None
    from functools import partial
    make = partial(_fq_codel, limit=int(p["ap_buffer_pkts"]), target=p["ap_codel_target_ms"] / 1e3,
                   interval=p["ap_codel_interval_ms"] / 1e3, quantum=int(p["ap_fq_quantum_bytes"]))
    return {link: {"queue": make} for link in topo.link_ids("wireless")
            if (topo.links[link // 2].a if link % 2 == 0 else topo.links[link // 2].b) == "ap"}


def _fq_codel(events, limit, target, interval, quantum):
    from simulator.net.codel import FqCoDelQueue
    return FqCoDelQueue(events, limit, target, interval, quantum, 0)


def channel(topo, p, key):
    """FlowConfig's settings of the wireless hops: the abstract channel's loss, jitter, capacity changes
    and half-duplex medium, or the 802.11 channel."""
    if p["medium"] == "wifi":
        return {"wifi": wifi_channel(topo, p), "links": ap_queues(topo, p)}
    return {"links": impairments(topo, p, key), "medium": topo.link_ids("wireless"),
            "schedule": capacity_schedule(topo, p, key)}


def ping_probe(p):
    """The ping under load: client to server every ping_interval s from the start."""
    return {"src": "client", "dst": "server", "interval": float(p["ping_interval"]), "size": PING_WIRE,
            "start": 0.0}


def run(p, key):
    """One run of parameters `p` (already through params_with_defaults) with run key `key`."""
    return summarize(p, simulate(p, key), ping_probe(p))


def simulate(p, key, upload=False, stations=1):
    """The flow model's output of one run (its samples, flows and probes; `run` summarizes it).  For the ns-3
    comparison's TCP cells (not study keys): upload, the measured flow goes from server to client instead;
    stations > 1, flows 1 .. stations - 1 go from the client to stations server2, server3, ... as flow 0 to the server."""
    from simulator.models.flow_config import FlowConfig
    from simulator.models.flow_model import FlowModel
    topo = build_topology(p, stations)
    n_bg = BACKGROUNDS[p["background"]]
    algos = flow_algorithms(p)
    algos = algos[:1] + [p["algorithm"]] * (stations - 1) + algos[1:]
    ends = [("server", "client") if upload else ("client", "server")] \
        + [("client", f"server{i}") for i in range(2, stations + 1)] \
        + ([("server", "client")] if p["bidir"] else []) + [("client", "server")] * n_bg
    probe = ping_probe(p)
    udp = []
    if p["cross_mbps"] > 0:
        onoff = p["cross_mode"] == "onoff"
        udp = [{"src": "client", "dst": "server", "size": WIRE, "mode": p["cross_mode"],
                "rate_bps": p["cross_mbps"] * 1e6 * (2.0 if onoff else 1.0), "on": 0.5, "off": 0.5}]
    ccs, recs = zip(*[controller(a, p, key, i) for i, a in enumerate(algos)])
    classic = any(r is not None for r in recs)     # Tahoe: the cumulative-ACK sender
    config = FlowConfig(
        udp=udp, recoveries=list(recs) if classic else None,
        duration=float(p["duration"]), sample_interval=float(p["sample_interval"]),
        data_size=p["mss_bytes"] + HEADERS, ack_size=ACK_WIRE, topology=topo, flow_ends=ends,
        monitor=("ap", "server"), start_times=p["start_times_s"] or [0.0] * len(algos),
        probes=[probe],
        tcp={**network_keys.tcp_options(p, stacks.resolve(p)), "packets": MAX_CLASSIC_PACKETS},
        **channel(topo, p, key))
    return FlowModel(key, list(ccs), config).run()


def summarize(p, out, probe):
    """The testbed's per-run summary for the measured flow (flow 0): 1-s throughput mean/p90/p95
    (Mbit/s), ping RTT mean/p90/p95 (ms), ping loss %, cwnd median/p95 from 1-s snapshots
    (packets); plus TCP retransmissions % and the background's and reverse flow's throughput."""
    s = samples(out)
    t, cwnd, srtt, deliv, drops, sent = s.t, s.cwnd, s.srtt, s.delivered, s.drops, s.sent
    dt = float(p["sample_interval"])
    snap = rs.every(t, float(p["snapshot_interval"]), dt)
    per_s = rs.per_interval(deliv[np.r_[0, snap]])[1:] * 8 * p["mss_bytes"] / float(p["snapshot_interval"]) / 1e6
    m = rs.stats(per_s[:, 0], "throughput", "mbps")
    m.update(rs.probe_summary({**out["probes"][0], "interval": probe["interval"]}, float(p["warmup"]),
                              out["end_time"]))
    c = cwnd[snap, 0]
    m["cwnd_median_pkts"] = float(np.median(c))
    m["cwnd_p95_pkts"] = float(np.percentile(c, 95))
    f0 = out["flows"][0]
    m["retransmit_pct"] = 100.0 * f0["retransmitted"] / f0["sent"] if f0["sent"] else 0.0
    m["tcp_rtt_mean_ms"] = f0["mean_srtt_ms"]
    k = 2 if p["bidir"] else 1
    m["reverse_throughput_mbps"] = float(per_s[:, 1].mean()) if p["bidir"] else float("nan")
    m["background_throughput_mbps"] = float(per_s[:, k:].sum(axis=1).mean()) if per_s.shape[1] > k else 0.0
    m["events"] = out["events"]
    result = {"metrics": rs.clean(m)}
    if p["trace"]:
        ts = t[snap]
        log = np.asarray(out["probes"][0]["log"], dtype=float).reshape(-1, 2)
        result["trace"] = {"t": ts.tolist(), "throughput_mbps": per_s[:, 0].tolist(),
                           "cwnd": c.tolist(),
                           "ping_rtt_ms": [float(np.mean(log[(log[:, 0] >= a - 1) & (log[:, 0] < a), 1]) * 1e3)
                                           if ((log[:, 0] >= a - 1) & (log[:, 0] < a)).any() else None
                                           for a in ts]}
    return result
