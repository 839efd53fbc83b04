"""Link impairments: random loss, delay jitter and time-varying capacity.

All randomness comes from a `Stream` given at construction (one named stream per impairment and
link, so adding or removing one never shifts another's draws).  Each component is called once
per packet in the order the link sends them; the same stream seed gives the same decisions.

Loss
    `BernoulliLoss(p, stream)`: each packet is lost with probability p, independently.
    `GilbertElliottLoss(p_gb, p_bg, loss_good, loss_bad, stream)`: a two-state Markov chain
    (Good, Bad) stepped once per packet.  A packet is lost with the loss probability of the state
    it finds, then the chain moves (Good->Bad with p_gb, Bad->Good with p_bg) for the next packet,
    as Linux netem's "loss gemodel" does; the chain starts in Good.  Stationary loss rate
    (p_gb * loss_bad + p_bg * loss_good) / (p_gb + p_bg); a stay in Bad lasts a geometric number
    of packets with mean 1 / p_bg (with loss_bad = 1, loss_good = 0 that is the loss burst length).

Jitter
    `Jitter(mean, spread, distribution, reorder, stream)`: extra one-way delay (s) added to the
    link's propagation delay, drawn per packet when it leaves the link's transmitter.  netem's
    convention for `spread`: "uniform" draws from [mean - spread, mean + spread] (spread <= mean,
    so never negative; sd = spread / sqrt(3)); "normal" draws Normal(mean, sd=spread) truncated to
    >= 0 by redrawing (its mean is then `expected_delay`, slightly above `mean` when spread is not
    small against mean).
    reorder=False (the default, as on a single wired or Wi-Fi path whose packets share one FIFO):
    `extra_delay(now)` returns max(sampled, last_out - now), where last_out is now + extra delay
    of the previous packet, so a packet never overtakes the one before it on the same link; it may
    arrive at the same instant (the event queue keeps insertion order on ties).  This holds as
    long as the link's base delay is constant; `extra_delay` must be called with non-decreasing
    `now`.  The guarantee is exact for now + extra_delay(now); a link that adds its base delay
    as well ((now + delay) + extra) should call `arrival_time(now + delay)` instead, which applies
    the same rule to the absolute arrival time (max(t + sampled, previous arrival)), so rounding
    cannot swap two packets.  Use one of the two per Jitter object.  reorder=True returns the sampled delay as is, so packets may overtake each other.

Capacity
    `CapacitySchedule([(t0, bps0), (t1, bps1), ...])`: piecewise-constant rate, bps_i from t_i
    until t_{i+1} (the first rate also applies before t0).
    `RandomCapacity(mean_bps, sd_fraction, interval, stream, rho=0.9)`: the rate is redrawn every
    `interval` s from an AR(1) process x_{k+1} = mean + rho (x_k - mean) + sqrt(1 - rho^2) sd e_k,
    e_k ~ N(0, 1), sd = sd_fraction * mean, x_0 ~ N(mean, sd) (stationary from the start; its
    marginal is N(mean, sd) whatever rho); the link rate in interval k is x_k clamped to
    [0.1, 2] x mean (the unclamped x_k carries the process on).  rho = 0 gives independent draws.
    Values are drawn lazily in interval order, so rate_at(t) does not depend on the order or the
    number of queries.
    Both have `next_change(t)`: the next time after t the rate may change (inf: never), for the
    link to schedule its next set_rate; a packet already serialising keeps its timing.

All parameters are checked in `check_range`; errors name the allowed range.
"""
from libc.math cimport INFINITY, M_PI, cos, erf, exp, floor, log, nextafter, sqrt
from libc.stdlib cimport free, malloc, realloc

from simulator.core.rng cimport Stream


def check_range(str name, value, double low, double high, bint low_open=False,
                bint high_open=False):
    """The one place impairment parameters are range-checked; returns value as a float."""
    try:
        x = float(value)
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be a number, got {value!r}") from None
    ok = (x > low if low_open else x >= low) and (x < high if high_open else x <= high)
    if not ok:
        lo = f"({low:g}" if low_open else f"[{low:g}"
        hi = f"{high:g})" if high_open else f"{high:g}]"
        raise ValueError(f"{name} must be in {lo}, {hi}, got {value!r}")
    return x


cdef inline double _std_normal(Stream s) noexcept:
    """Box-Muller (one of the pair; two uniforms per draw)."""
    cdef double u1 = s.uniform(), u2 = s.uniform()
    return sqrt(-2.0 * log(1.0 - u1)) * cos(2.0 * M_PI * u2)


def _need_stream(stream):
    if not isinstance(stream, Stream):
        raise ValueError(f"stream must be a simulator.core.rng.Stream, got {type(stream).__name__}")
    return stream


# ---------------------------------------------------------------------------------- loss
cdef class LossModel:
    cdef bint drop(self) noexcept:
        self.packets += 1
        return False

    def draw(self):
        """drop() from Python: True if the next packet is lost."""
        return bool(self.drop())

    def draws(self, long n):
        """n consecutive drop() decisions as a list of bools (tests)."""
        return [bool(self.drop()) for _ in range(n)]

    @property
    def loss_rate(self):
        """Losses / packets seen so far."""
        return <double>self.losses / self.packets if self.packets else 0.0


