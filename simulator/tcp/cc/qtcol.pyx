"""QtCol and QtColFair (Ngwenya, Hlophe, Maharaj, Electronics 2025) as the authors' ns-3.41
code runs them (book/published_code.md; files tcp-qt-col.cc and
tcp-qt-col-fair.cc of github.com/dumisa/TowardsOptimalTcp), not as the prose describes them.

Units: packets and seconds.  Rules, each with the reference line it implements ("ref: ..."):

* Both extend NewReno (`RenoGrowth`) and change only pkts_acked and cong_avoid (ns-3's PktsAcked
  and IncreaseWindow).  Loss response is NewReno's: ssthresh = max(in_flight/2, 2) (inherited),
  the sender's SACK/PRR recovery, cwnd = ssthresh on leaving recovery, 1 on RTO.
  ref: "Both extend NewReno and change only the per-ACK hooks. Loss response is ns-3's default".
* R = s.srtt (smoothed, gain 1/8: ns-3's m_lastRtt is the estimator's smoothed value, and it is
  what ns-3 passes to PktsAcked); Rmin = min over ACKs of s.srtt; L = s.in_flight after the ACK
  (integer packets); W = floor(cwnd) (GetCwndInSegments).
  ref: "R is the smoothed RTT ... Rmin is the minimum of smoothed RTTs. L is bytes in flight / MSS
  (integer) after the ACK is processed; W is cwnd in segments."
* pkts_acked: if srtt > 0: Rmin = min(Rmin, srtt), Rtarget = alpha*Rmin, cnt_rtt += 1
  (every ACK counts, as ns-3 passes m_lastRtt to PktsAcked on every ACK).
* cong_avoid (called by the sender in the open state only), once-per-RTT update:
  if snd_una >= beg_snd_nxt: when cnt_rtt > 2 (at least 3 ACKs since the last update):
  beg_snd_nxt = snd_nxt; if R > 1.01 Rmin: ssthresh = max(min(ssthresh, 0.9 cwnd), 2);
  cwnd = compute_cwnd(); cnt_rtt = 0.  With cnt_rtt <= 2 nothing happens (the NewReno
  fallback is commented out in the authors' code).
  ref: "cwnd is recomputed once per RTT (when the ACKed sequence passes the value of snd_nxt
  saved at the last update, and at least 3 ACKs have arrived since). If R > 1.01 Rmin, ssthresh
  is capped at 0.9 cwnd (not below 2 MSS)."
* else, if cwnd < ssthresh and srtt < Rtarget: cwnd += 1 (ns-3 TcpNewReno::SlowStart adds one
  MSS per ACK whatever the ACK covers) and beg_snd_nxt = snd_nxt (the authors' code also moves
  the saved right edge here, which postpones the next update while slow start goes on).
  ref: "Between updates, while cwnd < ssthresh and srtt < target, slow start adds 1 MSS per ACK."
* compute_cwnd, Rt = alpha*Rmin:
  QtCol:     c = ceil(W*R/Rt); Lpred = L + W - c if L + W > c else 4
  QtColFair: x = W*R/Rt;       Lpred = trunc(L + W - x) if L + W > x else 4
  (QtColFair only) after a probe, once: Lpred = trunc(0.9 * in-flight saved at probe start)
  Lpred = max(Lpred, 4); if Lpred == L: Lpred = L + 1
  Wnew = W + ceil(Rmin*(Lpred - L)/R); Wnew = max(Wnew, 4); if Wnew == W: Wnew = W + 1
  ref: "Update: Rt = alpha*Rmin; Lpred = L + W - W*R/Rt if that is positive, else 4; Lpred =
  max(Lpred, 4); if Lpred == L then Lpred = L + 1; Wnew = W + ceil(Rmin*(Lpred - L)/R); Wnew =
  max(Wnew, 4); if Wnew == W then Wnew = W + 1. QtCol rounds W*R/Rt up; QtColFair truncates
  Lpred."  The C++ stores W + ceil(...) in a uint32 before max(int(Wnew), 4); a negative value
  is undefined behaviour there (on x86 it wraps and the int cast gives it back), so we clamp
  the signed value to 4.
* QtCol: Rmin never expires.  ref: "QtCol: Rmin never expires."
* QtColFair, at the top of every cong_avoid (IncreaseWindow):
  expired = now > rmin_stamp + 10 s (rmin_stamp starts at 0, and is set to now only when a probe
  starts, so probes fall on a common schedule from t = 0 for all flows);
  if expired and not probing: probe: prior_in_flight = in_flight, cwnd = 4,
  probe_duration = Rmin, Rmin = inf, rmin_stamp = now.
  Then UpdateRttProp: if srtt >= 0 and (srtt < Rmin or expired or Rmin is 0/inf): Rmin = srtt.
  The probe ends when now - probe_stamp >= probe_duration AND in_flight <= 4; the next update
  (normally on the same ACK) uses Lpred = 0.9 * prior_in_flight.  While probing no update and no
  slow start runs (cwnd stays 4 unless the sender changes it).
  ref: "QtColFair: Rmin expires every 10 s on an absolute schedule from t=0 (so all flows probe
  together). Probe: save in-flight, cwnd = 4 packets, Rmin reset; the probe ends after about one
  previous Rmin AND in-flight <= 4 packets (not the 200 ms the prose says). The first update
  after a probe uses Lpred = 0.9 * saved in-flight. The min-RTT-change detection of Algorithm 2
  is never called."  (So it is not implemented.)
"""
from libc.math cimport ceil, INFINITY

