"""Any network from a study file: a topology, flow classes on their own routes with their own algorithm,
and open-loop traffic (issue 37).

A study gives its nodes (`hosts`, `routers`), `links` (duplex: rate, delay, buffer, queue discipline; the way
back may have a rate and buffer of its own) and `flow_classes` (from, to, via, algorithm, workload); this module
checks them against each other, builds the Topology (simulator/net/topology.py) and the FlowClasses
(simulator/models/openloop_config.py) and runs the open-loop model (simulator/models/openloop_model.pyx).
Poisson classes share the offered load `load` (a fraction of `load_link`'s rate) by their load_share, with sizes
from `sizes` (simulator/workloads/).
Metrics: flow completion times and slowdowns by size, long-lived flows' goodput, the monitored link's
utilization, drops and queue (simulator/scenarios/open_network.outputs.yaml).
"""
import math
from pathlib import Path

import numpy as np

from simulator.params import check_span, defaults_of, load_params, with_defaults
from simulator.scenarios import network_keys
from simulator.tcp import stacks
from simulator.tcp.cc import catalogue

HEADERS, ACK_WIRE = 54, 66


def on_sack(name: str, sack: bool = True) -> bool:
    """Algorithm `name` runs on the SACK sender under a stack with `sack` (catalogue.build's rule, without
    building one: Tahoe has no SACK variant, its cumulative-ACK recovery is its own)."""
    a = catalogue.algorithm(name)
    return (sack and a.sack) or a.recovery is None


ALGORITHMS = [a for a in catalogue.names_for(catalogue.Stack("linux", sack=True)) if on_sack(a)]
PARAMS = load_params(Path(__file__).with_suffix(".params.yaml"), ALGORITHMS)
DESCRIPTION = "any topology from the study file; long-lived and arriving flows by class (completion times)"
DEFAULTS = defaults_of(PARAMS)
SIZE_KINDS = ("websearch", "datamining", "pareto:<mean bytes>:<shape>", "lognormal:<mean bytes>:<sigma>",
              "fixed:<bytes>", "file:<path>")
BUCKETS = (("small", 0, 100e3), ("medium", 100e3, 10e6), ("large", 10e6, math.inf))   # bytes, (low, high]


def key_params(p: dict) -> dict:
    """The run key's parameters (simulator/registry.py key): the shared rule, plus the sha256 of each trace file a
    class reads, so an edited file is a different run."""
    import hashlib
    kp = network_keys.key_params(p)
    traces = {c["name"]: hashlib.sha256(Path(c["trace_file"]).read_bytes()).hexdigest()
              for c in p.get("flow_classes") or [] if c.get("trace_file")}
    return {**kp, "trace_sha256": traces} if traces else kp


def read_trace(path, duration, where) -> list:
    """[(start s, bytes)] of a trace file (a header line, then start_s,size_bytes per flow); ValueError naming the
    file, line and what is allowed."""
    try:
        lines = Path(path).read_text().splitlines()
    except OSError as e:
        raise ValueError(f"{where}.trace_file: {path}: {e.strerror}; allowed: a CSV file of start_s,size_bytes lines") from None
    out = []
    for n, line in enumerate(lines[1:], 2):
        try:
            t, size = (float(x) for x in line.split(","))
        except ValueError:
            raise ValueError(f"{where}.trace_file: {path}:{n}: {line!r} is not start_s,size_bytes") from None
        if not (0 <= t < duration and size >= 1) or (out and t < out[-1][0]):
            raise ValueError(f"{where}.trace_file: {path}:{n}: start {t:g} s, {size:g} bytes; allowed: starts not falling, "
                             f"in [0, duration {duration:g} s), sizes >= 1 byte")
        out.append((t, size))
    if not out:
        raise ValueError(f"{where}.trace_file: {path}: no flows (a header line, then start_s,size_bytes per flow)")
    return out


def size_distribution(spec: str, where: str):
    """The SizeDistribution of a `sizes` value; ValueError naming `where` and the allowed forms."""
    from simulator.workloads import SHIPPED, SizeDistribution, read_cdf
    kind, _, rest = str(spec).partition(":")
    allowed = f"allowed: {', '.join(SIZE_KINDS)}"
    try:
        if kind in SHIPPED and not rest:
            return SizeDistribution(kind)
        if kind == "file" and rest:
            read_cdf(str(Path(rest)))
            return SizeDistribution("cdf_file", path=str(Path(rest)))
        nums = [float(x) for x in rest.split(":")] if rest else []
        if kind == "pareto" and len(nums) == 2 and nums[0] > 0 and nums[1] > 1:
            return SizeDistribution("pareto", mean_bytes=nums[0], shape=nums[1])
        if kind == "lognormal" and len(nums) == 2 and nums[0] > 0 and nums[1] > 0:
            return SizeDistribution("lognormal", mean_bytes=nums[0], sigma=nums[1])
        if kind == "fixed" and len(nums) == 1 and nums[0] >= 1:
            return SizeDistribution("fixed", mean_bytes=nums[0])
    except (ValueError, OSError) as e:
        raise ValueError(f"{where}: {spec!r}: {e}; {allowed}") from None
    raise ValueError(f"{where}: {spec!r} is not a size distribution (pareto's shape > 1, means > 0); {allowed}")


