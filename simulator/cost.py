"""What a study will cost, known before it runs: simulated packets (data + ACK) per run and wall time.

The estimate is an upper bound on the packets the event loop handles, from the parameters alone:
- packet networks (dumbbell, ns2, testbed; network: each flow class's slowest link): the links full for the whole run, i.e. capacity x
  duration / packet size data packets, plus one ACK per `delack_count` data packets (the stack's);
- M/M/1: N data packets, plus an ACK each in the ACK-clocked `standard` variant.
Retransmissions come out of the same capacity, so they are inside the bound; an M/M/1 run with
heavy loss resends more than N (see tests/test_study_cost.py for estimates against real runs).

Wall time divides by the simulator's measured rate (packets per wall second, one core):
- packet networks: 2.0 M/s. README "Speed", "At scale": 1.36 M delivered data packets per wall s
  with 100 flows (`benchmarks/scale.py --flows`, the slowest case measured; 3.9-4.35 M with one flow),
  x 1.5 for the delayed ACKs (one per 2 data packets) = 2.0 M packets/s;
- M/M/1: 2.5 M/s. `benchmarks/speed.py --packets 100000 --repeat 1` on 2026-11-28 01:35, 2 shared cores:
  as_published/none 2.51 M packets/s, the slowest row (as_published Tahoe/Reno/CUBIC 9-10.6 M,
  standard NewReno 4.5 M and CUBIC 6.9 M data + ACK packets/s).

A run's estimate above the study's `max_packets_per_run` is refused before any job. The default,
1e10 packets, is about 80 minutes of one core at 2.0 M packets/s: a run, the unit a job cannot split,
finishes in about an hour on this machine. The ceiling is on one run, not on the study: the runs
of a study are spread over jobs and cores (or a cluster), and their number is capped by `max_runs`.
"""
from __future__ import annotations

import math

PACKETS_PER_SECOND = {"network": 2.0e6, "mm1": 2.5e6}
MAX_PACKETS_PER_RUN = 1e10       # the default of the study key max_packets_per_run (about an hour per run)


def _data_and_acks(data_bits: float, wire_bytes: float, full: dict) -> float:
    from simulator.tcp import stacks

    data = data_bits / (8.0 * wire_bytes)
    return data * (1.0 + 1.0 / stacks.resolve(full).delack_count)


def _schedule_peak(full: dict, rate: float) -> float:
    """The fastest rate, Mbit/s, of the run's rate and its capacity_schedule ([time, Mbit/s] pairs)."""
    return max([rate] + [float(r) for _, r in full.get("capacity_schedule") or []])


def _dumbbell(full: dict) -> float:
    from simulator.scenarios import dumbbell

    mbps = max(dumbbell.fastest_rate_mbps(full), _schedule_peak(full, full["bottleneck_mbps"]))
    return _data_and_acks(mbps * 1e6 * full["duration"], full["mss_bytes"] + dumbbell.HEADERS, full)


def _ns2(full: dict) -> float:
    """Each flow at most at one link's rate (flows may take disjoint paths), or at its window per
    round trip of one link when it has a window cap."""
    per_flow = _schedule_peak(full, full["bandwidth_mbps"]) * 1e6
    window, rtt = int(full["window"] or 0), 2e-3 * full["delay_ms"]
    if window > 0 and rtt > 0:
        per_flow = min(per_flow, window * full["packet_bytes"] * 8.0 / rtt)
    return _data_and_acks(int(full["flows"]) * per_flow * full["duration"], full["packet_bytes"], full)


def _testbed(full: dict) -> float:
    """One Wi-Fi channel carries every wireless packet (simulator/scenarios/wifi_testbed.py); its
    capacity drifts around wifi_mbps with relative sd capacity_sd."""
    from simulator.scenarios import wifi_testbed

    mbps = _schedule_peak(full, full["wifi_mbps"] * (1.0 + float(full["capacity_sd"])))
    return _data_and_acks(mbps * 1e6 * full["duration"], wifi_testbed.WIRE, full)


