"""NS-2 2.35's agent details in our one-way sender, each against numbers worked out by hand from NS-2's source
(tcp/tcp.cc, tcp-reno.cc, tcp-newreno.cc; simulator/tcp/stacks.py says which default each follows)."""
import pytest

from simulator.models.flow_endpoints import classic_flow
from simulator.tcp import stacks
from simulator.tcp.cc.aimd import RenoGrowth
from simulator.tcp.cc.base import LOSS
from simulator.tcp.recovery import NewRenoRecovery, RenoRecovery
from simulator.tcp.rto import Ns2Rto
from simulator.tcp.sender import TcpSender


def _ns2_sender(recovery=None, n=100):
    tcp = {**stacks.tcp_options(stacks.preset("ns2")), "packets": n, "max_window": 20}
    cc = RenoGrowth("reno", "ns2")
    snd, _ = classic_flow(cc, recovery or RenoRecovery(), tcp)
    return snd


def _send_all(snd, now):
    out = []
    while (seq := snd.send_next(now)) >= 0:
        out.append(seq)
    return out


def test_ns2_preset_sends_a_syn_alone_then_the_initial_window():
    snd = _ns2_sender()
    assert snd.syn_packet and snd.s.cwnd == 1.0
    assert _send_all(snd, 0.0) == [0]                 # the SYN alone
    snd.ack(1, 0.3)                                    # its ACK: cwnd_ = initial_window() = windowInit_ 2
    assert snd.s.cwnd == 2.0
    assert _send_all(snd, 0.3) == [1, 2]


def test_syn_timeout_leaves_ssthresh_2_and_a_window_of_one():
    snd = _ns2_sender()
    _send_all(snd, 0.0)
    assert snd.rto_deadline == pytest.approx(3.0)     # rtxcur_init_ 3 s
    snd.timeout(3.0)                                   # a 3.6 s round trip: the SYN times out
    assert snd.s.ssthresh == 2.0 and snd.s.cwnd == 1.0 and snd.s.ca_state == LOSS
    assert _send_all(snd, 3.0) == [0]                  # the SYN again
    snd.ack(1, 3.6)                                    # wnd_init_ became 1 (bugfix_ss_): one packet, then
    assert snd.s.cwnd == 1.0                           # slow start to ssthresh 2 and congestion avoidance
    assert _send_all(snd, 3.6) == [1]


def test_ns2_rto_counts_ticks_scaled_integers():
    rto = Ns2Rto(3.0, 0.2)
    assert rto.rto == 3.0
    rto.add_timed_sample(0.105, 0.0)          # 10 ticks: srtt 80/8, rttvar 20/4; ((20 << 3) + 80) >> 3 = 30 ticks
    assert (rto.t_srtt, rto.t_rttvar) == (80, 20) and rto.rto == pytest.approx(0.30)
    rto.add_timed_sample(0.2, 1.003)          # (0.2 + 0.003) / 0.01 = 20 ticks: delta 10, srtt 90,
    assert (rto.t_srtt, rto.t_rttvar) == (90, 25)      # rttvar 20 + (10 - 5) = 25; (200 + 90) >> 3 = 36
    assert rto.rto == pytest.approx(0.36)
    rto.expire()
    rto.expire()
    assert rto.rto == pytest.approx(1.44)     # backoff 4 ...
    rto.acked_timed()
    assert rto.rto == pytest.approx(0.36)     # ... until a timed packet is acknowledged


def test_ns2_rto_minimum_applies_before_the_backoff():
    rto = Ns2Rto(3.0, 0.2)
    rto.add_timed_sample(0.01, 0.0)           # 1 tick: (16 + 8) >> 3 = 3 ticks = 30 ms, below minrto_ 0.2 s
    assert rto.rto == pytest.approx(0.2)
    rto.expire()
    assert rto.rto == pytest.approx(0.4)


def test_one_timed_packet_per_round_trip():
    snd = _ns2_sender()
    _send_all(snd, 0.0)
    snd.ack(1, 0.103)                          # the SYN was timed: a sample of 10 ticks
    assert snd.rto.t_srtt == 80
    assert _send_all(snd, 0.103) == [1, 2]     # packet 1 is timed, 2 is not
    snd.ack(2, 0.358)                          # 1 acknowledged 0.255 s later, sent 3 ms into a tick: 25 ticks
    assert snd.rto.t_srtt == 80 + (25 - 10)
    before = (snd.rto.t_srtt, snd.rto.t_rttvar)
    snd.ack(3, 0.365)                          # packet 2 was not timed: no sample
    assert (snd.rto.t_srtt, snd.rto.t_rttvar) == before


def test_fast_retransmit_restarts_the_timer_and_stops_the_timing():
    snd = _ns2_sender(NewRenoRecovery())
    _send_all(snd, 0.0)
    snd.ack(1, 0.1)
    for t in (0.1, 0.2, 0.3, 0.4):             # slow start to 8 packets in flight
        _send_all(snd, t)
        snd.ack(snd.s.snd_una + 1, t + 0.05)
    _send_all(snd, 0.5)
    una = snd.s.snd_una
    for k, t in enumerate((0.60, 0.61, 0.62)):
        snd.ack(una, t)
    assert snd.fast_retransmits == 1
    assert snd.rto_deadline == pytest.approx(0.62 + snd.rto.rto)      # reset_rtx_timer(1, 0)


