cdef class LogHistogram:
    """Counts of positive values in bins of constant relative width: memory fixed, not growing
    with the number of values."""
    cdef long long* counts
    cdef Py_ssize_t n_bins
    cdef double lo, log_lo, log_ratio
    cdef readonly double rel_error
    cdef readonly long long n

    cdef void add(self, double v) noexcept
    cdef double _centre(self, Py_ssize_t i) noexcept
    cdef double _kth(self, long long k) noexcept


cdef class IntHistogram:
    """Exact counts of non-negative integers (grows with the largest value, not with their number)."""
    cdef long long* counts
    cdef Py_ssize_t cap
    cdef readonly long long n

    cdef int add(self, long long v) except -1
    cdef long long _kth(self, long long k) noexcept
