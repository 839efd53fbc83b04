from libc.math cimport log
from numpy.random cimport bitgen_t


cdef class Stream:
    """One named random stream: PCG64 read through numpy's C bit-generator API."""
    cdef object _bitgen          # keeps the numpy PCG64 (and its state) alive
    cdef bitgen_t* _rng
    cdef readonly str name

    cdef inline double uniform(self) noexcept:
        return self._rng.next_double(self._rng.state)

    cdef inline double legacy_exponential(self, double scale) noexcept:
        # numpy.random.exponential(scale) of the legacy RandomState: scale * -log(1 - U)
        return scale * -log(1.0 - self._rng.next_double(self._rng.state))

    cdef inline double exponential(self, double rate) noexcept:
        # inverse transform on [0, 1): the interpreted path uses the identical formula
        return -log(1.0 - self._rng.next_double(self._rng.state)) / rate
