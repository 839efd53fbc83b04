"""HyStart (Ha & Rhee 2011), the slow-start exit that CUBIC in Linux and ns-3 enables by default.

A small helper object: `Cubic(hystart=True)` feeds it delay samples from pkts_acked and calls it
from cong_avoid.  Units: packets and seconds.  As ns-3's TcpCubic (HystartReset, HystartUpdate,
HystartDelayThresh, PktsAcked, CongestionStateSet):

* Rounds: in slow start, when snd_una > end_seq a new round starts: round_start = last_ack = now,
  end_seq = snd_max, curr_rtt = unset, sample_cnt = 0 (on_cong_avoid).
* Per ACK (on_ack, from pkts_acked): delay_min = min(delay_min, delay); then only while
  low_window (16) <= cwnd <= ssthresh and nothing was found yet:
  - ACK train: if now - last_ack <= ack_delta (2 ms): last_ack = now, and if
    now - round_start > delay_min / train_div the train is long enough: found.
  - Delay increase: the first min_samples (8) ACKs of a round give curr_rtt = their minimum;
    afterwards, if curr_rtt > delay_min + delay_thresh(): found.
  - found: ssthresh = cwnd, which ends slow start at once.
* delay_thresh = clamp(delay_min / thresh_div, thresh_min, thresh_max).
* On entering the loss state the detector is reset (delay_min unset, found cleared, new round).

variant="ns3" (default): ns-3's values: thresh_div 1, thresh in [4 ms, 1 s], train_div 1 and the
delay is s.srtt (ns-3 passes tcb->m_lastRtt, the smoothed estimate).  variant="linux": Linux
tcp_cubic: thresh = clamp(delay_min/8, 4 ms, 16 ms), ACK train past delay_min/2 (unpaced
sender), and the raw sample rs.rtt.  The ns-3 CUBIC also discards samples during the first
10 ms of a congestion-avoidance epoch (CubicDelta); Cubic does that when HyStart is on.
"""
from libc.math cimport INFINITY

from simulator.tcp.cc.base cimport TcpState
from simulator.tcp.cc.options import with_defaults

VARIANTS = {
    "ns3": {"thresh_div": 1.0, "thresh_min": 0.004, "thresh_max": 1.0, "train_div": 1.0,
            "use_srtt": True},
    "linux": {"thresh_div": 8.0, "thresh_min": 0.004, "thresh_max": 0.016, "train_div": 2.0,
              "use_srtt": False},
}
DEFAULTS = {"variant": "ns3", "low_window": 16, "ack_delta": 0.002, "min_samples": 8,
            "detect": "both"}
DETECT = {"train": HYSTART_ACK_TRAIN, "delay": HYSTART_DELAY,
          "both": HYSTART_ACK_TRAIN | HYSTART_DELAY}


def check_params(str variant, double low_window, double ack_delta, long min_samples, str detect):
    """The one place parameters are range-checked."""
    if variant not in VARIANTS:
        raise ValueError(f"hystart variant {variant!r} unknown; allowed: {', '.join(VARIANTS)}")
    if not 2 <= low_window <= 1e6:
        raise ValueError(f"hystart low_window must be in [2, 1e6] packets (default 16), got {low_window}")
    if not 0 < ack_delta <= 1.0:
        raise ValueError(f"hystart ack_delta must be in (0, 1] s (default 0.002), got {ack_delta}")
    if not 1 <= min_samples <= 1000:
        raise ValueError(f"hystart min_samples must be 1..1000 (default 8), got {min_samples}")
    if detect not in DETECT:
        raise ValueError(f"hystart detect {detect!r} unknown; allowed: {', '.join(DETECT)}")


cdef class HyStart:
    def __init__(self, str variant="ns3", double low_window=16, double ack_delta=0.002,
                 long min_samples=8, str detect="both"):
        check_params(variant, low_window, ack_delta, min_samples, detect)
        v = VARIANTS[variant]
        self.low_window = low_window
        self.ack_delta = ack_delta
        self.min_samples = min_samples
        self.detect = DETECT[detect]
        self.thresh_div = v["thresh_div"]
        self.thresh_min = v["thresh_min"]
        self.thresh_max = v["thresh_max"]
        self.train_div = v["train_div"]
        self.use_srtt = v["use_srtt"]
        self.delay_min = INFINITY
        self.round_start = -INFINITY
        self.last_ack = -INFINITY
        self.curr_rtt = INFINITY

    cpdef void init(self, TcpState s):
        self.delay_min = INFINITY
        self.found = 0
        self.exits = 0
        self.end_seq = 0
        self.round_start = -INFINITY      # ns-3: Time::Min() until the first round starts
        self.last_ack = -INFINITY
        self.curr_rtt = INFINITY
        self.sample_cnt = 0

    cpdef void reset(self, TcpState s):
        """Loss: CubicReset's HyStart part, then HystartReset."""
        self.delay_min = INFINITY
        self.found = 0
        self.reset_round(s)

    cpdef void reset_round(self, TcpState s):
        self.round_start = s.now
        self.last_ack = s.now
        self.end_seq = s.snd_max
        self.curr_rtt = INFINITY
        self.sample_cnt = 0

    cpdef void on_cong_avoid(self, TcpState s):
        if s.cwnd < s.ssthresh and s.snd_una > self.end_seq:
            self.reset_round(s)

    cpdef double delay_thresh(self):
        cdef double t = self.delay_min / self.thresh_div
        if t > self.thresh_max:
            return self.thresh_max
        if t < self.thresh_min:
            return self.thresh_min
        return t

    cpdef void on_ack(self, TcpState s, double delay):
        cdef double now = s.now
        if delay <= 0:
            return
        if delay < self.delay_min:
            self.delay_min = delay
        if not (s.cwnd <= s.ssthresh and s.cwnd >= self.low_window):
            return
        if self.found & self.detect:
            return
        if now - self.last_ack <= self.ack_delta:
            self.last_ack = now
            if now - self.round_start > self.delay_min / self.train_div:
                self.found |= HYSTART_ACK_TRAIN
        if self.sample_cnt < self.min_samples:
            if delay < self.curr_rtt:
                self.curr_rtt = delay
            self.sample_cnt += 1
        elif self.curr_rtt > self.delay_min + self.delay_thresh():
            self.found |= HYSTART_DELAY
        if self.found & self.detect:
            s.ssthresh = s.cwnd
            self.exits += 1


def make(**params):
    """A HyStart helper with the defaults in DEFAULTS (pass it as Cubic(hystart=...))."""
    p = with_defaults("hystart", DEFAULTS, params)
    return HyStart(str(p["variant"]), float(p["low_window"]), float(p["ack_delta"]),
                   int(p["min_samples"]), str(p["detect"]))