cdef class BernoulliLoss(LossModel):
    def __init__(self, p, Stream stream):
        self.p = check_range("loss probability p", p, 0.0, 1.0)
        self.stream = _need_stream(stream)

    cdef bint drop(self) noexcept:
        self.packets += 1
        if self.stream.uniform() < self.p:
            self.losses += 1
            return True
        return False

    @property
    def stationary_loss(self):
        return self.p


cdef class PeriodicLoss(LossModel):
    """Every round(1/p)-th packet is lost, the last of each period: the deterministic loss the closed-form
    models of TCP throughput are derived for (Mathis et al. 1997, RFC 9438 section 5), to set beside random loss."""

    def __init__(self, p):
        p = check_range("loss probability p", p, 0.0, 1.0, low_open=True)
        self.period = max(1, <long long>round(1.0 / p))

    cdef bint drop(self) noexcept:
        self.packets += 1
        if self.packets % self.period == 0:
            self.losses += 1
            return True
        return False

    @property
    def stationary_loss(self):
        return 1.0 / self.period


cdef class GilbertElliottLoss(LossModel):
    def __init__(self, p_gb, p_bg, loss_good, loss_bad, Stream stream):
        self.p_gb = check_range("p_gb (Good->Bad per packet)", p_gb, 0.0, 1.0)
        self.p_bg = check_range("p_bg (Bad->Good per packet)", p_bg, 0.0, 1.0, low_open=True)
        self.loss_good = check_range("loss_good", loss_good, 0.0, 1.0)
        self.loss_bad = check_range("loss_bad", loss_bad, 0.0, 1.0)
        self.stream = _need_stream(stream)
        self.bad = False

    cdef bint drop(self) noexcept:
        cdef bint lost
        self.packets += 1
        if self.bad:
            lost = self.stream.uniform() < self.loss_bad
            if self.stream.uniform() < self.p_bg:
                self.bad = False
        else:
            lost = self.stream.uniform() < self.loss_good
            if self.stream.uniform() < self.p_gb:
                self.bad = True
        if lost:
            self.losses += 1
        return lost

    @property
    def stationary_loss(self):
        return (self.p_gb * self.loss_bad + self.p_bg * self.loss_good) / (self.p_gb + self.p_bg)

    @property
    def stationary_bad(self):
        """Long-run fraction of packets that find the chain in Bad."""
        return self.p_gb / (self.p_gb + self.p_bg)

    @property
    def mean_bad_run(self):
        """Mean number of consecutive packets in Bad: 1 / p_bg."""
        return 1.0 / self.p_bg


# ---------------------------------------------------------------------------------- jitter
JITTER_DISTRIBUTIONS = ("uniform", "normal")


cdef class Jitter:
    def __init__(self, mean, spread, str distribution, Stream stream, bint reorder=False):
        self.mean = check_range("jitter mean (s)", mean, 0.0, 60.0)
        if distribution == "uniform":
            self.distribution = JITTER_UNIFORM
            self.spread = check_range("uniform jitter half-width (s, <= mean)", spread, 0.0,
                                      self.mean)
        elif distribution == "normal":
            self.distribution = JITTER_NORMAL
            self.spread = check_range("normal jitter sd (s)", spread, 0.0, 60.0)
        else:
            raise ValueError(f"jitter distribution must be one of {JITTER_DISTRIBUTIONS}, "
                             f"got {distribution!r}")
        self.stream = _need_stream(stream)
        self.reorder = reorder
        self.last_out = -INFINITY

    cdef double sample(self) noexcept:
        cdef double x
        if self.spread == 0.0:
            return self.mean
        if self.distribution == JITTER_UNIFORM:
            return self.mean + self.spread * (2.0 * self.stream.uniform() - 1.0)
        while True:                          # truncated normal: accept with prob >= 1/2
            x = self.mean + self.spread * _std_normal(self.stream)
            if x >= 0.0:
                return x

    cdef double extra_delay(self, double now) noexcept:
        cdef double d = self.sample()
        self.packets += 1
        if not self.reorder and now + d < self.last_out:
            d = self.last_out - now
            while now + d < self.last_out:     # rounding: keep now + d >= last_out exactly
                d = nextafter(d, INFINITY)
            self.clamped += 1
        self.last_out = now + d
        return d

    cdef double arrival_time(self, double t) noexcept:
        cdef double a = t + self.sample()
        self.packets += 1
        if not self.reorder and a < self.last_out:
            a = self.last_out
            self.clamped += 1
        self.last_out = a
        return a

    def py_extra_delay(self, double now):
        return self.extra_delay(now)

    def py_arrival_time(self, double t):
        return self.arrival_time(t)

    @property
    def expected_delay(self):
        """Mean of one sampled extra delay (before the no-reorder clamp)."""
        if self.distribution == JITTER_UNIFORM or self.spread == 0.0:
            return self.mean
        a = -self.mean / self.spread
        pdf = exp(-0.5 * a * a) / sqrt(2.0 * M_PI)
        tail = 0.5 * (1.0 - erf(a / sqrt(2.0)))
        return self.mean + self.spread * pdf / tail


