"""The SACK scoreboard starts small and doubles as the window grows (memory follows the largest
window, not the run's length): a sender that grows it behaves exactly like one that never has to."""
import random

import pytest

from simulator.tcp.cc.aimd import RenoGrowth
from simulator.tcp.rto import RtoEstimator
from simulator.tcp.sack_receiver import SackReceiver
from simulator.tcp.sack_sender import SackSender


def lossy_transfer(initial_entries, rounds=40, loss=0.01):
    """Round-based transfer over a path that drops packet 30 (and its retransmissions) for the
    first 0.5 s, so the window slides far past a hole, and each packet with probability `loss`
    after it; returns everything the sender decided, round by round."""
    snd = SackSender(RenoGrowth("newreno"), RtoEstimator(1.0, 1.0), 10.0,
                     initial_entries=initial_entries)
    rcv = SackReceiver(1, 0.0)
    rng, now, log = random.Random(7), 0.0, []
    for _ in range(rounds):
        sent = []
        while (seq := snd.send_one(now)) >= 0:
            sent.append(seq)
        now += 0.05
        for seq in sent:
            if (seq != 30 or now > 0.5) and (now < 0.5 or rng.random() >= loss):
                rcv.receive(seq, now - 0.05, now)
                snd.ack(rcv.rcv_nxt, rcv.ack_sack, rcv.ack_ts, now)
        log.append((tuple(sent), snd.s.cwnd, snd.s.ssthresh, snd.lost_out, snd.sacked_out,
                    snd.retransmitted, snd.pipe))
    return log


def test_a_scoreboard_that_grows_from_16_entries_decides_exactly_like_a_full_one():
    grown, full = lossy_transfer(16), lossy_transfer(1 << 17)
    assert max(r[4] for r in full) > 100               # SACKed packets far above a hole: the
                                                       # scoreboard grew while holding them
    assert full[-1][5] > 5                             # and retransmissions
    assert grown == full


def test_the_receivers_bitmap_grows_past_a_long_hole_and_keeps_every_packet():
    rcv = SackReceiver(1, 0.0)                         # starts with 1024 entries
    for seq in range(1, 5001):                         # packet 0 missing: 5000 above the hole
        assert rcv.receive(seq) and rcv.ack_sack == seq
    assert rcv.receive(4000) and rcv.duplicates == 1   # a duplicate far above the hole is one
    rcv.receive(0)                                     # the hole fills: everything is in order
    assert rcv.rcv_nxt == 5001 and rcv.unique == 5001


def test_the_receivers_window_cap_still_bounds_it():
    rcv = SackReceiver(1, 0.0, window_cap=2048)
    rcv.receive(2047)
    with pytest.raises(OverflowError, match="beyond the receive window of 2048 packets"):
        rcv.receive(2048)
