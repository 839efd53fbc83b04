"""TCP Vegas (Brakmo and Peterson 1995): once per RTT, compare expected and actual rate; grow by
one packet when fewer than alpha packets queue, shrink when more than beta do. Thresholds and RTT
input follow the stack: NS-2's agent (alpha 1, beta 3, gamma 1), Linux (2, 4, 1, minimum RTT of
the round), ns-3 (2, 4, 1, smoothed RTT and its ssthresh rule); the textbook M/M/1 sender uses
Linux's."""
NAME = "vegas"
DESCRIPTION = "delay-based: keep alpha..beta packets queued at the bottleneck"
RECOVERY = "reno"


def make(stack):
    from simulator.tcp.cc import vegas
    if stack.name == "ns2":
        return vegas.make(alpha=1, beta=3, gamma=1, use_srtt=False, ns3_ssthresh=False)
    ns3 = stack.name == "ns3"
    return vegas.make(use_srtt=ns3, ns3_ssthresh=ns3)
