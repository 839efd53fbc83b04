"""Retransmission timeout per RFC 6298: SRTT/RTTVAR with gains 1/8 and 1/4, RTO = SRTT +
max(G, 4 RTTVAR), clamped to [min_rto, max_rto]; the timer value doubles on each expiry.

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
