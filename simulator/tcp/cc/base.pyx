"""Base classes of the congestion-control interface.

Hooks are cpdef: compiled algorithms dispatch at C speed, and a pure-Python subclass still works
for prototyping (override the hooks as ordinary methods).
"""

OPEN, DISORDER, RECOVERY, LOSS = CA_OPEN, CA_DISORDER, CA_RECOVERY, CA_LOSS
EVENT_LOSS, EVENT_COMPLETE_CWR, EVENT_TX_START, EVENT_DROP = (
    CA_EVENT_LOSS, CA_EVENT_COMPLETE_CWR, CA_EVENT_TX_START, CA_EVENT_DROP)


cdef class TcpState:
    def __init__(self, double cwnd=1.0, double ssthresh=1e9):
        self.cwnd = cwnd
        self.ssthresh = ssthresh
        self.ca_state = CA_OPEN
        self.srtt = -1.0
        self.min_rtt = -1.0
        self.last_rtt = -1.0
        self.mss = 1448.0


cdef class AckSample:
    def __init__(self, long acked=1, double rtt=-1.0, long in_flight=0, double now=0.0):
        self.acked = acked
        self.rtt = rtt
        self.in_flight = in_flight
        self.now = now
        self.interval = -1.0
        self.delivery_rate = -1.0


cdef class CongestionControl:
    """Default hooks do nothing; ssthresh halves the flight size (RFC 5681)."""

    def __init__(self, name="base"):
        self.name = name

    cpdef void init(self, TcpState s):
        pass

    cpdef void pkts_acked(self, TcpState s, AckSample sample):
        pass

    cpdef void set_state(self, TcpState s, int new_state):
        pass          # notification only: the sender assigns s.ca_state afterwards

    cpdef double ssthresh(self, TcpState s):
        return max(s.in_flight / 2.0, 2.0)

    cpdef void cong_avoid(self, TcpState s, long acked):
        pass

    cpdef void cwnd_event(self, TcpState s, int event):
        pass

    cpdef void cong_control(self, TcpState s, AckSample rs):
        pass
