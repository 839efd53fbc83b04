"""TCP Vegas (Brakmo & Peterson 1995) as ns-3's TcpVegas runs it (TcpVegas::IncreaseWindow).

Units: packets and seconds.  Extends NewReno growth (`RenoGrowth`), which is the fallback.

* pkts_acked: rtt = s.srtt (use_srtt=True, default: ns-3 passes tcb->m_lastRtt, the smoothed
  estimate) or rs.rtt (use_srtt=False, the raw sample as Linux); if rtt > 0: min_rtt (this round)
  and base_rtt (ever) take the minimum, cnt_rtt += 1.
* set_state(OPEN) enables Vegas (beg_snd_nxt = snd_nxt, cnt_rtt = 0, min_rtt = inf); any other
  state disables it, and cong_avoid is then plain NewReno growth.  Vegas starts enabled.
* cong_avoid, once per RTT when snd_una >= beg_snd_nxt: beg_snd_nxt = snd_nxt; with cnt_rtt <= 2
  (too few samples to trust one was not delayed) NewReno growth; otherwise with W = floor(cwnd),
  target = floor(W * base_rtt / min_rtt), diff = W - target (packets queued, ns-3 integers):
    diff > gamma and cwnd < ssthresh: leave slow start: cwnd = min(W, target + 1),
                                     ssthresh = max(min(ssthresh, cwnd - 1), 2)
    cwnd < ssthresh:                  slow start, +1 packet (ns-3 SlowStart: one MSS per ACK)
    diff > beta:                      cwnd = W - 1, ssthresh = max(min(ssthresh, cwnd - 1), 2)
    diff < alpha:                     cwnd = W + 1
    else:                             unchanged
  then ssthresh = max(ssthresh, 3/4 cwnd); in every case cnt_rtt = 0 and min_rtt = inf.
  Between round ends: slow start +1 per ACK while cwnd < ssthresh, nothing in CA.
* ssthresh on loss: ns3_ssthresh=True (default) uses ns-3's TcpVegas::GetSsThresh,
  max(min(ssthresh, cwnd - 1), 2), which ns-3 also calls on entering recovery;
  ns3_ssthresh=False uses NewReno's max(in_flight/2, 2) as Linux tcp_vegas does.
"""
from libc.math cimport INFINITY

from simulator.tcp.cc.aimd cimport RenoGrowth
from simulator.tcp.cc.base cimport AckSample, CA_OPEN, TcpState
from simulator.tcp.cc.options import with_defaults

DEFAULTS = {"alpha": 2, "beta": 4, "gamma": 1, "use_srtt": True, "ns3_ssthresh": True}


def check_params(long alpha, long beta, long gamma):
    """The one place parameters are range-checked (packets)."""
    if not (0 <= alpha <= beta <= 1000):
        raise ValueError(f"vegas needs integers 0 <= alpha <= beta <= 1000 packets "
                         f"(defaults 2, 4), got alpha={alpha}, beta={beta}")
    if not 0 <= gamma <= 1000:
        raise ValueError(f"vegas gamma must be an integer in 0..1000 packets (default 1), got {gamma}")


cdef class Vegas(RenoGrowth):
    def __init__(self, long alpha=2, long beta=4, long gamma=1, bint use_srtt=True,
                 bint ns3_ssthresh=True):
        check_params(alpha, beta, gamma)
        self.name = "vegas"
        self.alpha = alpha
        self.beta = beta
        self.gamma = gamma
        self.use_srtt = use_srtt
        self.ns3_ssthresh = ns3_ssthresh
        self.base_rtt = INFINITY
        self.min_rtt = INFINITY
        self.doing_vegas = True
        self.last_diff = -1

    cpdef void init(self, TcpState s):
        self.base_rtt = INFINITY
        self.min_rtt = INFINITY
        self.cnt_rtt = 0
        self.beg_snd_nxt = 0
        self.doing_vegas = True
        self.last_diff = -1

    cpdef void pkts_acked(self, TcpState s, AckSample sample):
        cdef double rtt = s.srtt if self.use_srtt else sample.rtt
        if rtt <= 0:
            return
        if rtt < self.min_rtt:
            self.min_rtt = rtt
        if rtt < self.base_rtt:
            self.base_rtt = rtt
        self.cnt_rtt += 1

    cdef void _enable(self, TcpState s):
        self.doing_vegas = True
        self.beg_snd_nxt = s.snd_nxt
        self.cnt_rtt = 0
        self.min_rtt = INFINITY

    cpdef void set_state(self, TcpState s, int new_state):
        if new_state == CA_OPEN:
            self._enable(s)
        else:
            self.doing_vegas = False

    cdef double _vegas_ssthresh(self, TcpState s):
        return max(min(s.ssthresh, s.cwnd - 1.0), 2.0)

    cpdef double ssthresh(self, TcpState s):
        if self.ns3_ssthresh:
            return self._vegas_ssthresh(s)
        return RenoGrowth.ssthresh(self, s)

    cpdef void cong_avoid(self, TcpState s, long acked):
        cdef long seg, target, diff
        if not self.doing_vegas:
            RenoGrowth.cong_avoid(self, s, acked)
            return
        if s.snd_una >= self.beg_snd_nxt:
            self.beg_snd_nxt = s.snd_nxt
            if self.cnt_rtt <= 2:
                RenoGrowth.cong_avoid(self, s, acked)
            else:
                seg = <long>s.cwnd
                target = <long>(seg * (self.base_rtt / self.min_rtt))
                diff = seg - target
                self.last_diff = diff
                if diff > self.gamma and s.cwnd < s.ssthresh:
                    seg = min(seg, target + 1)
                    s.cwnd = <double>seg
                    s.ssthresh = self._vegas_ssthresh(s)
                elif s.cwnd < s.ssthresh:
                    if acked >= 1:
                        s.cwnd += 1.0
                elif diff > self.beta:
                    s.cwnd = <double>(seg - 1)
                    s.ssthresh = self._vegas_ssthresh(s)
                elif diff < self.alpha:
                    s.cwnd = <double>(seg + 1)
                s.ssthresh = max(s.ssthresh, 0.75 * s.cwnd)
            self.cnt_rtt = 0
            self.min_rtt = INFINITY
        elif s.cwnd < s.ssthresh:
            if acked >= 1:
                s.cwnd += 1.0


def make(**params):
    """Vegas with the defaults in DEFAULTS."""
    p = with_defaults("vegas", DEFAULTS, params)
    for k in ("alpha", "beta", "gamma"):
        if int(p[k]) != p[k]:
            raise ValueError(f"vegas {k} must be a whole number of packets, got {p[k]}")
    return Vegas(int(p["alpha"]), int(p["beta"]), int(p["gamma"]), bool(p["use_srtt"]),
                 bool(p["ns3_ssthresh"]))