from simulator.tcp.cc.aimd cimport RenoGrowth
from simulator.tcp.cc.base cimport AckSample, TcpState
from simulator.tcp.cc.options import with_defaults

DEFAULTS = {"alpha": 1.2, "fair": False, "rmin_window": 10.0}
MIN_CWND = 4        # m_minCwndAllowed / the literal 4 of the authors' code


def check_params(double alpha, double rmin_window=10.0):
    """The one place parameters are range-checked."""
    if not (alpha > 1.0 and alpha < INFINITY):
        raise ValueError(f"qtcol alpha must be > 1 (the paper uses 1.1-1.5), got {alpha}")
    if not (rmin_window > 0.0 and rmin_window < INFINITY):
        raise ValueError(f"qtcolfair rmin_window must be > 0 seconds, got {rmin_window}")


cdef class QtCol(RenoGrowth):
    """Basic implementation (Algorithm 1 as the code runs it)."""

    def __init__(self, double alpha=DEFAULTS["alpha"], name="qtcol"):
        check_params(alpha)
        self.name = name
        self.alpha = alpha
        self.truncate_lpred = False
        self._reset()

    def _reset(self):
        self.rmin = INFINITY
        self.target = 0.0
        self.cnt_rtt = 0
        self.beg_snd_nxt = 0
        self.last_lpred = -1
        self.last_wnew = -1
        self.updates = 0

    cpdef void init(self, TcpState s):
        self._reset()

    cpdef void pkts_acked(self, TcpState s, AckSample sample):
        if s.srtt <= 0:
            return                      # ns-3: rtt.IsZero() -> return
        if s.srtt < self.rmin:
            self.rmin = s.srtt
        self.target = self.alpha * self.rmin
        self.cnt_rtt += 1

    cpdef void cong_avoid(self, TcpState s, long acked):
        self._update_or_slow_start(s, acked)

    cdef void _update_or_slow_start(self, TcpState s, long acked):
        if s.snd_una >= self.beg_snd_nxt:
            if self.cnt_rtt <= 2 or self.rmin == INFINITY or s.srtt <= 0:
                return                  # not enough RTT samples: the code does nothing
            self.beg_snd_nxt = s.snd_nxt
            if s.srtt > 1.01 * self.rmin:
                s.ssthresh = max(min(s.ssthresh, 0.9 * s.cwnd), 2.0)
            s.cwnd = <double>self.compute_cwnd(s)
            self.cnt_rtt = 0
            self.updates += 1
        elif s.cwnd < s.ssthresh and s.srtt < self.target:
            if acked >= 1:
                s.cwnd += 1.0           # TcpNewReno::SlowStart: one MSS per ACK
            self.beg_snd_nxt = s.snd_nxt

    cdef long _lpred_override(self):
        return -1

    cpdef long compute_cwnd(self, TcpState s):
        """Wnew from W, L, R, Rmin and alpha (does not assign it)."""
        cdef double rmin = self.rmin, r = s.srtt
        cdef double rt = self.alpha * rmin
        cdef long L = s.in_flight
        cdef long W = <long>s.cwnd
        cdef long lpred, wnew, override
        cdef double x
        if self.truncate_lpred:
            x = W * r / rt
            lpred = <long>(L + W - x) if L + W > x else MIN_CWND
        else:
            x = ceil(W * r / rt)
            lpred = <long>(L + W - x) if L + W > x else MIN_CWND
        override = self._lpred_override()
        if override >= 0:
            lpred = override
        if lpred < MIN_CWND:
            lpred = MIN_CWND
        if lpred == L:
            lpred = L + 1
        wnew = W + <long>ceil(rmin * (<double>lpred - <double>L) / r)
        if wnew < MIN_CWND:
            wnew = MIN_CWND
        if wnew == W:
            wnew = W + 1
        self.last_lpred = lpred
        self.last_wnew = wnew
        return wnew


