"""The reference stacks' semantics (simulator/tcp/stacks.py, simulator/tcp/cc/aimd.pyx), each pinned
by a hand calculation: cwnd after k ACKs in slow start and in congestion avoidance, with ACKs
covering 1 segment (every packet acknowledged) and 2 segments (delayed ACKs)."""
import math
import pytest

from simulator.tcp import stacks
from simulator.tcp.cc import catalogue
from simulator.tcp.cc.aimd import RenoGrowth
from simulator.tcp.cc.base import TcpState


def after_acks(counting, cwnd, ssthresh, k, covering):
    cc = RenoGrowth("reno", counting)
    s = TcpState(cwnd, ssthresh)
    for _ in range(k):
        cc.cong_avoid(s, covering)
    return s.cwnd


@pytest.mark.parametrize("counting, covering, expected", [
    ("linux", 1, 15.0), ("linux", 2, 20.0),     # byte counting: + segments acked
    ("ns3", 1, 15.0), ("ns3", 2, 15.0),         # TcpNewReno::SlowStart: + 1 per ACK
    ("ns2", 1, 15.0), ("ns2", 2, 15.0),         # opencwnd: + 1 per ACK
])
def test_slow_start_from_10_after_5_acks(counting, covering, expected):
    assert after_acks(counting, 10.0, 1e9, 5, covering) == pytest.approx(expected)


def ca_by_hand(cwnd, k, per_ack):
    for _ in range(k):
        cwnd += per_ack / cwnd if per_ack else math.floor(max(1.0, MSS / cwnd)) / MSS
    return cwnd


MSS = 1448.0


@pytest.mark.parametrize("counting, covering, per_ack", [
    ("linux", 1, 1), ("linux", 2, 2),            # + acked / cwnd
    ("ns3", 1, 0), ("ns3", 2, 0),                # + MSS*MSS/cwnd bytes per ACK, whole bytes (per_ack 0)
    ("ns2", 1, 1), ("ns2", 2, 1),                # + 1/cwnd per ACK
])
def test_congestion_avoidance_from_20_after_4_acks(counting, covering, per_ack):
    assert after_acks(counting, 20.0, 10.0, 4, covering) == pytest.approx(ca_by_hand(20.0, 4, per_ack))
    assert after_acks(counting, 20.0, 10.0, 1, covering) == pytest.approx(ca_by_hand(20.0, 1, per_ack))


@pytest.mark.parametrize("cwnd, added_bytes", [(20.0, 72), (300.0, 4), (1000.0, 1), (5000.0, 1)])
def test_ns3_avoidance_adds_whole_bytes_as_tcp_newreno_does(cwnd, added_bytes):
    # TcpNewReno::CongestionAvoidance: cwnd += static_cast<uint32_t>(max(1.0, MSS*MSS/cwnd)) bytes
    assert after_acks("ns3", cwnd, 10.0, 1, 1) == pytest.approx(cwnd + added_bytes / MSS, abs=1e-12)


def test_crossing_ssthresh_each_stack_its_own_way():
    # cwnd 9, ssthresh 10, one ACK covering 2 segments
    assert after_acks("linux", 9.0, 10.0, 1, 2) == pytest.approx(10.0 + 1 / 10)   # 1 to SS, 1 to CA
    assert after_acks("ns3", 9.0, 10.0, 1, 2) == pytest.approx(10.0 + 144 / MSS)  # SS +1, rest to CA: 144 bytes
    assert after_acks("ns2", 9.0, 10.0, 1, 2) == pytest.approx(10.0)              # SS +1 only
    # cwnd 9.5: ns-3 and NS-2 overshoot ssthresh by their whole segment, Linux stops at it
    assert after_acks("ns3", 9.5, 10.0, 1, 1) == pytest.approx(10.5)
    assert after_acks("ns2", 9.5, 10.0, 1, 1) == pytest.approx(10.5)
    assert after_acks("linux", 9.5, 10.0, 1, 1) == pytest.approx(10.0 + 1 / 10)


def test_an_ack_of_nothing_grows_nothing_and_unknown_counting_is_refused():
    for counting in ("linux", "ns3", "ns2"):
        assert after_acks(counting, 10.0, 1e9, 3, 0) == 10.0
    with pytest.raises(ValueError, match="allowed: linux, ns3, ns2"):
        RenoGrowth("reno", "bsd")


@pytest.mark.parametrize("name", stacks.NAMES)
def test_resolved_details_are_the_preset_and_overrides_apply(name):
    p = {"stack": name, **{k: None for k in stacks.DETAILS}}
    assert stacks.resolve(p) == stacks.PRESETS[name]
    d = stacks.resolve({**p, "delack_count": 3, "sack": not stacks.PRESETS[name].sack})
    assert d.delack_count == 3 and d.sack is (not stacks.PRESETS[name].sack)
    assert d.rto_min == stacks.PRESETS[name].rto_min


def test_presets_hold_the_looked_up_defaults():
    linux, ns3, ns2 = (stacks.PRESETS[n] for n in ("linux", "ns3", "ns2"))
    assert (linux.rto_min, ns3.rto_min, ns2.rto_min) == (0.2, 1.0, 0.2)
    assert (linux.init_cwnd, ns3.init_cwnd, ns2.init_cwnd) == (10, 10, 2)
    assert (linux.delack_count, ns3.delack_count, ns2.delack_count) == (2, 2, 1)
    assert (ns3.delack_timeout_ms, linux.delack_timeout_ms) == (200, 40)
    assert [d.ack_counting for d in (linux, ns3, ns2)] == ["linux", "ns3", "ns2"]


def test_unknown_stack_and_contradictions_are_named():
    with pytest.raises(ValueError, match="allowed: linux, ns3, ns2"):
        stacks.preset("bsd")
    assert stacks.contradictions("ns3", {"delack_count": 2, "rto_min": 0.2}) == [("rto_min", 0.2, 1.0)]


@pytest.mark.parametrize("name", ["reno", "newreno", "tahoe", "vegas"])
def test_catalogue_builds_the_stacks_ack_counting_into_the_controller(name):
    for counting, code in (("linux", 0), ("ns3", 1), ("ns2", 2)):
        cc, _ = catalogue.build(name, catalogue.Stack("linux", sack=True, ack_counting=counting))
        assert cc.ack_counting == code


def test_the_recovery_style_sets_the_senders_rack_and_reduction_and_follows_the_detail():
    from simulator.models.flow_endpoints import sack_flow
    opts = {n: stacks.tcp_options(stacks.PRESETS[n]) for n in stacks.NAMES}
    assert [opts[n]["ssthresh_pipe_after_ack"] for n in ("ns3", "linux", "ns2")] == [True, False, True]
    assert [opts[n]["rack"] for n in ("ns3", "linux", "ns2")] == [False, True, False]
    built = {n: sack_flow(RenoGrowth("newreno"), opts[n], 1502)[0] for n in ("ns3", "linux")}
    assert (built["ns3"].ssthresh_pipe_after_ack, built["ns3"].rack) == (True, False)
    assert (built["linux"].ssthresh_pipe_after_ack, built["linux"].rack) == (False, True)
    mixed = stacks.resolve({"stack": "linux", "sack_recovery": "ns3"})
    assert stacks.tcp_options(mixed)["rack"] is False and mixed.delack_timeout_ms == 40.0
