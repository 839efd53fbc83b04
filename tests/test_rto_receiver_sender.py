"""RFC 6298 estimator, cumulative-ACK receiver, and the sender's ACK and timeout handling."""
import pytest

from simulator.tcp.cc.aimd import RenoGrowth
from simulator.tcp.cc.base import LOSS, OPEN, RECOVERY
from simulator.tcp.receiver import TcpReceiver
from simulator.tcp.recovery import RenoRecovery
from simulator.tcp.rto import RtoEstimator
from simulator.tcp.sender import TcpSender


def test_rto_first_and_later_samples():
    r = RtoEstimator(initial=1.0, min_rto=0.2)
    assert r.rto == 1.0
    r.add_sample(0.1)                      # SRTT=R, RTTVAR=R/2, RTO=SRTT+4*RTTVAR
    assert (r.srtt, r.rttvar, r.rto) == pytest.approx((0.1, 0.05, 0.3))
    r.add_sample(0.3)
    assert r.rttvar == pytest.approx(0.75 * 0.05 + 0.25 * 0.2)
    assert r.srtt == pytest.approx(0.875 * 0.1 + 0.125 * 0.3)
    assert r.rto == pytest.approx(r.srtt + 4 * r.rttvar)


def test_rto_minimum_and_backoff():
    r = RtoEstimator(initial=1.0, min_rto=1.0, max_rto=60.0)
    r.add_sample(0.01)
    assert r.rto == 1.0
    for _ in range(10):
        r.expire()
    assert r.rto == 60.0


def test_receiver_cumulative_ack_and_reordering():
    rx = TcpReceiver(5)
    assert rx.receive(0) == 1
    assert rx.receive(2) == 1              # hole at 1: duplicate ACK
    assert rx.receive(3) == 1
    assert rx.receive(1) == 4              # hole filled
    assert rx.receive(1) == 4 and rx.duplicates == 1


def new_sender(n=20):
    snd = TcpSender(n, RenoGrowth(), RenoRecovery(), RtoEstimator(1.0, 1.0), 4.0, 1e9)
    snd.app_write(n)
    return snd


def test_sender_window_limits_transmissions():
    snd = new_sender()
    sent = [snd.send_next(0.0) for _ in range(6)]
    assert sent == [0, 1, 2, 3, -1, -1]
    assert snd.rto_deadline == 1.0


def test_sender_fast_retransmit_on_third_dupack():
    snd = new_sender()
    for _ in range(4):
        snd.send_next(0.0)
    assert snd.ack(1, 0.1) == 0             # new data: slow start cwnd 4 -> 5
    assert snd.s.cwnd == 5.0
    while snd.send_next(0.1) >= 0:
        pass
    actions = [snd.ack(1, 0.2 + i / 100) for i in range(3)]
    assert actions == [0, 0, 1]
    assert snd.s.ca_state == RECOVERY and snd.fast_retransmits == 1


def test_sender_timeout_goes_back_to_one_packet():
    snd = new_sender()
    for _ in range(4):
        snd.send_next(0.0)
    snd.timeout(1.0)
    assert (snd.s.cwnd, snd.s.ca_state, snd.s.snd_nxt, snd.timeouts) == (1.0, LOSS, 0, 1)
    assert snd.rto.rto == 2.0
    assert snd.send_next(1.0) == 0 and snd.retransmissions == 1
    assert snd.send_next(1.0) == -1
    snd.ack(4, 1.5)                        # the receiver had 1..3: everything up to recover acked
    assert snd.s.ca_state == OPEN