def _ns2_recovery(cls, wnd=20.0):
    rec = cls()
    rec.ns2, rec.wnd = True, wnd
    return rec


def _state(cwnd, una, recover, snd_max=None):
    from simulator.tcp.cc.base import TcpState
    s = TcpState(cwnd, 1e9)
    s.snd_una, s.recover, s.snd_max, s.dupacks = una, recover, snd_max or una + 20, 3
    return s


def test_ns2_reno_halves_the_window_and_keeps_the_inflation_apart():
    rec, cc = _ns2_recovery(RenoRecovery), RenoGrowth("reno", "ns2")
    s = _state(13.4, 50, 10)
    assert rec.on_dupack(s, cc) == 1                   # fast retransmit
    assert s.ssthresh == 6 and s.cwnd == pytest.approx(6.7 + 3) and rec.dupwnd == 3
    s.dupacks = 4
    rec.on_dupack(s, cc)
    assert s.cwnd == pytest.approx(10.7) and rec.dupwnd == 4
    s.snd_una = 51
    rec.on_new_ack(s, cc, 1)                            # leave with the halved window, not ssthresh
    assert s.cwnd == pytest.approx(6.7) and rec.dupwnd == 0


def test_ns2_cut_halves_min_of_cwnd_and_window():
    rec, cc = _ns2_recovery(RenoRecovery), RenoGrowth("reno", "ns2")
    s = _state(40.0, 50, 10)                            # cwnd_ grew past window_ 20
    rec.on_dupack(s, cc)
    assert s.ssthresh == 10 and s.cwnd == 13


def test_ns2_reno_no_second_fast_retransmit_before_recover():
    rec, cc = _ns2_recovery(RenoRecovery), RenoGrowth("reno", "ns2")
    s = _state(20.0, 50, 70)                            # ACKs still below recover (bug_fix_)
    assert rec.on_dupack(s, cc) == 0 and s.cwnd == 20
    s.snd_una = 71
    assert rec.on_dupack(s, cc) == 1


def test_ns2_newreno_partial_acks_deflate_the_inflation_first_and_keep_the_window():
    rec, cc = _ns2_recovery(NewRenoRecovery), RenoGrowth("newreno", "ns2")
    s = _state(20.0, 50, 10, snd_max=70)
    rec.on_dupack(s, cc)                                # window 10, ssthresh 10, dupwnd 3
    for k in (4, 5):
        s.dupacks = k
        rec.on_dupack(s, cc)
    assert (s.cwnd, rec.dupwnd) == (15, 5)
    s.snd_una = 53
    assert rec.on_new_ack(s, cc, 3) == 1                # partial: dupwnd 5 - (3 - 1) = 3
    assert (s.cwnd, rec.dupwnd) == (13, 3)
    s.snd_una = 59
    assert rec.on_new_ack(s, cc, 6) == 1                # partial: cwnd_ 10 - (6 - 3) = 7, dupwnd_ 1
    assert (s.cwnd, rec.dupwnd) == (8, 1)
    s.snd_una = 70
    assert rec.on_new_ack(s, cc, 11) == 0               # full ACK: cwnd_ 7 (exit_recovery_fix_ 0), not
    assert s.cwnd == 7 and rec.dupwnd == 0              # min(ssthresh, flight + 1)


def test_ns2_timeout_ssthresh_drops_the_inflation():
    rec, cc = _ns2_recovery(RenoRecovery), RenoGrowth("reno", "ns2")
    s = _state(13.4, 50, 10)
    rec.on_dupack(s, cc)                                # cwnd 6.7 + 3
    assert rec.timeout_ssthresh(s, cc) == 3             # int(6.7 / 2)
    assert rec.dupwnd == 0


def test_ns2_limited_transmit_one_new_packet_per_early_dupack():
    rec = NewRenoRecovery()
    rec.ns2 = rec.limited_transmit = True
    snd = _ns2_sender(rec, n=1000)
    snd.max_window = 0
    _send_all(snd, 0.0)
    snd.ack(1, 0.1)
    assert _send_all(snd, 0.1) == [1, 2]                # window 2, full
    snd.ack(1, 0.2)                                     # dupACK 1: one more (cwnd 2 + 1)
    assert _send_all(snd, 0.2) == [3]
    snd.ack(1, 0.21)                                    # dupACK 2: one more
    assert _send_all(snd, 0.21) == [4]


def test_the_ns2_stack_gives_ns2_agents_their_recovery():
    from simulator.tcp.cc import catalogue
    stack = stacks.catalogue_stack(stacks.preset("ns2"))
    for name in ("tahoe", "reno", "newreno"):
        _, rec = catalogue.build(name, stack)
        assert rec.ns2 and rec.limited_transmit, name
    _, rec = catalogue.build("reno", stacks.catalogue_stack(stacks.replace(stacks.preset("linux"), sack=False)))
    assert not rec.ns2 and not rec.limited_transmit
