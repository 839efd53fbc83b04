from simulator.tcp.cc.base cimport TcpState


cdef class RtoEstimator:
    cdef readonly double srtt, rttvar, rto, min_rto, max_rto, granularity
    cdef readonly bint has_sample
    cdef void sample(self, double r) noexcept
    cdef void sample_seq(self, double r, long long snd_una, long long snd_nxt) noexcept
    cdef void backoff(self) noexcept
    cdef void handshake(self, TcpState s, double rtt) noexcept


cdef class LinuxRtoEstimator(RtoEstimator):
    cdef readonly double mdev, mdev_max, rttvar_linux
    cdef readonly long long rtt_seq


cdef class Ns2Rto(RtoEstimator):
    cdef readonly double tick, rtxcur
    cdef readonly long t_srtt, t_rttvar, t_backoff
    cdef void timed_sample(self, double r, double sent) noexcept
    cdef void end_backoff(self) noexcept
    cdef void _set_rto(self) noexcept
