"""TCP Vegas (Brakmo and Peterson 1995): once per RTT, compare expected and actual rate; grow by
one packet when fewer than alpha packets queue, shrink when more than beta do. Each stack runs its
own Vegas: the ns2 stack NS-2 2.35's Agent/TCP/Vegas (alpha 1, beta 3, gamma 1, the mean RTT of the
round, growth spread over the round's ACKs, its own slow-start exit and loss handling:
simulator/tcp/cc/ns2_vegas.pyx with recovery Ns2VegasRecovery); Linux (2, 4, 1, minimum RTT of
the round) and ns-3 (2, 4, 1, smoothed RTT and its ssthresh rule) simulator/tcp/cc/vegas.pyx, as
the ns2 stack with `sack: true` (NS-2's Vegas has no SACK variant); the textbook M/M/1 sender
uses Linux's."""
NAME = "vegas"
DESCRIPTION = "delay-based: keep alpha..beta packets queued at the bottleneck"
RECOVERY = "reno"
NS2_RECOVERY = "ns2_vegas"    # NS-2's agent's own loss handling, on the ns2 stack's sender without SACK


def make(stack):
    from simulator.tcp.cc import ns2_vegas, vegas
    if stack.name == "ns2" and not stack.sack:
        return ns2_vegas.make()
    if stack.name == "ns2":
        return vegas.make(alpha=1, beta=3, gamma=1, use_srtt=False, ns3_ssthresh=False)
    ns3 = stack.name == "ns3"
    return vegas.make(use_srtt=ns3, ns3_ssthresh=ns3)
