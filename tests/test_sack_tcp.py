"""SACK sender scoreboard (RFC 6675 loss marking, PRR, RTO, RACK-style lost retransmissions)
and the delayed-ACK receiver, driven by hand."""
import math

import pytest

from simulator.tcp.cc.aimd import RenoGrowth
from simulator.tcp.cc.base import EVENT_TX_START, LOSS, OPEN, RECOVERY, CongestionControl
from simulator.tcp.rto import RtoEstimator
from simulator.tcp.sack_receiver import SackReceiver
from simulator.tcp.sack_sender import SackSender


def sender(cwnd=10.0):
    return SackSender(RenoGrowth("newreno"), RtoEstimator(1.0, 1.0), cwnd)


def send_all(snd, now=0.0):
    out = []
    while (seq := snd.send_one(now)) >= 0:
        out.append(seq)
    return out


def test_initial_window_then_slow_start_by_delivered_packets():
    snd = sender()
    assert send_all(snd) == list(range(10))
    assert snd.ack(2, -1, 0.0, 0.05) == 1           # 2 delivered: cwnd 10 -> 12
    assert snd.s.cwnd == 12.0 and snd.s.srtt == pytest.approx(0.05)
    assert send_all(snd, 0.05) == list(range(10, 14))


def test_three_sacks_above_a_hole_mark_it_lost_and_start_prr_recovery():
    snd = sender()
    send_all(snd)
    for k, sacked in enumerate([1, 2, 3]):           # packet 0 lost; 1..3 arrive out of order
        snd.ack(0, sacked, 0.0, 0.05 + k / 1000)
    assert snd.lost_out == 1 and snd.sacked_out == 3
    assert snd.s.ca_state == RECOVERY
    assert snd.s.ssthresh == 4.0                     # max(pipe/2, 2), pipe 8 before this ACK (Linux's prior_in_flight)
    assert snd.pipe == 10 - 3 - 1                    # (snd_max - una) - sacked - lost + retx
    assert snd.send_one(0.06) == 0                   # the hole is retransmitted first
    assert snd.retransmitted == 1


def test_ns3_reduction_sees_the_pipe_after_the_ack_that_starts_recovery():
    """ns-3's TcpSocketBase::EnterRecovery passes BytesInFlight() (3 SACKed, the head lost) to
    TcpNewReno::GetSsThresh: pipe 10 - 3 - 1 = 6, ssthresh 3 where Linux's prior_in_flight gives 4."""
    snd = sender()
    snd.ssthresh_pipe_after_ack = True
    send_all(snd)
    for k, sacked in enumerate([1, 2, 3]):
        snd.ack(0, sacked, 0.0, 0.05 + k / 1000)
    assert snd.s.ca_state == RECOVERY and snd.s.ssthresh == 3.0


def test_recovery_ends_with_cwnd_at_ssthresh_when_recover_is_acked():
    snd = sender()
    send_all(snd)
    for k, sacked in enumerate([1, 2, 3]):
        snd.ack(0, sacked, 0.0, 0.05 + k / 1000)
    send_all(snd, 0.06)
    snd.ack(10, -1, 0.06, 0.11)
    assert snd.s.ca_state == OPEN and snd.s.cwnd == 4.0     # = ssthresh; no growth on this ACK


def test_timeout_marks_everything_unsacked_lost_and_restarts_from_one():
    snd = sender()
    send_all(snd)
    snd.ack(0, 4, 0.0, 0.05)
    snd.timeout(1.0)
    assert (snd.s.cwnd, snd.s.ca_state, snd.timeouts) == (1.0, LOSS, 1)
    assert snd.lost_out == 9 and snd.pipe == 0
    assert snd.send_one(1.0) == 0 and snd.send_one(1.0) == -1
    assert snd.rto.rto == 2.0


