"""Reno (RFC 5681): slow start, +1/cwnd per packet acked, halve on loss; fast retransmit and fast
recovery, which ends at the first new ACK (so several losses in one window often need a timeout
without SACK). On a SACK stack it is Linux's `reno` module: the same growth, RFC 6675 recovery."""
NAME = "reno"
DESCRIPTION = "AIMD window (RFC 5681) with fast retransmit and fast recovery"
RECOVERY = "reno"


def make(stack):
    from simulator.tcp.cc.aimd import RenoGrowth
    return RenoGrowth(NAME)
