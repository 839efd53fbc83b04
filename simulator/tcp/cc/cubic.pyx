"""CUBIC (RFC 9438) in packets: slow start, W_max and K, the Reno-friendly region
(W_est with alpha = 3(1-beta)/(1+beta)), fast convergence, multiplicative decrease beta.

Before the first loss (W_max 0, also after a timeout, which forgets W_max as Linux bictcp_state
and ns-3 TcpCubic::CongestionStateSet do on entering CA_LOSS) congestion avoidance grows at least
1 packet per CNT_CLAMP acknowledged, 5% per RTT: Linux bictcp_update and ns-3 TcpCubic::Update cap
`cnt` at 20 while last_max_cwnd is 0, so a flow that left slow start without a loss (HyStart) is not
stuck on the flat start of a cubic curve whose origin is its own window.

hystart=False (default) keeps plain slow start.  hystart=True (ns-3 flavour) or a
`hystart.HyStart` object adds HyStart as Linux and ns-3 enable it: pkts_acked feeds it delay
samples (s.srtt or rs.rtt, by its variant; none during the first 10 ms of a congestion-avoidance
epoch, ns-3's CubicDelta), cong_avoid starts its rounds, and entering the loss state resets it."""
from libc.math cimport cbrt

from simulator.tcp.cc.base cimport AckSample, CA_EVENT_LOSS, CA_LOSS, CongestionControl, TcpState
from simulator.tcp.cc.hystart cimport HyStart


# Linux bictcp_update `ca->cnt = 20` ("increase cwnd 5% per RTT"), ns-3 TcpCubic CntClamp (default 20)
cdef double CNT_CLAMP = 20.0


cdef class Cubic(CongestionControl):
    def __init__(self, double C=0.4, double beta=0.7, bint fast_convergence=True, hystart=False):
        if not 0 < beta < 1 or C <= 0:
            raise ValueError(f"cubic needs C > 0 and 0 < beta < 1, got C={C}, beta={beta}")
        self.name = "cubic"
        self.C = C
        self.beta = beta
        self.alpha = 3.0 * (1.0 - beta) / (1.0 + beta)
        self.fast_convergence = fast_convergence
        if hystart is True:
            hystart = HyStart()
        elif hystart is False:
            hystart = None
        if hystart is not None and not isinstance(hystart, HyStart):
            raise ValueError(f"cubic hystart must be True, False or a HyStart object, got {hystart!r}")
        self.hystart = hystart
        self.epoch_delta = 0.01

    cpdef void init(self, TcpState s):
        self.w_max = 0.0
        self.k = 0.0
        self.epoch_start = -1.0
        if self.hystart is not None:
            self.hystart.init(s)

    cpdef void pkts_acked(self, TcpState s, AckSample sample):
        if self.hystart is None:
            return
        if self.epoch_start >= 0 and s.now - self.epoch_start < self.epoch_delta:
            return
        self.hystart.on_ack(s, s.srtt if self.hystart.use_srtt else sample.rtt)

    cpdef void set_state(self, TcpState s, int new_state):
        if new_state != CA_LOSS:
            return
        # a timeout forgets W_max and the epoch (Linux bictcp_reset, ns-3 CubicReset); the sender has
        # already taken ssthresh, which set them from the window at the timeout
        self.w_max = 0.0
        self.k = 0.0
        self.epoch_start = -1.0
        if self.hystart is not None:
            self.hystart.reset(s)

    cpdef void cong_avoid(self, TcpState s, long acked):
        cdef double t, rtt, target, w_cubic, floor
        if s.cwnd < s.ssthresh:
            if self.hystart is not None:
                self.hystart.on_cong_avoid(s)
            # slow start up to ssthresh; what is left of the ACK goes to congestion avoidance
            if s.cwnd + acked <= s.ssthresh:
                s.cwnd += acked
                return
            acked -= <long>(s.ssthresh - s.cwnd)
            s.cwnd = s.ssthresh
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
        floor = acked / CNT_CLAMP if self.w_max == 0.0 else 0.0   # no loss yet: at least 5% per RTT
        if w_cubic < self.w_est:
            s.cwnd = max(self.w_est, s.cwnd + floor)      # Reno-friendly region
        else:
            s.cwnd += max((target - s.cwnd) / s.cwnd * acked, floor)

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