def test_sacks_alone_never_grow_the_window():
    """Only an ACK that advances snd_una grows cwnd (RFC 5681; Linux tcp_may_raise_cwnd needs
    FLAG_DATA_ACKED; ns-3 calls IncreaseWindow on new cumulative ACKs only). In LOSS with the hole at
    snd_una still open, SACKs of the packets above it leave cwnd at 1: growing on them let 512 flows
    slow-start past holes whose retransmissions were lost, keeping the bottleneck overloaded (issue 38)."""
    snd = sender()
    send_all(snd)                                     # 0-9
    snd.ack(0, 1, 0.0, 0.05)                          # OPEN: 1 SACKed, snd_una still 0
    assert snd.s.ca_state == OPEN and snd.s.cwnd == 10.0
    snd.timeout(1.0)
    assert snd.send_one(1.0) == 0                    # cwnd 1: the retransmission of 0
    for k, sacked in enumerate(range(2, 10)):         # the first transmissions of 2-9 arrive
        snd.ack(0, sacked, 0.0, 1.01 + k / 1000)
    assert snd.s.ca_state == LOSS and snd.sacked_out == 9 and snd.s.cwnd == 1.0
    assert snd.send_one(1.02) == -1                  # the retransmission in flight fills the window
    snd.ack(10, -1, 1.0, 1.05)                        # 0 delivered: one packet newly delivered, cwnd 2
    assert snd.s.ca_state == OPEN and snd.s.cwnd == 2.0


def test_lost_retransmission_is_detected_when_a_later_packet_arrives():
    snd = sender()
    send_all(snd)
    for k, sacked in enumerate([1, 2, 3]):
        snd.ack(0, sacked, 0.0, 0.05 + k / 1000)
    assert snd.send_one(0.10) == 0                   # retransmission of 0 (it will be lost too)
    snd.s.cwnd = 20.0                                 # room for new data
    new = snd.send_one(0.20)                          # a new packet sent well after it
    assert new == 10
    assert snd.retrans_out == 1
    snd.ack(0, new, 0.0, 0.30)                        # the new packet is SACKed first
    assert snd.retrans_out == 0                       # the retransmission of 0 is lost again
    assert snd.send_one(0.30) == 0                   # so 0 goes out again, before anything else


def test_without_rack_a_lost_retransmission_waits_for_the_timeout():
    """sack_recovery ns3 (ns-3 3.44, NS-2): RFC 6675 NextSeg retransmits a hole once per recovery."""
    snd = sender()
    snd.rack = False
    send_all(snd)
    for k, sacked in enumerate([1, 2, 3]):
        snd.ack(0, sacked, 0.0, 0.05 + k / 1000)
    assert snd.send_one(0.10) == 0
    snd.s.cwnd = 20.0
    new = snd.send_one(0.20)
    snd.ack(0, new, 0.0, 0.30)                        # as above: a later packet is SACKed first
    assert snd.retrans_out == 1                       # 0 still counts as in flight
    resent = send_all(snd, 0.30)
    assert resent and 0 not in resent                 # the holes 4-7 SACK 10 shows, never 0 again
    snd.timeout(1.30)
    assert snd.timeouts == 1 and snd.send_one(1.30) == 0      # the timeout resends it


def timed_out_with_a_sack_at_4(retx_below_sack):
    """Packets 0-9 in flight, 4 SACKed, then a timeout: 0-3 and 5-9 lost, cwnd 1."""
    snd = sender()
    snd.retx_below_sack = retx_below_sack
    send_all(snd)
    snd.ack(0, 4, 0.0, 0.05)
    snd.timeout(1.0)
    return snd


def sent_by_delivered_acks(snd, acks, now=1.1):
    """The timeout's retransmission, then what each cumulative ACK lets out (slow start from cwnd 1)."""
    out = [snd.send_one(1.0)]
    for ack in acks:
        snd.ack(ack, -1, 1.0, now)
        out += send_all(snd, now)
    return out


def test_after_a_timeout_ns3_resends_only_below_the_highest_sack_while_new_data_waits():
    """RFC 6675 NextSeg rule 1.b as ns-3 3.44's TcpTxBuffer::NextSeg: the holes 0-3 below SACK 4 are
    resent, then new data (10), not the packets 5-9 above it (they may still be in flight)."""
    snd = timed_out_with_a_sack_at_4(True)
    assert sent_by_delivered_acks(snd, [1, 2]) == [0, 1, 2, 3, 10]


def test_after_a_timeout_linux_resends_every_lost_packet_first():
    snd = timed_out_with_a_sack_at_4(False)
    assert sent_by_delivered_acks(snd, [1, 2]) == [0, 1, 2, 3, 5]


