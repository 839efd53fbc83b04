"""The stacks' retransmission timers (simulator/tcp/stacks.py RTO_TIMER), each pinned by a hand
calculation: Linux's estimator (net/ipv4/tcp_input.c tcp_rtt_estimator, include/net/tcp.h
__tcp_set_rto) floors the variance term at the minimum RTO, so RTO = SRTT + 200 ms where RFC 6298
gives max(SRTT + 4 RTTVAR, 200 ms); Linux restarts the timer when it resends the oldest packet, ns-3
only on the first partial ACK of a fast recovery; and what that does to a flow under random loss."""
import pytest

from simulator.registry import scenario
from simulator.tcp import stacks
from simulator.tcp.cc.aimd import RenoGrowth
from simulator.tcp.cc.base import RECOVERY
from simulator.tcp.rto import LinuxRtoEstimator, RtoEstimator
from simulator.tcp.sack_sender import SackSender


def test_linux_first_sample_gives_three_rtts_but_at_least_srtt_plus_rto_min():
    e = LinuxRtoEstimator(1.0, 0.2)
    e.add_sample(0.1, 0, 10)            # mdev = 2 x 0.1; rttvar = max(0.2, 0.2)
    assert (e.srtt, e.mdev, e.rttvar_linux, e.rto) == pytest.approx((0.1, 0.2, 0.2, 0.3))
    e = LinuxRtoEstimator(1.0, 0.2)
    e.add_sample(0.05, 0, 10)           # mdev 0.1 < rto_min: rttvar 0.2, RTO 0.25
    assert e.rto == pytest.approx(0.25)
    r = RtoEstimator(1.0, 0.2)
    r.add_sample(0.05)                  # RFC 6298: max(0.05 + 4 x 0.025, 0.2)
    assert r.rto == pytest.approx(0.2)


def test_linux_steady_rtt_keeps_rto_at_srtt_plus_rto_min_where_rfc6298_falls_to_rto_min():
    e, r = LinuxRtoEstimator(1.0, 0.2), RtoEstimator(1.0, 0.2)
    for k in range(60):                 # one sample per round trip, RTT 0.1 s throughout
        e.add_sample(0.1, 10 * k + 1, 10 * k + 10)
        r.add_sample(0.1)
    assert e.rto == pytest.approx(0.3)
    assert r.rto == pytest.approx(0.2)


def test_linux_rtt_rise_within_a_round_trip_raises_rttvar_at_once():
    e = LinuxRtoEstimator(1.0, 0.2)
    e.add_sample(0.1, 0, 10)
    e.add_sample(0.3, 5, 20)            # error 0.2: srtt 0.125; mdev 0.2 + (0.2 - 0.05) = 0.35 > rttvar 0.2
    assert (e.srtt, e.mdev, e.rttvar_linux, e.rto) == pytest.approx((0.125, 0.35, 0.35, 0.475))


def test_linux_rtt_fall_moves_mdev_with_gain_one_thirty_second():
    e = LinuxRtoEstimator(1.0, 0.2)
    e.add_sample(0.3, 0, 10)            # srtt 0.3, mdev 0.6
    e.add_sample(0.1, 5, 20)            # |error| 0.2 - mdev/4 0.15 = 0.05, /8: mdev 0.60625 (RFC 6298 would cut it)
    assert (e.srtt, e.mdev, e.rto) == pytest.approx((0.275, 0.60625, 0.275 + 0.60625))


def test_linux_rttvar_decays_a_quarter_of_the_gap_per_round_trip():
    e = LinuxRtoEstimator(1.0, 0.05)    # a low floor, so the decay shows above it
    e.add_sample(0.1, 0, 10)            # mdev 0.2, rttvar 0.2, round trip ends past 10
    e.add_sample(0.1, 11, 20)           # mdev 0.15; round trip ends: mdev_max 0.2 = rttvar, no decay
    assert (e.mdev, e.rttvar_linux, e.rtt_seq) == pytest.approx((0.15, 0.2, 20))
    e.add_sample(0.1, 21, 30)           # mdev 0.1125 = mdev_max; rttvar -= (0.2 - 0.1125) / 4
    assert (e.mdev, e.rttvar_linux, e.rto) == pytest.approx((0.1125, 0.178125, 0.278125))


def test_backoff_doubles_and_a_new_sample_resets_it():
    e = LinuxRtoEstimator(1.0, 0.2)
    e.add_sample(0.1, 0, 10)
    e.expire()
    e.expire()
    assert e.rto == pytest.approx(1.2)
    e.add_sample(0.1, 11, 20)
    assert e.rto == pytest.approx(0.3)


