"""The SACK scoreboard starts small and doubles as the window grows (memory follows the largest
window, not the run's length): a sender that grows it behaves exactly like one that never has to."""
import random

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
