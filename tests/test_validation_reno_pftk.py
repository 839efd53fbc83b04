"""Validation of the NS-2-style TCP against a closed form: the throughput of a long Reno flow
under independent random loss p follows Padhye et al.'s PFTK formula (SIGCOMM 1998), with
b = 1 (an ACK per packet) and T0 = max(0.2 s, 4 RTT); and NewReno, which recovers from several
losses in one window without a timeout, times out less often than Reno."""
import math

import pytest

from simulator.core.rng import Stream
from simulator.models.flow_config import FlowConfig
from simulator.models.flow_model import FlowModel
from simulator.net.impairments import BernoulliLoss
from simulator.net.topology import Topology
from simulator.tcp import recovery
from simulator.tcp.cc import aimd

DURATION = 200.0


def lossy_flow(algorithm, p):
    """One flow over a 100 Mbit/s, 25 ms link with loss p and a buffer that never fills."""
    t = Topology("lossy", hosts=["s", "d"], routers=["r"])
    t.add_link("s", "r", 1e9, 0.0001, 100_000)
    t.add_link("r", "d", 100e6, 0.025, 100_000)
    rec = recovery.NewRenoRecovery() if algorithm == "newreno" else recovery.RenoRecovery()
    sim = FlowModel(f"pftk-{algorithm}-{p}", [aimd.RenoGrowth(algorithm, "ns2")], FlowConfig(
        duration=DURATION, data_size=1500, ack_size=40, topology=t, flow_ends=[("s", "d")], monitor=("r", "d"),
        start_times=[0.0], recoveries=[rec],
        tcp={"init_cwnd": 2.0, "packets": 5_000_000, "rto_min": 0.2, "rto_initial": 1.0,
             "impatient": True}))
    sim.configure_link(sim.link_id("r", "d"), loss=BernoulliLoss(p, Stream(f"pftk-{p}", "loss")))
    return sim.run()["flows"][0]


def pftk(rtt, p, b=1):
    t0 = max(0.2, 4 * rtt)
    return 1.0 / (rtt * math.sqrt(2 * b * p / 3) + t0 * min(1, 3 * math.sqrt(3 * b * p / 8)) * p * (1 + 32 * p * p))


@pytest.mark.parametrize("p", [0.001, 0.003, 0.01, 0.02])
def test_reno_throughput_follows_the_pftk_formula(p):
    f = lossy_flow("reno", p)
    rate = f["delivered"] / DURATION                       # packets/s
    expected = pftk(f["mean_srtt_ms"] / 1e3, p)
    assert 0.85 < rate / expected < 1.2, (rate, expected)


def test_newreno_times_out_less_than_reno_under_heavy_random_loss():
    reno, newreno = lossy_flow("reno", 0.02), lossy_flow("newreno", 0.02)
    assert newreno["timeouts"] < reno["timeouts"]
    assert newreno["delivered"] > reno["delivered"]
