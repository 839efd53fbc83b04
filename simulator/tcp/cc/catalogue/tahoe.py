"""Tahoe (Jacobson 1988; RFC 5681 without fast recovery): slow start, then +1/cwnd per packet
acked; on three duplicate ACKs or a timeout, ssthresh = FlightSize/2 and cwnd = 1 (slow start
again). It predates SACK and has no fast recovery, so it runs without SACK in every model."""
NAME = "tahoe"
DESCRIPTION = "Reno window growth; any loss restarts slow start from one packet (no fast recovery)"
RECOVERY = "tahoe"
SACK = False


def make(stack):
    from simulator.tcp.cc.aimd import RenoGrowth
    return RenoGrowth(NAME)
