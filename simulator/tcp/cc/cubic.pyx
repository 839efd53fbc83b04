"""CUBIC (RFC 9438) in packets: slow start, W_max and K, the Reno-friendly region
(W_est with alpha = 3(1-beta)/(1+beta)), fast convergence, multiplicative decrease beta."""
from libc.math cimport cbrt

from simulator.tcp.cc.base cimport CA_EVENT_LOSS, CongestionControl, TcpState


cdef class Cubic(CongestionControl):
    def __init__(self, double C=0.4, double beta=0.7, bint fast_convergence=True):
        if not 0 < beta < 1 or C <= 0:
            raise ValueError(f"cubic needs C > 0 and 0 < beta < 1, got C={C}, beta={beta}")
        self.name = "cubic"
        self.C = C
        self.beta = beta
        self.alpha = 3.0 * (1.0 - beta) / (1.0 + beta)
        self.fast_convergence = fast_convergence

    cpdef void init(self, TcpState s):
        self.w_max = 0.0
        self.k = 0.0
        self.epoch_start = -1.0

    cpdef void cong_avoid(self, TcpState s, long acked):
        cdef double t, rtt, target, w_cubic
        if s.cwnd < s.ssthresh:
            s.cwnd += acked                     # slow start
            return
        if self.epoch_start < 0:                # first ACK of a congestion-avoidance epoch
            self.epoch_start = s.now
            self.w_est = s.cwnd
            if s.cwnd < self.w_max:
                self.k = cbrt((self.w_max - s.cwnd) / self.C)
                self.origin = self.w_max
            else:
                self.k = 0.0
                self.origin = s.cwnd
        t = s.now - self.epoch_start
        rtt = s.min_rtt if s.min_rtt > 0 else 0.0
        target = self.origin + self.C * (t + rtt - self.k) ** 3
        if target < s.cwnd:
            target = s.cwnd
        elif target > 1.5 * s.cwnd:
            target = 1.5 * s.cwnd
        self.w_est += self.alpha * acked / s.cwnd
        w_cubic = self.origin + self.C * (t - self.k) ** 3
        if w_cubic < self.w_est:
            s.cwnd = self.w_est                 # Reno-friendly region
        else:
            s.cwnd += (target - s.cwnd) / s.cwnd * acked

    cpdef double ssthresh(self, TcpState s):
        self.epoch_start = -1.0
        if self.fast_convergence and s.cwnd < self.w_max:
            self.w_max = s.cwnd * (1.0 + self.beta) / 2.0
        else:
            self.w_max = s.cwnd
        return max(s.cwnd * self.beta, 2.0)

    cpdef void cwnd_event(self, TcpState s, int event):
        if event == CA_EVENT_LOSS:
            self.epoch_start = -1.0