def build_topology(p):
    """The study's topology as a Topology; ValueError naming the key."""
    from simulator.net.topology import Topology
    t = p
    names = list(t["hosts"]) + list(t["routers"])
    if len(set(names)) != len(names):
        raise ValueError(f"hosts, routers: node names repeat: {names}; each node needs its own name")
    topo = Topology("network", hosts=list(t["hosts"]), routers=list(t["routers"]))
    for i, l in enumerate(t["links"]):
        a, b = l["between"]
        if a == b or {a, b} - set(names):
            raise ValueError(f"links[{i}].between: {l['between']}; allowed: two different nodes of "
                             f"{', '.join(names)}")
        topo.add_link(a, b, l["mbps"] * 1e6, l["delay_ms"] / 1e3, int(l["buffer_pkts"]),
                      reverse_rate_bps=l["reverse_mbps"] * 1e6 if "reverse_mbps" in l else None,
                      reverse_buffer_pkts=l.get("reverse_buffer_pkts"))
    return topo


def link_of(topo, pair, key):
    if pair is None or len(pair) != 2:
        raise ValueError(f"{key}: {pair!r}; allowed: [a, b], two linked nodes")
    try:
        topo.link_id(*pair)
    except ValueError:
        raise ValueError(f"{key}: {list(pair)} is not a link of the topology") from None
    return tuple(pair)


def monitor(p, topo):
    if p["monitor"] is not None:
        return link_of(topo, p["monitor"], "monitor")
    first = p["flow_classes"][0]
    path = first.get("via") or topo.path(first["from"], first["to"])
    return tuple(path[1:3]) if len(path) > 2 else tuple(path[:2])


def check_classes(p, topo, details):
    """Every class's hosts, route, algorithm, workload keys and sizes; ValueError naming the key."""
    names = [c["name"] for c in p["flow_classes"]]
    if len(set(names)) != len(names):
        raise ValueError(f"flow_classes: names repeat: {names}; each class needs its own name")
    for i, c in enumerate(p["flow_classes"]):
        where = f"flow_classes[{i}] ({c['name']})"
        for k in ("from", "to"):
            if c[k] not in topo.hosts:
                raise ValueError(f"{where}.{k}: {c[k]!r} is not a host; allowed: {', '.join(topo.hosts)}")
        via = c.get("via")
        if via is not None:
            if via[0] != c["from"] or via[-1] != c["to"]:
                raise ValueError(f"{where}.via: {via} must start at {c['from']} and end at {c['to']}")
            try:
                topo.hops_along(via)
            except ValueError as e:
                raise ValueError(f"{where}.via: {e}") from None
        alg = c.get("algorithm", p["algorithm"])
        if alg not in catalogue.accepted(ALGORITHMS):
            raise ValueError(f"{where}.algorithm: {alg!r}; allowed: {', '.join(ALGORITHMS)}")
        if not on_sack(alg, details.sack):
            raise ValueError(f"{where}.algorithm: {alg!r} would run without SACK (stack {details.stack}, sack: "
                             f"{details.sack}); the network model runs SACK TCP only; allowed: stack linux or ns3")
        workload = c.get("workload", "long")
        own = {"long": {"flows", "start_s", "start_interval_s"}, "poisson": {"start_s", "stop_s", "load_share", "sizes"},
               "trace": {"trace_file"}}
        stray = sorted(set(c) - own[workload] - {"name", "from", "to", "via", "algorithm", "workload"})
        if stray:
            raise ValueError(f"{where}: {', '.join(stray)} do(es) nothing for workload {workload}; its keys: "
                             f"{', '.join(sorted(own[workload]))}")
        if "sizes" in c:
            size_distribution(c["sizes"], f"{where}.sizes")
        if workload == "trace":
            if "trace_file" not in c:
                raise ValueError(f"{where}: workload trace needs trace_file (a CSV file of start_s,size_bytes lines)")
            read_trace(c["trace_file"], float(p["duration"]), where)
        if float(c.get("start_s", 0.0)) >= float(p["duration"]):
            raise ValueError(f"{where}.start_s: {c['start_s']} s is not before the run's end ({p['duration']} s)")
        if workload == "long":
            network_keys.check_flows(p, int(c.get("flows", 1)))