def test_once_snd_una_passes_the_highest_sack_ns3_resends_the_lost_packets_above_it():
    """ns-3 forgets its highest SACK when the cumulative ACK passes it (m_sackSeen false), so rule
    1.b no longer holds 5-9 back: they go before new data, as they would without any SACK."""
    snd = timed_out_with_a_sack_at_4(True)
    sent = sent_by_delivered_acks(snd, [1, 2])
    snd.ack(5, -1, 1.0, 1.2)                          # 0-4 delivered: snd_una 5, above SACK 4
    assert sent + send_all(snd, 1.2)[:2] == [0, 1, 2, 3, 10, 5, 6]


def test_the_receive_window_bounds_new_data_by_what_the_receiver_holds_out_of_order():
    """max_window 12: 0-9 out, 5-7 SACKed (held by the receiver), 0-4 lost. The right edge is snd_una + 12 less the
    3 held, 9, below snd_max 10: only the holes go out, though the pipe (7) is under 12 and cwnd allows 100."""
    for max_window, new_data in ((12, []), (0, list(range(10, 103)))):
        snd = sender()
        snd.max_window = max_window
        send_all(snd)
        for k, sacked in enumerate([5, 6, 7]):
            snd.ack(0, sacked, 0.0, 0.05 + k / 1000)
        snd.s.cwnd = 100.0
        assert send_all(snd, 0.06) == [0, 1, 2, 3, 4] + new_data


def test_receiver_delays_acks_and_reports_out_of_order_at_once():
    rcv = SackReceiver(2, 0.2)
    assert rcv.receive(0, 0.0, 0.0) is False          # first in-order packet: wait
    assert rcv.delack_deadline == pytest.approx(0.2)
    assert rcv.receive(1, 0.001, 0.001) is True       # second: ACK now
    assert (rcv.rcv_nxt, rcv.ack_ts) == (2, 0.0)      # echoes the first packet's timestamp
    assert rcv.receive(3, 0.002, 0.002) is True and rcv.ack_sack == 3
    assert rcv.receive(2, 0.003, 0.003) is True and rcv.rcv_nxt == 4   # hole filled: at once
    assert rcv.receive(4, 0.004, 0.004) is False
    assert rcv.delack_timer(0.1) is False and rcv.delack_timer(0.205) is True
    assert math.isinf(rcv.delack_deadline)



class Recorder(CongestionControl):
    """A fixed window that records each ACK's rate sample and each window event."""

    def __init__(self):
        super().__init__("recorder")
        self.samples, self.events = [], []

    def pkts_acked(self, s, sample):
        self.samples.append(sample.is_app_limited)

    def cwnd_event(self, s, event):
        self.events.append((event, s.app_limited))


def test_bulk_sender_always_has_data_and_is_never_app_limited():
    snd = sender(4.0)
    assert send_all(snd) == [0, 1, 2, 3] and snd.app_limited == 0 and not snd.s.app_limited


def test_app_limited_sender_sends_only_what_the_application_wrote():
    snd = SackSender(RenoGrowth("newreno"), RtoEstimator(1.0, 1.0), 10.0, bulk=False)
    assert send_all(snd) == []
    snd.write(3)
    assert send_all(snd) == [0, 1, 2]
    snd.write(2)
    assert send_all(snd, 0.01) == [3, 4] and snd.app_avail == 5


def test_app_limited_rate_samples_last_until_the_stretch_is_delivered():
    cc = Recorder()
    snd = SackSender(cc, RtoEstimator(1.0, 1.0), 2.0, bulk=False)
    snd.write(4)                                     # idle sender, open window: app-limited
    assert snd.app_limited == 1 and snd.s.app_limited
    assert send_all(snd) == [0, 1]                   # sent in the stretch
    assert cc.events == [(EVENT_TX_START, True)]     # the first send, with nothing in flight
    snd.write(2)                                     # data still unsent: no new stretch
    snd.ack(1, -1, 0.0, 0.1)                         # delivered 1: the stretch goes on
    assert snd.app_limited == 1 and send_all(snd, 0.1) == [2]
    snd.ack(2, -1, 0.0, 0.2)                         # delivered 2 > 1: the stretch ends
    assert snd.app_limited == 0 and not snd.s.app_limited
    assert send_all(snd, 0.2) == [3]
    snd.ack(3, -1, 0.1, 0.3)                         # packet 2: sent in the stretch
    snd.ack(4, -1, 0.2, 0.4)                         # packet 3: sent after it
    assert cc.samples == [True, True, True, False]
    assert cc.events == [(EVENT_TX_START, True)]
