"""Retransmission timeout per RFC 6298: SRTT/RTTVAR with gains 1/8 and 1/4, RTO = SRTT +
max(G, 4 RTTVAR), clamped to [min_rto, max_rto]; the timer value doubles on each expiry.

LinuxRtoEstimator is Linux's variant (net/ipv4/tcp_input.c tcp_rtt_estimator, include/net/tcp.h
__tcp_set_rto): the variance term, not the RTO, is floored at the minimum RTO, so RTO = SRTT +
max(4 x mean deviation over the last round trip, rto_min), about SRTT + 200 ms.

Ns2Rto is NS-2 2.35's timer (tcp/tcp.cc rtt_update, rtt_timeout, rtt_backoff with its defaults: tcpTick_
10 ms, T_SRTT_BITS 3, T_RTTVAR_BITS 2, rttvar_exp_ 2, rfc2988_ true, minrto_ 0.2 s, maxrto_ 60 s): a sample
counts the clock ticks between the send and the ACK of one timed packet per round trip (the sender times
it: TcpSender.timed_rtt), srtt and rttvar are integers of ticks scaled by 8 and 4, RTO = (srtt + 4 rttvar)
ticks, at least minrto_, times the backoff, which doubles per expiry and ends only when a timed packet is
acknowledged (newack: t_backoff_ = 1); past a backoff of 8 srtt is folded into rttvar and restarts.
NS-2 offsets its tick clock by a random boot_time_ in [0, tick); here the clock starts at 0.
"""
from libc.math cimport fmod


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


cdef class Ns2Rto(RtoEstimator):
    def __init__(self, double initial=3.0, double min_rto=0.2, double max_rto=60.0, double tick=0.01):
        RtoEstimator.__init__(self, initial, min_rto, max_rto)
        if tick <= 0:
            raise ValueError(f"need a tick > 0 s, got {tick}")
        self.tick = tick
        self.rtxcur = initial
        self.t_srtt = 0
        self.t_rttvar = 0
        self.t_backoff = 1

    cdef void sample(self, double r) noexcept:
        self.timed_sample(r, 0.0)

    cdef void timed_sample(self, double r, double sent) noexcept:
        """The ACK of the timed packet sent at `sent` came `r` s later (rtt_update, boot_time_ 0)."""
        cdef long t_rtt = <long>((r + fmod(sent, self.tick)) / self.tick)
        cdef long delta
        if t_rtt < 1:
            t_rtt = 1
        if self.t_srtt != 0:
            delta = t_rtt - (self.t_srtt >> 3)
            self.t_srtt += delta
            if self.t_srtt <= 0:
                self.t_srtt = 1
            if delta < 0:
                delta = -delta
            delta -= self.t_rttvar >> 2
            self.t_rttvar += delta
            if self.t_rttvar <= 0:
                self.t_rttvar = 1
        else:
            self.t_srtt = t_rtt << 3
            self.t_rttvar = t_rtt << 1
        self.rtxcur = (((self.t_rttvar << 3) + self.t_srtt) >> 3) * self.tick
        self.srtt = (self.t_srtt / 8.0) * self.tick
        self.rttvar = (self.t_rttvar / 4.0) * self.tick
        self.has_sample = True
        self._set_rto()

    cdef void end_backoff(self) noexcept:
        self.t_backoff = 1
        self._set_rto()

    cdef void backoff(self) noexcept:
        if self.t_backoff < 64 or self.rto < self.max_rto:
            self.t_backoff <<= 1
        if self.t_backoff > 8:
            self.t_rttvar += self.t_srtt >> 3
            self.t_srtt = 0
        self._set_rto()

    cdef void _set_rto(self) noexcept:
        """rtt_timeout(): (minrto_ where rtxcur is below it) times the backoff, at most maxrto_."""
        self.rto = min((self.min_rto if self.rtxcur < self.min_rto else self.rtxcur) * self.t_backoff,
                       self.max_rto)

    def add_timed_sample(self, double r, double sent):
        self.timed_sample(r, sent)

    def acked_timed(self):
        self.end_backoff()