cdef class QtColFair(QtCol):
    """Practical implementation (Algorithm 2 as the code runs it): periodic Rmin probe."""

    def __init__(self, double alpha=DEFAULTS["alpha"], double rmin_window=DEFAULTS["rmin_window"],
                 name="qtcolfair"):
        check_params(alpha, rmin_window)
        self.name = name
        self.alpha = alpha
        self.rmin_window = rmin_window
        self.truncate_lpred = True
        self._reset()

    def _reset(self):
        QtCol._reset(self)
        self.rmin_stamp = 0.0
        self.probe_stamp = 0.0
        self.probe_duration = 0.2      # header default; always overwritten at probe start
        self.prior_in_flight = 0       # always overwritten at probe start
        self.probing = False
        self.use_prior_in_flight = False
        self.rmin_expired = False
        self.probes = 0

    cpdef void cong_avoid(self, TcpState s, long acked):
        cdef double now = s.now
        self.rmin_expired = now > self.rmin_stamp + self.rmin_window
        if self.rmin_expired and not self.probing:
            self.probing = True
            self.probe_stamp = now
            self.prior_in_flight = s.in_flight
            s.cwnd = <double>MIN_CWND
            self.probe_duration = self.rmin
            self.rmin = INFINITY
            self.rmin_stamp = now
            self.probes += 1
        # UpdateRttProp
        if s.srtt >= 0 and (s.srtt < self.rmin or self.rmin_expired or self.rmin == 0.0
                            or self.rmin == INFINITY):
            self.rmin = s.srtt
            self.target = self.alpha * self.rmin
        if (self.probing and now - self.probe_stamp >= self.probe_duration
                and s.in_flight <= MIN_CWND):
            self.probing = False
            self.use_prior_in_flight = True
        if not self.probing:
            self._update_or_slow_start(s, acked)

    cdef long _lpred_override(self):
        if self.use_prior_in_flight:
            self.use_prior_in_flight = False
            return <long>(0.9 * self.prior_in_flight)
        return -1


def make(**params):
    """QtCol (fair=False) or QtColFair (fair=True); defaults in DEFAULTS."""
    p = with_defaults("qtcol", DEFAULTS, params)
    check_params(float(p["alpha"]), float(p["rmin_window"]))
    if p["fair"]:
        return QtColFair(float(p["alpha"]), float(p["rmin_window"]))
    return QtCol(float(p["alpha"]))
