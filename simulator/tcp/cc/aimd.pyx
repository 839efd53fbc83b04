"""Window growth shared by Tahoe, Reno and NewReno (RFC 5681): slow start, then about one packet
per RTT in congestion avoidance; ssthresh = max(FlightSize/2, 2).  They differ only in loss
recovery.  How an ACK counts differs between the reference stacks (`ack_counting`, set once at
construction from the stack in force, simulator/tcp/stacks.py):

* linux: RFC 3465 byte counting, as Linux's tcp_slow_start (cwnd = min(cwnd + acked, ssthresh),
  the rest of the ACK to congestion avoidance) and tcp_cong_avoid_ai (+ acked/cwnd), both in
  net/ipv4/tcp_cong.c; an ACK covering two segments grows the window as two ACKs would.
* ns3: ns-3's TcpNewReno::IncreaseWindow (src/internet/model/tcp-congestion-ops.cc): SlowStart
  adds one segment per ACK whatever it covers and returns segmentsAcked - 1, which goes to
  CongestionAvoidance only if cwnd has reached ssthresh; CongestionAvoidance adds
  max(1, MSS*MSS/cwnd) bytes per ACK that acknowledges anything, truncated to whole bytes
  (static_cast<uint32_t>(adder)): floor(max(1, MSS/cwnd)) / MSS packets, cwnd in packets.  The
  truncation is not small where windows are large: at 300 packets MSS/cwnd = 4.83 bytes and ns-3
  adds 4, growing 17% slower than 1/cwnd; from 725 packets on it adds 1 byte (the floor) per ACK.
* ns2: NS-2's TcpAgent::opencwnd (tcp/tcp.cc, wnd_option_ 1): + 1 per new ACK while cwnd <
  ssthresh, else + 1/cwnd per new ACK, however many packets it covers.
"""
from libc.math cimport floor

from simulator.tcp.cc.base cimport CongestionControl, TcpState

COUNTING = {"linux": COUNT_LINUX, "ns3": COUNT_NS3, "ns2": COUNT_NS2}


def counting_code(str name):
    """The COUNT_* code of an ack-counting name; ValueError naming the allowed ones."""
    if name not in COUNTING:
        raise ValueError(f"ack counting {name!r} unknown; allowed: {', '.join(COUNTING)}")
    return COUNTING[name]


cdef class RenoGrowth(CongestionControl):
    def __init__(self, name="reno", str ack_counting="linux"):
        self.name = name
        self.ack_counting = counting_code(ack_counting)

    cpdef double ssthresh(self, TcpState s):
        return max(s.in_flight / 2.0, 2.0)

    cpdef void cong_avoid(self, TcpState s, long acked):
        cdef double grown
        if acked <= 0:
            return
        if self.ack_counting == COUNT_NS2:
            s.cwnd += 1.0 if s.cwnd < s.ssthresh else 1.0 / s.cwnd
            return
        if self.ack_counting == COUNT_NS3:
            if s.cwnd < s.ssthresh:
                s.cwnd += 1.0
                acked -= 1
            if s.cwnd >= s.ssthresh and acked > 0:    # whole bytes, as ns-3 (docstring)
                s.cwnd += floor(max(1.0, s.mss / s.cwnd) + 1e-9) / s.mss
            return
        if s.cwnd < s.ssthresh:
            # slow start up to ssthresh; what is left of the ACK goes to congestion avoidance
            grown = min(s.cwnd + acked, max(s.ssthresh, s.cwnd))
            acked -= <long>(grown - s.cwnd)
            s.cwnd = grown
            if acked <= 0:
                return
        s.cwnd += acked / s.cwnd
