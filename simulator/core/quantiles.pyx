"""Medians of long event-sampled series in fixed memory (issue 18: memory flat in simulated time).

LogHistogram: bins of constant relative width 2*rel_error, each value represented by its bin's
geometric centre, so a median is within rel_error (default 0.1 %) of the exact one; values
outside [lo, hi] count in the end bins.  IntHistogram: exact counts of integer values.  Both
give the median as numpy does (the mean of the two middle values when the count is even).
"""
from libc.math cimport exp, floor, log
from libc.stdlib cimport calloc, free, realloc
from libc.string cimport memset


cdef Py_ssize_t kth_bin(long long* counts, Py_ssize_t n_bins, long long k) noexcept:
    """The bin holding the k-th smallest (0-based) of the counted values (the last bin if k is past them)."""
    cdef Py_ssize_t i
    cdef long long seen = 0
    for i in range(n_bins):
        seen += counts[i]
        if seen > k:
            return i
    return n_bins - 1


cdef class LogHistogram:
    def __cinit__(self, double lo=1e-6, double hi=1e4, double rel_error=1e-3):
        if not (0 < lo < hi) or not (0 < rel_error < 0.5):
            raise ValueError(f"LogHistogram needs 0 < lo < hi and 0 < rel_error < 0.5 (got {lo}, {hi}, {rel_error})")
        # bin ratio r with sqrt(r) - 1 = rel_error: the centre is within rel_error of every value
        self.log_ratio = 2.0 * log(1.0 + rel_error)
        self.rel_error = rel_error
        self.lo = lo
        self.log_lo = log(lo)
        self.n_bins = <Py_ssize_t>floor((log(hi) - self.log_lo) / self.log_ratio) + 1
        self.counts = <long long*>calloc(self.n_bins, sizeof(long long))
        if self.counts == NULL:
            raise MemoryError()
        self.n = 0

    def __dealloc__(self):
        free(self.counts)

    cdef void add(self, double v) noexcept:
        cdef Py_ssize_t i = 0
        if v > self.lo:
            i = <Py_ssize_t>floor((log(v) - self.log_lo) / self.log_ratio)
            if i >= self.n_bins:
                i = self.n_bins - 1
        self.counts[i] += 1
        self.n += 1

    cdef double _centre(self, Py_ssize_t i) noexcept:
        return exp(self.log_lo + (i + 0.5) * self.log_ratio)

    cdef double _kth(self, long long k) noexcept:
        """The k-th smallest value (0-based), as its bin's centre."""
        return self._centre(kth_bin(self.counts, self.n_bins, k))

    def median(self):
        """Median of the values added (nan if none), within rel_error of the exact one."""
        if self.n == 0:
            return float("nan")
        return 0.5 * (self._kth((self.n - 1) // 2) + self._kth(self.n // 2))

    def record(self, double v):
        self.add(v)


cdef class IntHistogram:
    def __cinit__(self, Py_ssize_t capacity=1024):
        self.cap = max(capacity, 16)
        self.counts = <long long*>calloc(self.cap, sizeof(long long))
        if self.counts == NULL:
            raise MemoryError()
        self.n = 0

    def __dealloc__(self):
        free(self.counts)

    cdef int add(self, long long v) except -1:
        cdef Py_ssize_t new_cap
        cdef long long* grown
        if v < 0:
            raise ValueError(f"IntHistogram counts values >= 0, got {v}")
        if v >= self.cap:
            new_cap = self.cap
            while new_cap <= v:
                new_cap *= 2
            grown = <long long*>realloc(self.counts, new_cap * sizeof(long long))
            if grown == NULL:
                raise MemoryError()
            memset(grown + self.cap, 0, (new_cap - self.cap) * sizeof(long long))
            self.counts, self.cap = grown, new_cap
        self.counts[v] += 1
        self.n += 1
        return 0

    cdef long long _kth(self, long long k) noexcept:
        return kth_bin(self.counts, self.cap, k)

    def median(self):
        """Exact median of the values added (nan if none)."""
        if self.n == 0:
            return float("nan")
        return 0.5 * (self._kth((self.n - 1) // 2) + self._kth(self.n // 2))

    def record(self, long long v):
        self.add(v)