def params_with_defaults(params):
    """The run's full parameters: declared defaults overridden by `params`, checked against each other."""
    p = with_defaults(DEFAULTS, params)
    for key in ("algorithm", "hosts", "links", "flow_classes"):
        if p.get(key) is None:
            raise ValueError(f"{key}: required by model network (simulator/scenarios/open_network.params.yaml)")
    if p["algorithm"] not in catalogue.accepted(ALGORITHMS):
        raise ValueError(f"algorithm {p['algorithm']!r} unknown for model network; allowed: {', '.join(ALGORITHMS)}")
    check_span(p)
    try:
        details = stacks.resolve(p)
    except ValueError as e:
        raise ValueError(f"stack: {e} (model network)") from None
    topo = build_topology(p)
    check_classes(p, topo, details)
    monitor(p, topo)
    link_of(topo, p["load_link"] or monitor(p, topo), "load_link")
    size_distribution(p["sizes"], "sizes")
    return p


def path_terms(topo, nodes, data_size):
    """(propagation delay s, one data packet's serialisation over every hop s, slowest rate bit/s, a handshake:
    an ACK-sized packet's way there and back s), each hop at its rate in the direction crossed."""
    hops = topo.hops_along(nodes)
    prop = sum(topo.links[i].delay for i, _ in hops)
    there = [topo.links[i].rate(d) for i, d in hops]
    back = [topo.links[i].rate(1 - d) for i, d in hops]
    return (prop, sum(data_size * 8.0 / r for r in there), min(there),
            (prop + sum(ACK_WIRE * 8.0 / r for r in there)) + (prop + sum(ACK_WIRE * 8.0 / r for r in back)))


