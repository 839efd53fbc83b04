"""The packet-network models' common study keys turned into what the flow model takes: the stack's
TCP options, bottleneck impairments (random loss per direction, jitter), a capacity schedule and
per-flow start times.  Each check raises ValueError naming the key and its allowed values; the
models call them from params_with_defaults, so a study is rejected before any job."""
from simulator.core.rng import Stream
from simulator.tcp import stacks


# keys added after results existed: left out of a run's key while unset, so adding them kept every
# existing run's key (and its random streams)
LATE_KEYS = ("flow_extra_delay_ms", "handshake", "rto_timer", "loss_pattern")


def key_params(p: dict) -> dict:
    """The parameters a packet-network run's key is computed from (simulator/registry.py key)."""
    return {k: v for k, v in p.items() if not (k in LATE_KEYS and v is None)}


def check(p: dict, model: str, flows: int) -> None:
    """The number of flows is within the declared limit, with its samples; the stack and its details resolve;
    the capacity schedule parses; one start time per flow, each before the run ends.  (A study's schema
    checks the limit too; this also holds for a run started from Python.)"""
    check_flows(p, flows)
    try:
        d = stacks.resolve(p)
    except ValueError as e:
        raise ValueError(f"stack: {e} (model {model})") from None
    if p.get("rto_initial") is not None and d.handshake == "ns3":
        raise ValueError(f"rto_initial: {p['rto_initial']} s has no effect with handshake ns3 (ns-3 retries a SYN "
                         "after its ConnTimeout, 3 s, and the SYN-ACK's RTT sample sets the RTO before any data); "
                         "allowed: handshake: linux (a SYN waits rto_initial) or none (the first data waits it)")
    if p.get("capacity_schedule") is not None:
        capacity_schedule(p)
    starts = p.get("start_times_s")
    if starts is not None:
        if len(starts) != flows:
            raise ValueError(f"start_times_s: {len(starts)} start times for {flows} flows; allowed: "
                             f"a list of exactly {flows} times (one per flow) in [0, duration)")
        late = [i for i, t in enumerate(starts) if not 0 <= float(t) < float(p["duration"])]
        if late:
            raise ValueError(f"start_times_s[{late[0]}]: {starts[late[0]]} s is not before the run's end; "
                             f"allowed: 0 <= start < duration ({p['duration']} s)")


def check_flows(p: dict, flows: int) -> None:
    """flows within network.params.yaml's one declaration, and flows x samples within run_limits' cap."""
    from simulator.params import shared_declarations
    from simulator.run_limits import sample_problem

    limit = shared_declarations()["flows"]["schema"]["maximum"]
    if not 1 <= flows <= limit:
        raise ValueError(f"flows: {flows}; allowed values: 1 to {limit} (simulator/scenarios/network.params.yaml: "
                         f"each flow's state takes memory)")
    problem = sample_problem({**p, "flows": flows}, None)
    if problem:
        raise ValueError(problem)


def capacity_schedule(p: dict):
    """The study's capacity_schedule as a CapacitySchedule (rates in bit/s)."""
    from simulator.net.impairments import CapacitySchedule
    try:
        points = [(float(t), float(r) * 1e6) for t, r in p["capacity_schedule"]]
    except (TypeError, ValueError):
        raise ValueError(f"capacity_schedule must be a list of [time s, Mbit/s] pairs, "
                         f"got {p['capacity_schedule']!r}") from None
    bad = [i for i, (_, r) in enumerate(points) if not r > 0]
    if bad:
        raise ValueError(f"capacity_schedule[{bad[0]}]: rate {p['capacity_schedule'][bad[0]][1]!r} "
                         f"Mbit/s; allowed: rates > 0 Mbit/s")
    try:
        return CapacitySchedule(points)
    except ValueError as e:
        raise ValueError(f"capacity_schedule: {e}; allowed: [[t0, rate0], [t1, rate1], ...] with "
                         f"0 <= t0 < t1 < ... and rates > 0 Mbit/s") from None


def rate_changes(p: dict, links=None) -> list:
    """Flow-model schedule entries (t, "rate", bit/s[, links]) of the study's capacity_schedule."""
    sched = capacity_schedule(p)
    return [(t, "rate", r) + ((links,) if links is not None else ()) for t, r in sched.points]


def bottleneck_impairments(p: dict, key: str, fwd: int, rev: int) -> dict:
    """{link id: {loss, jitter}} of the bottleneck's two directions, each with its own streams
    (nothing for a link without loss or jitter)."""
    from simulator.net.impairments import BernoulliLoss, Jitter, PeriodicLoss
    j = float(p["jitter_ms"]) / 1e3
    out = {}
    for link, loss_pct, name in ((fwd, p["loss_fwd_pct"], "fwd"), (rev, p["loss_rev_pct"], "rev")):
        cfg = {}
        if loss_pct > 0:
            cfg["loss"] = PeriodicLoss(loss_pct / 100.0) if p.get("loss_pattern") == "periodic" else \
                BernoulliLoss(loss_pct / 100.0, Stream(key, f"loss-{name}"))
        if j > 0:
            cfg["jitter"] = Jitter(j, j, "uniform", Stream(key, f"jitter-{name}"), False)
        if cfg:
            out[link] = cfg
    return out


def tcp_options(p: dict, details) -> dict:
    """The flow model's TCP options: the stack's details and the receive-window cap."""
    return {**stacks.tcp_options(details), "max_window": int(p["rwnd_pkts"])}
