"""Retransmission timeout per RFC 6298: SRTT/RTTVAR with gains 1/8 and 1/4, RTO = SRTT +
max(G, 4 RTTVAR), clamped to [min_rto, max_rto]; the timer value doubles on each expiry.

LinuxRtoEstimator is Linux's variant (net/ipv4/tcp_input.c tcp_rtt_estimator, include/net/tcp.h
__tcp_set_rto): the variance term, not the RTO, is floored at the minimum RTO, so RTO = SRTT +
max(4 x mean deviation over the last round trip, rto_min), about SRTT + 200 ms."""


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

    cdef void sample_seq(self, double r, long long snd_una, long long snd_nxt) noexcept:
        """A sample `r` taken when the cumulative ACK reached `snd_una` with `snd_nxt` the next new
        packet; RFC 6298 ignores where the sample falls, Linux's estimator does not."""
        self.sample(r)

    cdef void handshake(self, TcpState s, double rtt) noexcept:
        """The SYN-ACK's sample `rtt` starts the estimate and the connection's latest and minimum RTT."""
        self.sample_seq(rtt, 0, 0)
        s.srtt = self.srtt
        s.last_rtt = rtt
        s.min_rtt = rtt

    cdef void backoff(self) noexcept:
        self.rto = min(2.0 * self.rto, self.max_rto)

    def add_sample(self, double r, long long snd_una=0, long long snd_nxt=0):
        self.sample_seq(r, snd_una, snd_nxt)

    def expire(self):
        self.backoff()


cdef class LinuxRtoEstimator(RtoEstimator):
    """Linux's tcp_rtt_estimator and __tcp_set_rto, in seconds instead of integer microseconds and
    jiffies (so without their truncation). Fields as Linux's (its mdev_us, mdev_max_us, rttvar_us):
    mdev is 4 x the mean deviation; mdev_max the largest mdev of the current round trip, starting at
    rto_min; rttvar_linux follows mdev_max up at once and down by a quarter of the gap per round
    trip, so it never falls below rto_min. RTO = SRTT + rttvar_linux, capped at max_rto (TCP_RTO_MAX
    120 s). A sample below SRTT moves mdev with gain 1/32 instead of 1/4 once the error exceeds mdev/4
    (Linux's Eifel-like rule). A round trip ends when snd_una passes rtt_seq (snd_nxt at its start)."""

    def __init__(self, double initial=1.0, double min_rto=0.2, double max_rto=120.0, double granularity=0.0):
        RtoEstimator.__init__(self, initial, min_rto, max_rto, granularity)

    cdef void sample(self, double r) noexcept:
        self.sample_seq(r, self.rtt_seq, self.rtt_seq)

    cdef void sample_seq(self, double r, long long snd_una, long long snd_nxt) noexcept:
        cdef double m
        if not self.has_sample:
            self.srtt = r
            self.mdev = 2.0 * r                         # "make sure rto = 3*rtt"
            self.rttvar_linux = max(self.mdev, self.min_rto)
            self.mdev_max = self.rttvar_linux
            self.rtt_seq = snd_nxt
            self.has_sample = True
        else:
            m = r - self.srtt                           # error of the estimate
            self.srtt += m / 8.0
            if m < 0:
                m = -m - self.mdev / 4.0
                if m > 0:
                    m /= 8.0                            # RTT falling: gain 1/32, not 1/4
            else:
                m -= self.mdev / 4.0
            self.mdev += m                              # mdev = 3/4 mdev + |error|
            if self.mdev > self.mdev_max:
                self.mdev_max = self.mdev
                if self.mdev_max > self.rttvar_linux:
                    self.rttvar_linux = self.mdev_max
            if snd_una > self.rtt_seq:                  # a round trip has ended
                if self.mdev_max < self.rttvar_linux:
                    self.rttvar_linux -= (self.rttvar_linux - self.mdev_max) / 4.0
                self.rtt_seq = snd_nxt
                self.mdev_max = self.min_rto
        self.rttvar = self.rttvar_linux / 4.0           # RFC 6298's RTTVAR, for reading
        self.rto = min(self.srtt + self.rttvar_linux, self.max_rto)
