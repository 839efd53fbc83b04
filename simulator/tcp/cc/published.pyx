"""The M/M/1 paper's algorithms exactly as its published code runs them (variant `as_published`).

See book/published_code.md.  The sender calls cong_avoid(s, 1) on every ACK and
cwnd_event(s, CA_EVENT_DROP) on every drop, at the moment of the drop.
"""
from libc.math cimport cbrt, floor, INFINITY

from simulator.tcp.cc.base cimport (CA_EVENT_DROP, AckSample, CongestionControl, TcpState)


cdef class PublishedTahoe(CongestionControl):
    """cwnd doubles on every ACK below ssthresh; +1/cwnd above; any drop: cwnd = 1."""

    def __init__(self, double init_ssthresh=10.0):
        self.name = "tahoe"
        self.init_ssthresh = init_ssthresh

    cpdef void init(self, TcpState s):
        s.cwnd = 1.0
        s.ssthresh = self.init_ssthresh

    cpdef void cong_avoid(self, TcpState s, long acked):
        if s.cwnd < s.ssthresh:
            s.cwnd += s.cwnd
        else:
            s.cwnd += 1.0 / s.cwnd

    cpdef void cwnd_event(self, TcpState s, int event):
        if event == CA_EVENT_DROP:
            s.ssthresh = max(floor(s.cwnd / 2.0), 1.0)
            s.cwnd = 1.0


cdef class PublishedReno(CongestionControl):
    """+1 per ACK below ssthresh; +1 per cwnd ACKs above; drops within `guard` s of the last
    reacted drop are ignored, otherwise ssthresh = floor(cwnd/2), cwnd = ssthresh and the code's
    state goes back to slow start: the next ACK adds one packet and restarts the ACK count, then
    congestion avoidance resumes (mm1.py's state machine; without this step none of the 27 Reno
    cells of the paper's tables replays from its seed-42 stream, with it 26 do)."""

    def __init__(self, double init_ssthresh=10.0, double guard=1.0):
        self.name = "reno"
        self.init_ssthresh = init_ssthresh
        self.guard = guard

    cpdef void init(self, TcpState s):
        s.cwnd = 1.0
        s.ssthresh = self.init_ssthresh
        self.ack_count = 0
        self.last_reaction = -INFINITY
        self.floor_hits = 0
        self.slow_start_step = False

    cpdef void cong_avoid(self, TcpState s, long acked):
        if self.slow_start_step:      # the one slow-start ACK after a reacted loss
            s.cwnd += 1.0
            self.ack_count = 0
            self.slow_start_step = False
        elif s.cwnd < s.ssthresh:
            s.cwnd += 1.0
        else:
            self.ack_count += 1
            if self.ack_count >= s.cwnd:
                s.cwnd += 1.0
                self.ack_count = 0

    cpdef void cwnd_event(self, TcpState s, int event):
        if event != CA_EVENT_DROP or s.now - self.last_reaction < self.guard:
            return
        self.last_reaction = s.now
        s.ssthresh = floor(s.cwnd / 2.0)
        s.cwnd = s.ssthresh
        self.slow_start_step = True
        if s.cwnd < 1.0:
            # The published code would stall for ever at cwnd 0 (nothing is ever sent again);
            # we keep one packet so the run can end, and count how often that happens.
            s.cwnd = 1.0
            self.floor_hits += 1


cdef class PublishedCubic(CongestionControl):
    """cwnd = max(C (t-K)^3 + W_max, 1) recomputed on every ACK, K = cbrt(W_max (1-beta) / C);
    on a drop W_max = cwnd, cwnd = (1-beta) cwnd.  No slow start, no TCP-friendly region."""

    def __init__(self, double C=0.4, double beta=0.2):
        self.name = "cubic"
        self.C = C
        self.beta = beta

    cpdef void init(self, TcpState s):
        s.cwnd = 1.0
        s.ssthresh = INFINITY
        self.w_max = 1.0
        self.epoch = s.now
        self.K = cbrt(self.w_max * (1.0 - self.beta) / self.C)

    cpdef void cong_avoid(self, TcpState s, long acked):
        cdef double d = s.now - self.epoch - self.K
        s.cwnd = max(self.C * (d * d * d) + self.w_max, 1.0)

    cpdef void cwnd_event(self, TcpState s, int event):
        if event == CA_EVENT_DROP:
            self.w_max = s.cwnd
            s.cwnd = (1.0 - self.beta) * s.cwnd
            self.epoch = s.now
            self.K = cbrt(self.w_max * (1.0 - self.beta) / self.C)
