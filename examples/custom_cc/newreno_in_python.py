"""NewReno's window (RFC 5681 growth, ssthresh = max(FlightSize/2, 2)) in plain Python.

The same arithmetic as the built-in `newreno` (simulator/tcp/cc/aimd.pyx, RenoGrowth), including how
each reference stack counts an ACK, so a study running both gives identical metrics for the same
random numbers (tests/test_user_cc.py). Loss recovery is the sender's (RECOVERY below on a sender
without SACK), as for the built-in. Name it in a study:

    algorithms:
      mynewreno: examples/custom_cc/newreno_in_python.py:NewRenoInPython
"""
import math

from simulator.tcp.cc.base import CongestionControl


class NewRenoInPython(CongestionControl):
    RECOVERY = "newreno"        # partial ACKs keep fast recovery on (RFC 6582), without SACK

    def init(self, s):
        # self.stack is the model's stack, set before this first hook: linux, ns3 or ns2 counting
        self.counting = self.stack.ack_counting

    def ssthresh(self, s):
        return max(s.in_flight / 2.0, 2.0)

    def cong_avoid(self, s, acked):
        if acked <= 0:
            return
        if self.counting == "ns2":         # NS-2 opencwnd: one step per ACK, whatever it covers
            s.cwnd += 1.0 if s.cwnd < s.ssthresh else 1.0 / s.cwnd
        elif self.counting == "ns3":       # ns-3 TcpNewReno: +1 per ACK in slow start, then
            if s.cwnd < s.ssthresh:        # MSS*MSS/cwnd bytes per ACK, truncated to whole bytes
                s.cwnd += 1.0
                acked -= 1
            if s.cwnd >= s.ssthresh and acked > 0:
                s.cwnd += math.floor(max(1.0, s.mss / s.cwnd) + 1e-9) / s.mss
        else:                              # Linux: RFC 3465 byte counting
            if s.cwnd < s.ssthresh:
                grown = min(s.cwnd + acked, max(s.ssthresh, s.cwnd))
                acked -= int(grown - s.cwnd)
                s.cwnd = grown
                if acked <= 0:
                    return
            s.cwnd += acked / s.cwnd
