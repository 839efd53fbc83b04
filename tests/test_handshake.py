"""The TCP handshake (stack detail `handshake`, simulator/tcp/stacks.py HANDSHAKE): a flow's data
starts one SYN/SYN-ACK round trip after its start time, its RTT estimate seeded by that round trip;
a lost SYN is retried after the stack's timeout, doubling (ns-3 ConnTimeout 3 s, Linux 1 s); NS-2's
agents send at once."""
import numpy as np
import pytest

from simulator import registry
from simulator.core.rng import Stream
from simulator.models.flow_config import FlowConfig
from simulator.models.flow_model import FlowModel
from simulator.net.impairments import BernoulliLoss
from simulator.tcp import stacks
from simulator.tcp.cc import aimd, bbr

RATE, DELAY, ACCESS, ACCESS_DELAY = 10e6, 0.02, 10e9, 1e-5
SYN_BYTES = 66                                      # the model's ACK size
# the SYN's round trip on an idle dumbbell: 2 access hops and the bottleneck each way, a 66-byte packet
SYN_RTT = 2 * (2 * ACCESS_DELAY + DELAY) + 2 * (2 * SYN_BYTES * 8 / ACCESS + SYN_BYTES * 8 / RATE)


def model(cc, syn_timeout, key="handshake", duration=2.0, start=0.5, recovery=None):
    """One flow over a 10 Mbit/s, 20 ms dumbbell, sampled every ms; a classic flow with `recovery`."""
    return FlowModel(key, [cc], FlowConfig(
        RATE, DELAY, 50, ACCESS, ACCESS_DELAY, duration, 0.0, 0.001,
        tcp={"syn_timeout": syn_timeout}, start_times=[start],
        recoveries=None if recovery is None else [recovery]))


def first(samples, column, after=-1.0):
    """Time of the first sample whose `column` (per-flow: 2 cwnd, 3 in flight, 4 srtt, 5 delivered) is > after."""
    s = np.array(samples)
    return s[np.argmax(s[:, column] > after), 0]


def test_the_first_data_waits_one_syn_round_trip_and_srtt_starts_from_it():
    sim = model(aimd.RenoGrowth("newreno"), 3.0)
    out = sim.run()
    s = np.array(out["samples"])
    t_srtt = first(out["samples"], 4, 0.0)
    assert t_srtt == pytest.approx(0.5 + SYN_RTT, abs=0.0011)         # seeded before any data ACK
    assert s[np.argmax(s[:, 4] > 0), 4] == pytest.approx(SYN_RTT, rel=1e-9)
    # data leaves only then: nothing is in flight before the SYN-ACK arrives
    assert s[(s[:, 0] < 0.5 + SYN_RTT - 0.001), 3].max() == 0
    t_data = first(out["samples"], 5, 0.0)                             # first packet at the receiver
    assert 0.5 + SYN_RTT < t_data < 0.5 + SYN_RTT + 0.03


def test_without_handshake_data_leaves_at_the_start_time():
    out = model(aimd.RenoGrowth("newreno"), 0.0).run()
    t_data = first(out["samples"], 5, 0.0)
    assert 0.5 < t_data < 0.5 + 0.03                                   # one-way delay, no round trip


@pytest.mark.parametrize("timeout", [1.0, 3.0])
def test_a_lost_syn_is_retried_after_the_stacks_timeout_doubling(timeout):
    starts = set()
    for k in range(12):
        sim = model(aimd.RenoGrowth("newreno"), timeout, key=f"syn-loss-{k}", duration=30.0, start=0.0)
        sim.configure_link(sim.bottleneck_links[0], loss=BernoulliLoss(0.6, Stream(f"syn-loss-{k}", "loss")))
        out = sim.run()
        s = np.array(out["samples"])
        if not (s[:, 4] > 0).any():                                    # every try lost: no data at all
            assert s[:, 5].max() == 0
            continue
        t = first(out["samples"], 4, 0.0)                              # the handshake's end
        retries = [sum(timeout * 2 ** i for i in range(j)) for j in range(5)]   # 0, T, 3T, 7T, 15T
        assert min(abs(t - (r + SYN_RTT)) for r in retries) < 0.0011, t
        starts.add(round(t))
    assert len(starts) > 1                                             # some SYN was lost and retried


def test_bbr_starts_from_the_handshakes_min_rtt():
    cc = bbr.make()
    model(cc, 3.0, duration=0.5 + SYN_RTT + 0.0005).run()
    assert cc.rtprop == pytest.approx(SYN_RTT, rel=1e-9)


def test_classic_flows_handshake_too_when_asked():
    from simulator.tcp.recovery import NewRenoRecovery
    out = model(aimd.RenoGrowth("newreno"), 1.0, recovery=NewRenoRecovery()).run()
    assert first(out["samples"], 4, 0.0) == pytest.approx(0.5 + SYN_RTT, abs=0.0011)


def test_the_stacks_handshakes():
    opts = {n: stacks.tcp_options(stacks.PRESETS[n])["syn_timeout"] for n in stacks.NAMES}
    assert opts == {"linux": 1.0, "ns3": 3.0, "ns2": 0.0}
    linux_slow = stacks.resolve({"stack": "linux", "rto_initial": 2.5})
    assert stacks.tcp_options(linux_slow)["syn_timeout"] == 2.5         # Linux times its SYN with the initial RTO


def test_rto_initial_is_refused_where_the_ns3_handshake_leaves_it_nothing_to_time():
    with pytest.raises(ValueError, match="rto_initial.*handshake ns3.*allowed: handshake: linux"):
        registry.resolve({"model": "dumbbell", "algorithm": "cubic", "rto_initial": 2.0})
    assert registry.resolve({"model": "dumbbell", "algorithm": "cubic", "rto_initial": 2.0,
                             "handshake": "none"})["rto_initial"] == 2.0


def test_an_unset_handshake_keeps_the_run_key_and_a_set_one_changes_it():
    p = registry.resolve({"model": "dumbbell", "algorithm": "cubic"})
    assert p["handshake"] is None
    assert registry.key(p, 1) == registry.key({k: v for k, v in p.items() if k != "handshake"}, 1)
    assert registry.key({**p, "handshake": "ns3"}, 1) != registry.key(p, 1)
