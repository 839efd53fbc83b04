"""Queue disciplines on network links, UDP-like cross traffic, ping probes and NS-2-style TCP in
the flow model (simulator/models/flow_model.pyx), on small topologies with known answers."""
import json
import math

import pytest

from simulator import registry
from simulator.core.rng import Stream
from simulator.models.flow_config import FlowConfig
from simulator.models.flow_model import FlowModel
from simulator.net.impairments import BernoulliLoss
from simulator.net.queue_disc import make_queue
from simulator.net.topology import Topology
from simulator.tcp import recovery
from simulator.tcp.cc import aimd

RATE = 1e6          # bit/s of the shared link
SIZE = 1000         # bytes per UDP packet


def two_sources_one_link(queue):
    """a, b -> r -> d: the r -> d link (1 Mbit/s, 10 ms, 20 packets) is shared; access is fast."""
    t = Topology("y", hosts=["a", "b", "d"], routers=["r"])
    t.add_link("a", "r", 100e6, 0.001, 1000)
    t.add_link("b", "r", 100e6, 0.001, 1000)
    t.add_link("r", "d", RATE, 0.01, 20)
    udp = [{"src": "a", "dst": "d", "rate_bps": 2.0 * RATE, "size": SIZE, "mode": "poisson", "stop": 20.0},
           {"src": "b", "dst": "d", "rate_bps": 0.3 * RATE, "size": SIZE, "mode": "poisson", "stop": 20.0}]
    # one idle TCP flow (it never starts) keeps the model's TCP bookkeeping trivial
    sim = FlowModel("udp-test", [aimd.RenoGrowth("reno")], FlowConfig(
        duration=25.0, topology=t,
        flow_ends=[("a", "d")], monitor=("r", "d"), start_times=[1e9], udp=udp))
    if queue != "ring":
        sim.configure_link(sim.link_id("r", "d"), queue=make_queue(queue, 20))
    out = sim.run()
    return sim, out


@pytest.mark.parametrize("queue", ["ring", "droptail", "fq"])
def test_udp_packets_are_conserved_through_any_queue(queue):
    sim, out = two_sources_one_link(queue)
    sent = sum(u["sent"] for u in out["udp"])
    delivered = sum(u["delivered"] for u in out["udp"])
    drops = out["bottleneck"]["drops"]
    assert sent == delivered + drops            # sources stop at 20 s, the network drains by 25 s
    assert drops > 0


def test_droptail_ring_and_fifo_discipline_give_the_same_run():
    _, ring = two_sources_one_link("ring")
    _, fifo = two_sources_one_link("droptail")
    assert ring["udp"] == fifo["udp"]


def test_fair_queueing_protects_the_light_source():
    _, fifo = two_sources_one_link("droptail")
    _, fq = two_sources_one_link("fq")
    light_fifo = fifo["udp"][1]["delivered"] / fifo["udp"][1]["sent"]
    light_fq = fq["udp"][1]["delivered"] / fq["udp"][1]["sent"]
    # FIFO drops the light source's packets in proportion to the overload; DRR gives it its
    # full 0.3 Mbit/s (below its fair share of 0.5)
    assert light_fifo < 0.8
    assert light_fq > 0.99


def test_poisson_source_rate_and_on_off_duty_cycle():
    t = Topology("p", hosts=["a", "d"], routers=[])
    t.add_link("a", "d", 100e6, 0.001, 10_000)
    udp = [{"src": "a", "dst": "d", "rate_bps": 2e6, "size": SIZE, "mode": "poisson"},
           {"src": "a", "dst": "d", "rate_bps": 2e6, "size": SIZE, "mode": "onoff", "on": 0.5, "off": 1.5}]
    sim = FlowModel("rate-test", [aimd.RenoGrowth("reno")], FlowConfig(
        duration=1000.0, topology=t,
        flow_ends=[("a", "d")], monitor=("a", "d"), start_times=[1e9], udp=udp))
    out = sim.run()
    poisson = out["udp"][0]["sent"] * SIZE * 8 / 1000.0
    onoff = out["udp"][1]["sent"] * SIZE * 8 / 1000.0
    assert poisson == pytest.approx(2e6, rel=0.02)
    # on a quarter of the time; ~500 on/off cycles give a relative sd of about 4%
    assert onoff == pytest.approx(2e6 * 0.5 / 2.0, rel=0.12)


def probe_path(loss=None):
    t = Topology("ping", hosts=["c", "s"], routers=["r"])
    t.add_link("c", "r", 100e6, 0.002, 100)
    t.add_link("r", "s", 10e6, 0.005, 100)
    probe = {"src": "c", "dst": "s", "interval": 0.2, "size": 98, "start": 0.0}
    sim = FlowModel("ping-test", [aimd.RenoGrowth("reno")], FlowConfig(
        duration=100.0, topology=t,
        flow_ends=[("c", "s")], monitor=("r", "s"), start_times=[1e9], probes=[probe]))
    if loss is not None:
        sim.configure_link(sim.link_id("r", "s"), loss=BernoulliLoss(loss, Stream("ping-test", "loss")))
    return sim.run()["probes"][0]


def test_ping_on_an_idle_path_measures_the_base_rtt():
    p = probe_path()
    serialisation = 2 * (98 * 8 / 100e6 + 98 * 8 / 10e6)
    assert p["sent"] == 500 and p["replies"] == 500
    assert all(rtt == pytest.approx(2 * 0.007 + serialisation, rel=1e-9) for _, rtt in p["log"])


