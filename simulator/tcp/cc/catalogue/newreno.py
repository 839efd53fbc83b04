"""NewReno (RFC 6582): Reno's window growth; fast recovery stays on over partial ACKs until all
data outstanding at the loss is acknowledged. On a SACK stack (ns-3's TcpNewReno, Linux's reno)
recovery is RFC 6675's, so it behaves as `reno` there."""
NAME = "newreno"
DESCRIPTION = "AIMD window (RFC 5681); recovery over partial ACKs (RFC 6582)"
RECOVERY = "newreno"


def make(stack):
    from simulator.tcp.cc.aimd import RenoGrowth
    return RenoGrowth(NAME)