def flow_classes(p, key, topo):
    """The FlowClasses of the study's flow_classes (simulator/models/openloop_config.py), and each one's
    ideal-FCT terms (path_terms)."""
    from simulator.models.openloop_config import FlowClass
    from simulator.workloads import arrival_rate
    details = stacks.resolve(p)
    data_size = p["mss_bytes"] + HEADERS
    load_id = topo.link_id(*(p["load_link"] or monitor(p, topo)))
    load_bps = topo.links[load_id // 2].rate(load_id % 2)
    poisson = [c for c in p["flow_classes"] if c.get("workload", "long") == "poisson"]
    shares = sum(float(c.get("load_share", 1.0)) for c in poisson)
    out, terms = [], []
    for c in p["flow_classes"]:
        alg = c.get("algorithm", p["algorithm"])

        def controller(serial, alg=alg):
            return catalogue.build(alg, stacks.catalogue_stack(details, key, serial))[0]
        via = c.get("via")
        fc = FlowClass(c["name"], c["from"], c["to"], controller, c.get("workload", "long"), mss=p["mss_bytes"],
                       via=list(via) if via else None, start=float(c.get("start_s", 0.0)))
        if fc.workload == "long":
            fc.flows, fc.start_interval = int(c.get("flows", 1)), float(c.get("start_interval_s", 0.0))
        elif fc.workload == "trace":
            fc.trace = read_trace(c["trace_file"], float(p["duration"]), c["name"])
        else:
            fc.sizes = size_distribution(c.get("sizes", p["sizes"]), "sizes")
            fc.stop = float(c.get("stop_s", math.inf))
            load = p["load"] * float(c.get("load_share", 1.0)) / shares
            fc.rate = arrival_rate(load, load_bps, fc.sizes, p["mss_bytes"], data_size)
        out.append(fc)
        terms.append(path_terms(topo, fc.path(topo), data_size))
    return out, terms


def run(p, key):
    """One run of parameters `p` (through params_with_defaults) with run key `key`."""
    from simulator.models.openloop_config import OpenLoopConfig
    from simulator.models.openloop_model import OpenLoopModel
    topo = build_topology(p)
    classes, terms = flow_classes(p, key, topo)
    config = OpenLoopConfig(topo, classes, monitor(p, topo), duration=float(p["duration"]), warmup=float(p["warmup"]),
                            sample_interval=float(p["sample_interval"]), data_size=p["mss_bytes"] + HEADERS,
                            ack_size=ACK_WIRE, tcp=network_keys.tcp_options(p, stacks.resolve(p)),
                            links=queues(p, topo))
    out = OpenLoopModel(key, config).run()
    return summarize(p, out, terms, stacks.syn_timeout(stacks.resolve(p)) > 0)


def queues(p, topo):
    """{link id: {queue}}: an FQ-CoDel (RFC 8290's defaults: 5 ms target, 100 ms interval, a 1514-byte
    quantum) on both directions of each link whose queue is fq_codel, its limit the direction's buffer."""
    from functools import partial
    out = {}
    for i, spec in enumerate(topo.links):
        if p["links"][i].get("queue", "droptail") == "fq_codel":
            for d in (0, 1):
                out[2 * i + d] = {"queue": partial(_fq_codel, limit=spec.buffer(d))}
    return out


def _fq_codel(events, limit):
    from simulator.net.codel import FqCoDelQueue
    return FqCoDelQueue(events, limit, 0.005, 0.1, 1514, 1514)


def slowdowns(p, done, terms, handshake):
    """Each finished flow's FCT over its ideal: its path's propagation delay, one packet's serialisation on
    every hop and the rest of its packets at the slowest rate, plus a round trip with a handshake."""
    data_bits = (p["mss_bytes"] + HEADERS) * 8.0
    t = np.array(terms).reshape(-1, 4)
    k = done[:, 0].astype(int)
    ideal = t[k, 0] + t[k, 1] + (done[:, 1] - 1) * data_bits / t[k, 2] + (t[k, 3] if handshake else 0.0)
    return done[:, 3] / ideal


def fct_metrics(prefix, fct_s, slow):
    """p50/p99 completion time (ms) and slowdown of one group of flows (NaN: none)."""
    def pct(x, q):
        return float(np.percentile(x, q)) if len(x) else math.nan
    return {f"fct{prefix}_p50_ms": pct(fct_s, 50) * 1e3, f"fct{prefix}_p99_ms": pct(fct_s, 99) * 1e3,
            f"slowdown{prefix}_p50": pct(slow, 50), f"slowdown{prefix}_p99": pct(slow, 99)}


def class_shares(p, out):
    """(the first flow class's payload rate over the run, Mbit/s: its finished flows' segments and what its
    running ones delivered; Jain's index over the long-lived flows' own rates, NaN with fewer than two)."""
    done, running = out["done"], out["running"]
    first = done[done[:, 0] == 0, 1].sum() + running[running[:, 0] == 0, 3].sum()
    long_flows = running[running[:, 1] < 0]
    rates = long_flows[:, 3] / np.maximum(out["end_time"] - long_flows[:, 2], 1e-9)
    jain = float(rates.sum() ** 2 / (len(rates) * (rates ** 2).sum())) if len(rates) > 1 and (rates ** 2).sum() > 0 \
        else math.nan
    return float(first * p["mss_bytes"] * 8 / out["end_time"] / 1e6), jain


def summarize(p, out, terms, handshake):
    done, running = out["done"], out["running"]
    warm = done[done[:, 2] >= p["warmup"]]
    slow = slowdowns(p, warm, terms, handshake)
    size_bytes = warm[:, 1] * p["mss_bytes"]
    m = {"flows_arrived": out["arrived"], "flows_completed": len(done),
         "flows_unfinished": int((running[:, 1] > 0).sum()), "peak_active_flows": out["peak_active"],
         "fct_mean_ms": float(warm[:, 3].mean() * 1e3) if len(warm) else math.nan,
         "slowdown_mean": float(slow.mean()) if len(slow) else math.nan}
    m.update(fct_metrics("", warm[:, 3], slow))
    for name, low, high in BUCKETS:
        sel = (size_bytes > low) & (size_bytes <= high)
        m[f"flows_{name}"] = int(sel.sum())
        m.update(fct_metrics(f"_{name}", warm[sel, 3], slow[sel]))
    long_flows = running[running[:, 1] < 0]
    alive = out["end_time"] - long_flows[:, 2]
    m["long_goodput_mbps"] = float((long_flows[:, 3] * p["mss_bytes"] * 8 / np.maximum(alive, 1e-9)).sum() / 1e6) \
        if len(long_flows) else math.nan
    m["first_class_goodput_mbps"], m["jain_long"] = class_shares(p, out)
    link = out["monitor"]
    m["utilization"] = link["sent_bytes"] * 8 / (link["rate_bps"] * out["end_time"])
    m["drop_pct"] = 100.0 * link["drops"] / max(link["sent_pkts"] + link["drops"], 1)
    q = out["queue"]
    q_warm = q[q[:, 0] >= p["warmup"], 1]
    m["queue_mean_pkts"] = float(q_warm.mean()) if len(q_warm) else math.nan
    m["queue_p99_pkts"] = float(np.percentile(q_warm, 99)) if len(q_warm) else math.nan
    per_pkt_ms = (p["mss_bytes"] + HEADERS) * 8e3 / link["rate_bps"]       # the draft's delay: the queue's wait
    m["queue_delay_mean_ms"], m["queue_delay_p99_ms"] = m["queue_mean_pkts"] * per_pkt_ms, m["queue_p99_pkts"] * per_pkt_ms
    m["end_time"], m["events"] = out["end_time"], out["events"]
    m = {k: (float(v) if isinstance(v, (float, np.floating)) else int(v)) for k, v in m.items()}
    result = {"metrics": m}
    if p["trace"]:
        result["trace"] = {"t": q[:, 0].tolist(), "queue_pkts": q[:, 1].tolist()}
    return result
