from simulator.core.rng cimport Stream


cdef class LossModel:
    """Random packet loss on a link; `drop()` is called once per packet, in link order."""
    cdef Stream stream
    cdef readonly long long packets, losses

    cdef bint drop(self) noexcept


cdef class BernoulliLoss(LossModel):
    cdef readonly double p


cdef class PeriodicLoss(LossModel):
    cdef readonly long long period


cdef class GilbertElliottLoss(LossModel):
    cdef readonly double p_gb, p_bg, loss_good, loss_bad
    cdef readonly bint bad                     # state the next packet sees


cdef enum:
    JITTER_UNIFORM = 0
    JITTER_NORMAL = 1


cdef class Jitter:
    """Extra one-way delay per packet on top of a link's propagation delay."""
    cdef Stream stream
    cdef readonly double mean, spread
    cdef readonly int distribution             # JITTER_UNIFORM or JITTER_NORMAL
    cdef readonly bint reorder
    cdef readonly double last_out              # when the previous packet leaves the jitter stage
    cdef readonly long long packets, clamped

    cdef double sample(self) noexcept
    cdef double extra_delay(self, double now) noexcept
    cdef double arrival_time(self, double t) noexcept


cdef class CapacityProcess:
    """Link rate as a function of time (bit/s)."""
    cdef double rate_at(self, double t) except -1.0
    cdef double next_change(self, double t) noexcept


cdef class CapacitySchedule(CapacityProcess):
    cdef double* times
    cdef double* rates
    cdef int n
    cdef int cursor                            # last interval found (rate_at is O(1) for rising t)

    cdef int _index(self, double t) noexcept


cdef class RandomCapacity(CapacityProcess):
    cdef Stream stream
    cdef readonly double mean_bps, sd_fraction, interval, rho, low, high
    cdef double* values                        # rate of interval k, drawn lazily in order
    cdef long n_values, cap
    cdef double latent                         # unclamped AR(1) state of the last interval drawn

    cdef int _extend(self, long k) except -1
