"""The boundary between a researcher's Python algorithm (simulator/tcp/cc/user.py) and the compiled senders.

catalogue.build wraps each user algorithm's controller in a GuardedControl; built-in algorithms are
never wrapped, so they pay nothing. The guard forwards every hook to the user's instance and then
checks what crosses into the sender:

* the fields a hook may set (what the built-in algorithms set): cwnd finite with 0 < cwnd <= 1e9
  packets; ssthresh > 0 (+inf allowed: the SACK sender starts without a threshold); pacing_rate
  finite and >= 0 (0: no pacing); and the value ssthresh() returns, finite with 0 < x <= 1e9;
* the fields the sender owns (sequence numbers, flight, counters, RTT estimates, state, time) and the
  ACK sample given to pkts_acked and cong_control are unchanged by the hook.

The sender reads the guard's owns_cwnd, taken from the user's instance when it is wrapped and again
after init (fixed from then on, as a built-in's is). A bad value stops the run with a HookValueError naming file:Class.hook, the field, the value and the
simulated time. NaN fails every range test above (`not (x > 0)` is true for NaN), which a check
like `x < 0` would miss.
"""
from libc.math cimport INFINITY

from simulator.tcp.cc.base cimport AckSample, CongestionControl, TcpState

from simulator.tcp.cc.user import UserAlgorithmError

MAX_WINDOW = 1e9          # packets: beyond any window these models run (Linux's snd_cwnd is 32 bits)
cdef double MAX_W = MAX_WINDOW
SETTABLE = "a hook may set only cwnd, ssthresh and pacing_rate"


class HookValueError(UserAlgorithmError):
    """A user's hook left a value the sender cannot use (NaN, out of range, or a field the sender owns)."""


cdef struct Owned:        # the TcpState fields the sender owns
    double now, srtt, min_rtt, last_rtt, mss
    long in_flight, dupacks
    long long snd_una, snd_nxt, snd_max, recover, delivered, lost
    int ca_state
    bint app_limited


cdef struct Sample:       # the AckSample the sender hands to pkts_acked and cong_control, read after them
    long acked, in_flight, delivered, losses, prior_in_flight
    long long prior_delivered
    double rtt, now, interval, delivery_rate
    bint is_app_limited


cdef inline bint same(double a, double b):
    return a == b or (a != a and b != b)      # NaN equals NaN here: unchanged is unchanged


cdef Owned owned(TcpState s):
    cdef Owned o
    o.now, o.srtt, o.min_rtt, o.last_rtt, o.mss = s.now, s.srtt, s.min_rtt, s.last_rtt, s.mss
    o.in_flight, o.dupacks = s.in_flight, s.dupacks
    o.snd_una, o.snd_nxt, o.snd_max, o.recover = s.snd_una, s.snd_nxt, s.snd_max, s.recover
    o.delivered, o.lost, o.ca_state, o.app_limited = s.delivered, s.lost, s.ca_state, s.app_limited
    return o


cdef bint owned_same(Owned a, Owned b):
    return (same(a.now, b.now) and same(a.srtt, b.srtt) and same(a.min_rtt, b.min_rtt)
            and same(a.last_rtt, b.last_rtt) and same(a.mss, b.mss) and a.in_flight == b.in_flight
            and a.dupacks == b.dupacks and a.snd_una == b.snd_una and a.snd_nxt == b.snd_nxt
            and a.snd_max == b.snd_max and a.recover == b.recover and a.delivered == b.delivered
            and a.lost == b.lost and a.ca_state == b.ca_state and a.app_limited == b.app_limited)


cdef Sample sampled(AckSample r):
    cdef Sample x
    x.acked, x.in_flight, x.delivered, x.losses = r.acked, r.in_flight, r.delivered, r.losses
    x.prior_in_flight, x.prior_delivered = r.prior_in_flight, r.prior_delivered
    x.rtt, x.now, x.interval, x.delivery_rate = r.rtt, r.now, r.interval, r.delivery_rate
    x.is_app_limited = r.is_app_limited
    return x


cdef bint sample_same(Sample a, Sample b):
    return (a.acked == b.acked and a.in_flight == b.in_flight and a.delivered == b.delivered
            and a.losses == b.losses and a.prior_in_flight == b.prior_in_flight
            and a.prior_delivered == b.prior_delivered and same(a.rtt, b.rtt) and same(a.now, b.now)
            and same(a.interval, b.interval) and same(a.delivery_rate, b.delivery_rate)
            and a.is_app_limited == b.is_app_limited)