# ---------------------------------------------------------------------------------- capacity
cdef class CapacityProcess:
    cdef double rate_at(self, double t) except -1.0:
        raise NotImplementedError(f"{type(self).__name__} does not implement rate_at")

    cdef double next_change(self, double t) noexcept:
        return INFINITY

    def py_rate_at(self, double t):
        return self.rate_at(t)

    def py_next_change(self, double t):
        return self.next_change(t)


cdef class CapacitySchedule(CapacityProcess):
    def __cinit__(self, points):
        pts = [tuple(p) for p in points]
        if not pts or any(len(p) != 2 for p in pts):
            raise ValueError(f"capacity schedule must be a non-empty list of (time s, bit/s), "
                             f"got {points!r}")
        self.n = len(pts)
        self.times = <double*>malloc(self.n * sizeof(double))
        self.rates = <double*>malloc(self.n * sizeof(double))
        if self.times == NULL or self.rates == NULL:
            raise MemoryError()
        prev = -INFINITY
        for i, (t, r) in enumerate(pts):
            t = check_range(f"schedule time #{i} (s, increasing)", t, max(prev, 0.0), INFINITY,
                            low_open=i > 0, high_open=True)
            self.times[i] = t
            self.rates[i] = check_range(f"schedule rate #{i} (bit/s)", r, 0.0, INFINITY,
                                        low_open=True, high_open=True)
            prev = t
        self.cursor = 0

    def __dealloc__(self):
        free(self.times)
        free(self.rates)

    cdef int _index(self, double t) noexcept:
        """Last i with times[i] <= t (0 before the first point)."""
        cdef int i = self.cursor, lo, hi, mid
        if self.times[i] <= t and (i + 1 == self.n or t < self.times[i + 1]):
            return i
        if i + 1 < self.n and self.times[i + 1] <= t and (i + 2 == self.n or t < self.times[i + 2]):
            self.cursor = i + 1
            return i + 1
        lo, hi = 0, self.n - 1                   # bisect
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if self.times[mid] <= t:
                lo = mid
            else:
                hi = mid - 1
        self.cursor = lo
        return lo

    cdef double rate_at(self, double t) except -1.0:
        return self.rates[self._index(t)]

    cdef double next_change(self, double t) noexcept:
        cdef int i = self._index(t)            # before times[0] the first rate applies: i = 0
        return self.times[i + 1] if i + 1 < self.n else INFINITY

    @property
    def points(self):
        return [(self.times[i], self.rates[i]) for i in range(self.n)]


cdef class RandomCapacity(CapacityProcess):
    def __cinit__(self, mean_bps, sd_fraction, interval, Stream stream, rho=0.9):
        self.mean_bps = check_range("mean_bps (bit/s)", mean_bps, 0.0, INFINITY, low_open=True,
                                    high_open=True)
        self.sd_fraction = check_range("sd_fraction (sd / mean)", sd_fraction, 0.0, 1.0)
        self.interval = check_range("interval (s)", interval, 0.0, INFINITY, low_open=True,
                                    high_open=True)
        self.rho = check_range("rho (AR(1) coefficient)", rho, 0.0, 1.0, high_open=True)
        self.stream = _need_stream(stream)
        self.low = 0.1 * self.mean_bps
        self.high = 2.0 * self.mean_bps
        self.cap = 64
        self.values = <double*>malloc(self.cap * sizeof(double))
        if self.values == NULL:
            raise MemoryError()
        self.n_values = 0

    def __dealloc__(self):
        free(self.values)

    cdef int _extend(self, long k) except -1:
        cdef double sd = self.sd_fraction * self.mean_bps, x
        cdef double* v
        while self.n_values <= k:
            if self.n_values == self.cap:
                v = <double*>realloc(self.values, 2 * self.cap * sizeof(double))
                if v == NULL:
                    raise MemoryError()
                self.values = v
                self.cap *= 2
            if self.n_values == 0:
                self.latent = self.mean_bps + sd * _std_normal(self.stream)
            else:
                self.latent = (self.mean_bps + self.rho * (self.latent - self.mean_bps)
                               + sqrt(1.0 - self.rho * self.rho) * sd * _std_normal(self.stream))
            x = self.latent
            if x < self.low:
                x = self.low
            elif x > self.high:
                x = self.high
            self.values[self.n_values] = x
            self.n_values += 1
        return 0

    cdef double rate_at(self, double t) except -1.0:
        cdef long k = <long>floor(t / self.interval) if t > 0.0 else 0
        if k >= self.n_values:
            self._extend(k)
        return self.values[k]

    cdef double next_change(self, double t) noexcept:
        if t < 0.0:                            # interval 0's rate applies before 0 as well
            return self.interval
        return (floor(t / self.interval) + 1.0) * self.interval