def test_ping_loss_follows_the_link_loss():
    p = probe_path(loss=0.2)
    assert 1 - p["replies"] / p["sent"] == pytest.approx(0.2, abs=0.06)


def ns2_flow(window, algorithm="reno"):
    t = Topology("line", hosts=["s", "d"], routers=["r"])
    t.add_link("s", "r", 10e6, 0.01, 1000)
    t.add_link("r", "d", 1e6, 0.05, 50)
    rec = recovery.NewRenoRecovery() if algorithm == "newreno" else recovery.RenoRecovery()
    sim = FlowModel("ns2-test", [aimd.RenoGrowth(algorithm)], FlowConfig(
        duration=60.0, data_size=1500,
        ack_size=40, topology=t, flow_ends=[("s", "d")], monitor=("r", "d"), start_times=[0.0],
        recoveries=[rec], tcp={"init_cwnd": 2.0, "max_window": window, "packets": 100_000,
                              "rto_min": 0.2, "rto_initial": 3.0, "impatient": True}))
    return sim.run()


def test_ns2_window_cap_bounds_the_packets_in_flight():
    out = ns2_flow(window=5)
    rtt = 2 * 0.06 + 1500 * 8 / 1e6 + 40 * 8 / 1e6 + 1500 * 8 / 10e6 + 40 * 8 / 10e6
    assert out["flows"][0]["drops"] == 0
    assert max(row[3] for row in out["samples"]) <= 5           # in flight never above window_
    # window-limited: 5 packets per RTT
    assert out["flows"][0]["delivered"] == pytest.approx(60.0 * 5 / rtt, rel=0.05)


def test_ns2_flow_without_a_cap_fills_the_queue_and_recovers():
    out = ns2_flow(window=0)
    f = out["flows"][0]
    assert f["drops"] > 0 and f["retransmitted"] >= f["drops"] - 1
    assert f["goodput_receiver_mbps"] > 0.8                     # near the 1 Mbit/s link
    assert not math.isnan(f["mean_srtt_ms"])


def test_scenario_runs_are_deterministic_per_seed():
    from simulator import registry
    for params in ({"model": "ns2", "algorithm": "vegas", "duration": 30},
                   {"model": "testbed", "algorithm": "bbr", "background": "light", "duration": 10}):
        a, b, c = registry.run(params, 1), registry.run(params, 1), registry.run(params, 2)
        assert json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)
        assert json.dumps(a, sort_keys=True) != json.dumps(c, sort_keys=True)


def test_udp_cross_traffic_takes_its_share_of_the_wifi_path():
    from simulator import registry
    base = {"model": "testbed", "algorithm": "cubic", "duration": 20, "loss_pct": 0, "capacity_sd": 0}
    alone = registry.run(base, 1)["metrics"]["throughput_mean_mbps"]
    for mode in ("poisson", "onoff"):
        shared = registry.run({**base, "cross_mbps": 20, "cross_mode": mode}, 1)["metrics"]["throughput_mean_mbps"]
        # 50 Mbit/s Wi-Fi hop: 20 Mbit/s of unresponsive UDP leaves TCP roughly the rest
        assert shared < alone - 10


def test_ns2_model_runs_a_parking_lot_from_the_study_parameters():
    from simulator.scenarios import ns2_wired
    from simulator.core.seeding import run_key
    p = ns2_wired.params_with_defaults({"algorithm": "reno", "topology": "parking_lot", "flows": 3,
                                        "window": 0, "delay_ms": 20, "duration": 60})
    topo, ends, monitor = ns2_wired.build_topology(p)
    assert ends == [("long_src", "long_dst"), ("c0_src", "c0_dst"), ("c1_src", "c1_dst")]
    assert len(topo.path("long_src", "long_dst")) == 5          # long_src r0 r1 r2 long_dst
    out = ns2_wired.run(p, run_key(p, 1))
    assert out["metrics"]["throughput_mbps"] > 0


@pytest.mark.parametrize("queue_on", ["all", "shared"])
def test_ns2_fair_queueing_on_all_links_or_only_the_shared_one(queue_on):
    from simulator import registry
    out = registry.run({"model": "ns2", "algorithm": "reno", "queue": "fq", "queue_on": queue_on,
                        "window": 0, "duration": 30}, 1)
    assert out["metrics"]["throughput_mbps"] > 0.3       # the shared 1 Mbit/s link carries traffic (seeds 1-6: 0.43-0.69)


def test_ns2_model_runs_bbr_on_the_sack_sender_within_the_window_cap():
    """NS-2 has no BBR: the model runs it on the SACK sender with NS-2's window cap, timers and a sink
    that ACKs every packet; the cap binds (at most a window per round trip) and lifting it lets BBR
    fill the path."""
    base = {"model": "ns2", "algorithm": "bbr", "topology": "linear", "flows": 2, "duration": 30,
            "bandwidth_mbps": 1.0, "delay_ms": 100, "packet_bytes": 1500}
    capped = registry.run({**base, "window": 5}, 1)["metrics"]["throughput_per_flow_mbps"]
    free = registry.run({**base, "window": 0}, 1)["metrics"]["throughput_per_flow_mbps"]
    window_rate = 5 * 1500 * 8 / (2 * 4 * 0.100) / 1e6     # 5 packets per 0.8 s base RTT (4 links)
    assert 0.5 * window_rate < capped <= window_rate
    assert free > 2 * window_rate