def _first_change(before: dict, after: dict, prefix: str) -> str:
    """'snd_una from 10 to 12': the first field that differs (error path only)."""
    name = next(k for k in before if not (before[k] == after[k] or (before[k] != before[k] and after[k] != after[k])))
    return f"{prefix}{name} from {before[name]!r} to {after[name]!r}"


cdef class GuardedControl(CongestionControl):
    """A user's controller as the sender sees it: the hooks forwarded, their results checked."""
    cdef readonly CongestionControl inner
    cdef readonly str where              # 'path/to/file.py:ClassName'
    cdef Owned before
    cdef Sample sample_before

    def __init__(self, CongestionControl inner, str where):
        self.inner = inner
        self.where = where
        self.name = inner.name
        self.owns_cwnd = bool(inner.owns_cwnd)   # the Python attribute: a class attribute counts too

    def __getattr__(self, name):
        return getattr(self.inner, name)         # stack, RECOVERY, the user's own attributes

    cpdef void init(self, TcpState s):
        self.before = owned(s)
        self.inner.init(s)
        self.owns_cwnd = bool(self.inner.owns_cwnd)   # init may set it (once per flow)
        self.check(s, "init")

    cpdef void pkts_acked(self, TcpState s, AckSample sample):
        self.before = owned(s)
        self.sample_before = sampled(sample)
        self.inner.pkts_acked(s, sample)
        self.check(s, "pkts_acked")
        self.check_sample(s, sample, "pkts_acked")

    cpdef void set_state(self, TcpState s, int new_state):
        self.before = owned(s)
        self.inner.set_state(s, new_state)
        self.check(s, "set_state")

    cpdef double ssthresh(self, TcpState s):
        self.before = owned(s)
        cdef double x = self.inner.ssthresh(s)
        self.check(s, "ssthresh")
        if not (0 < x <= MAX_W):
            self.fail("ssthresh", f"returned {x!r}", "a finite threshold, 0 < ssthresh <= 1e9 packets")
        return x

    cpdef void cong_avoid(self, TcpState s, long acked):
        self.before = owned(s)
        self.inner.cong_avoid(s, acked)
        self.check(s, "cong_avoid")

    cpdef void cwnd_event(self, TcpState s, int event):
        self.before = owned(s)
        self.inner.cwnd_event(s, event)
        self.check(s, "cwnd_event")

    cpdef void cong_control(self, TcpState s, AckSample rs):
        self.before = owned(s)
        self.sample_before = sampled(rs)
        self.inner.cong_control(s, rs)
        self.check(s, "cong_control")
        self.check_sample(s, rs, "cong_control")

    cdef int check(self, TcpState s, str hook) except -1:
        """The window fields in range and the sender's own fields as they were before `hook`."""
        if not owned_same(self.before, owned(s)):
            self.fail(hook, "changed " + _first_change(self.before, owned(s), "s."),
                      f"only the sender changes that field; {SETTABLE}")
        if not (0 < s.cwnd <= MAX_W):
            self.fail(hook, f"set cwnd to {s.cwnd!r}", "finite, 0 < cwnd <= 1e9 packets")
        if not (s.ssthresh > 0):
            self.fail(hook, f"set ssthresh to {s.ssthresh!r}", "ssthresh > 0 packets (inf: no threshold)")
        if not (0 <= s.pacing_rate < INFINITY):
            self.fail(hook, f"set pacing_rate to {s.pacing_rate!r}", "finite, pacing_rate >= 0 packets/s (0: no pacing)")
        return 0

    cdef int check_sample(self, TcpState s, AckSample sample, str hook) except -1:
        if not sample_same(self.sample_before, sampled(sample)):
            self.fail(hook, "changed " + _first_change(self.sample_before, sampled(sample), "sample."),
                      f"the ACK sample is the sender's, read after the hook; {SETTABLE}")
        return 0

    cdef int fail(self, str hook, str what, str allowed) except -1:
        raise HookValueError(f"{self.where}.{hook} {what} at simulated time {self.before.now:.6f} s; "
                             f"allowed: {allowed}; the run stopped and wrote no result")