def test_stack_presets_name_their_timers():
    assert [stacks.preset(n).rto_timer for n in ("linux", "ns3", "ns2")] == ["linux", "ns3", "ns2"]
    linux = stacks.tcp_options(stacks.preset("linux"))
    assert linux["rto_estimator"] == "linux" and linux["rearm_on_head_retx"] and linux["rto_max"] == 120.0
    ns3 = stacks.tcp_options(stacks.preset("ns3"))
    assert ns3["rto_estimator"] == "rfc6298" and ns3["rto_first_partial_only"] and ns3["rto_granularity"] == 0.001


def in_recovery(sacked=(1, 3, 4, 5), rearm=False, first_partial_only=False):
    """10 packets sent at 0 with RTO 1 s; the `sacked` ones arrive, so the holes below them are lost:
    recovery at 0.05."""
    snd = SackSender(RenoGrowth("newreno"), RtoEstimator(1.0, 1.0), 10.0)
    snd.rearm_on_head_retx = rearm
    snd.rto_first_partial_only = first_partial_only
    while snd.send_one(0.0) >= 0:
        pass
    for k, seq in enumerate(sacked):
        snd.ack(0, seq, 0.0, 0.05 + k / 1000)
    assert snd.s.ca_state == RECOVERY
    return snd


def test_linux_resending_the_oldest_packet_restarts_the_timer():
    plain, linux = in_recovery((1, 2, 3)), in_recovery((1, 2, 3), rearm=True)     # packet 0 lost
    assert plain.send_one(0.06) == 0 and linux.send_one(0.06) == 0
    assert plain.rto_deadline == pytest.approx(1.0)         # armed when packet 0 was first sent
    assert linux.rto_deadline == pytest.approx(0.06 + 1.0)  # re-armed by the retransmission of snd_una


def test_ns3_restarts_the_timer_on_the_first_partial_ack_only():
    for first_only, second_deadline in ((False, 0.3 + 1.0), (True, 0.2 + 1.0)):
        snd = in_recovery(first_partial_only=first_only)        # packets 0 and 2 lost
        snd.ack(1, 5, 0.0, 0.2)             # partial ACK (recover is 10): restarts the timer
        assert snd.rto_deadline == pytest.approx(0.2 + 1.0)
        snd.ack(2, 5, 0.0, 0.3)             # a second partial ACK: only RFC 6298's sender restarts it
        assert snd.rto_deadline == pytest.approx(second_deadline)


def lossy_flow(rto_timer):
    """One NewReno flow of the linux stack over a 200 ms path with 3% random loss, 60 s."""
    dumbbell = scenario("dumbbell")
    p = dumbbell.params_with_defaults({"model": "dumbbell", "algorithm": "newreno", "stack": "linux",
                                       "rto_timer": rto_timer, "delay_ms": 100.0, "loss_fwd_pct": 3.0,
                                       "duration": 60.0, "warmup": 10.0, "buffer_pkts": 2000})
    return dumbbell.run(p, "rto-timer")["metrics"]


def test_linux_timer_stops_the_spurious_timeouts_of_rfc6298_at_srtt():
    # RFC 6298 with Linux's 200 ms minimum on a 200 ms path fires at about one RTT: every lost packet
    # and most fast recoveries meet it; Linux's SRTT + 200 ms leaves a round trip to spare
    rfc, linux = lossy_flow("ns2"), lossy_flow("linux")
    assert linux["timeouts"] * 4 < rfc["timeouts"]


def test_ns2_fast_retransmit_restarts_the_timer_as_dupack_action_does():
    """NS-2's dupack_action calls reset_rtx_timer(1,0) before resending last_ack_ + 1 (tcp-reno.cc)."""
    from simulator.tcp.cc.aimd import RenoGrowth
    from simulator.tcp.recovery import RenoRecovery
    from simulator.tcp.rto import RtoEstimator
    from simulator.tcp.sender import TcpSender
    deadlines = []
    for rearm in (False, True):
        snd = TcpSender(100, RenoGrowth("reno", "ns2"), RenoRecovery(), RtoEstimator(1.0, 0.2), 10.0)
        snd.rearm_on_head_retx = rearm
        snd.app_write(100)
        while snd.send_next(0.0) >= 0:
            pass
        for k in range(3):                      # packet 0 lost: three duplicate ACKs at 0.1, 0.11, 0.12
            snd.ack(0, 0.1 + k / 100)
        deadlines.append(snd.rto_deadline)
    assert deadlines[0] == pytest.approx(1.0)    # still the timer armed at the first send
    assert deadlines[1] == pytest.approx(0.12 + 1.0)