def _network(full: dict) -> float:
    """Each flow class at most at its path's slowest link for the whole run (classes sharing a link count
    it once each: an upper bound)."""
    from simulator.scenarios import open_network

    topo = open_network.build_topology(full)
    bits = 0.0
    for c in full["flow_classes"]:
        path = c.get("via") or topo.path(c["from"], c["to"])
        bits += min(topo.links[i].rate(d) for i, d in topo.hops_along(path)) * full["duration"]
    return _data_and_acks(bits, full["mss_bytes"] + open_network.HEADERS, full)


def _mm1(full: dict) -> float:
    return float(full["N"]) * (2.0 if full["variant"] == "standard" else 1.0)


ESTIMATES = {"dumbbell": _dumbbell, "ns2": _ns2, "testbed": _testbed, "network": _network, "mm1": _mm1}


def run_packets(params: dict) -> float:
    """Estimated packets (data + ACK) of one run of `params` (a grid point's parameters, with model)."""
    from simulator.params import with_defaults
    from simulator.registry import scenario

    model, mod = params["model"], scenario(params["model"])
    given = {k: v for k, v in params.items() if k != "model"}
    try:
        full = mod.params_with_defaults(given)
    except ValueError:              # e.g. an algorithm the model learns only when a job loads it
        full = with_defaults(mod.DEFAULTS, given)
    return ESTIMATES[model](full)


def wall_seconds(model: str, packets: float) -> float:
    """Wall time of `packets` simulated packets on one core of this machine."""
    return packets / PACKETS_PER_SECOND["mm1" if model == "mm1" else "network"]


def study_cost(study, n_seeds: int) -> tuple[float, float]:
    """(packets, wall seconds on one core) of the whole study: every point x its seeds."""
    seeds = study.seeds or n_seeds
    packets = sum(run_packets(p.params) for p in study.points()) * seeds
    return packets, wall_seconds(study.model, packets)


def cost_text(study, n_seeds: int) -> str:
    """'24 points x 10 seeds, up to 3.1e+08 packets, up to 2.6 min on this machine' (validate's line):
    upper bounds, a link that is not kept full (loss, small buffers) sends less."""
    packets, seconds = study_cost(study, n_seeds)
    seeds = study.seeds or n_seeds
    return (f"{len(study.points())} points x {seeds} seed{'s' if seeds != 1 else ''}, up to {packets:.2g} packets, "
            f"up to {duration_text(seconds)} on this machine")


def check_run_cost(study) -> None:
    """Refuse a study one of whose runs is estimated above its max_packets_per_run, naming the point."""
    from simulator.study_errors import StudyError

    for p in study.points():
        try:
            packets = run_packets(p.params)
        except (ValueError, TypeError, KeyError):
            continue                       # the model's own check names the problem
        if packets > study.max_packets_per_run:
            raise StudyError(
                f"{study.file}: point {p.path!r}: one run is estimated at {packets:.2g} packets (data + ACK), "
                f"about {duration_text(wall_seconds(study.model, packets))} on this machine, above "
                f"max_packets_per_run {study.max_packets_per_run:.2g} (default {MAX_PACKETS_PER_RUN:.0e}, about an hour "
                f"of one core); allowed values: "
                f"runs of at most max_packets_per_run packets. To run it on purpose, add "
                f"`max_packets_per_run: {_round_up(packets):.0e}` to the study file")


def _round_up(x: float) -> float:
    """x rounded up to one significant digit (a value to write into the study file)."""
    scale = 10 ** math.floor(math.log10(x))
    return math.ceil(x / scale) * scale


def duration_text(seconds: float) -> str:
    """'40 s', '3 min', '2.5 h', '12 days' for a printed estimate."""
    if seconds < 60:
        return f"{seconds:.2g} s"
    if seconds < 3600:
        return f"{seconds / 60:.2g} min"
    if seconds < 86400 * 2:
        return f"{seconds / 3600:.2g} h"
    return f"{seconds / 86400:.3g} days"
