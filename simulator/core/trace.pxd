cdef class Trace:
    """Growable (time, value) series in C arrays, sampled at most once per `interval` seconds."""
    cdef double* t
    cdef double* v
    cdef Py_ssize_t n, cap
    cdef readonly double interval
    cdef double last_t

    cdef void add(self, double t, double v) except *
