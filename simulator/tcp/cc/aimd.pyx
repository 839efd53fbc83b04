"""Window growth shared by Tahoe, Reno and NewReno (RFC 5681): slow start, then +1/cwnd per
packet acked; ssthresh = max(FlightSize/2, 2).  They differ only in loss recovery."""
from simulator.tcp.cc.base cimport CongestionControl, TcpState


cdef class RenoGrowth(CongestionControl):
    def __init__(self, name="reno"):
        self.name = name

    cpdef double ssthresh(self, TcpState s):
        return max(s.in_flight / 2.0, 2.0)

    cpdef void cong_avoid(self, TcpState s, long acked):
        cdef double grown
        if s.cwnd < s.ssthresh:
            # slow start up to ssthresh; what is left of the ACK goes to congestion avoidance
            grown = min(s.cwnd + acked, max(s.ssthresh, s.cwnd))
            acked -= <long>(grown - s.cwnd)
            s.cwnd = grown
            if acked <= 0:
                return
        s.cwnd += acked / s.cwnd
