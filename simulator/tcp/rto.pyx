"""Retransmission timeout per RFC 6298: SRTT/RTTVAR with gains 1/8 and 1/4, RTO = SRTT +
max(G, 4 RTTVAR), clamped to [min_rto, max_rto]; the timer value doubles on each expiry."""


cdef class RtoEstimator:
    def __init__(self, double initial=1.0, double min_rto=1.0, double max_rto=60.0,
                 double granularity=0.0):
        if not (0 < min_rto <= max_rto) or initial <= 0:
            raise ValueError(f"need 0 < min_rto <= max_rto and initial > 0 "
                             f"(got initial={initial}, min={min_rto}, max={max_rto})")
        self.rto = initial
        self.min_rto = min_rto
        self.max_rto = max_rto
        self.granularity = granularity
        self.has_sample = False

    cdef void sample(self, double r) noexcept:
        if not self.has_sample:
            self.srtt = r
            self.rttvar = r / 2.0
            self.has_sample = True
        else:
            self.rttvar = 0.75 * self.rttvar + 0.25 * abs(self.srtt - r)
            self.srtt = 0.875 * self.srtt + 0.125 * r
        self.rto = min(max(self.srtt + max(self.granularity, 4.0 * self.rttvar), self.min_rto),
                       self.max_rto)

    cdef void handshake(self, TcpState s, double rtt) noexcept:
        """The SYN-ACK's sample `rtt` starts the estimate and the connection's latest and minimum RTT."""
        self.sample(rtt)
        s.srtt = self.srtt
        s.last_rtt = rtt
        s.min_rtt = rtt

    cdef void backoff(self) noexcept:
        self.rto = min(2.0 * self.rto, self.max_rto)

    def add_sample(self, double r):
        self.sample(r)

    def expire(self):
        self.backoff()
