"""Time series recorded during a run; `interval` bounds memory on long runs."""
from libc.stdlib cimport free, malloc, realloc


cdef class Trace:
    def __cinit__(self, double interval=0.0, Py_ssize_t capacity=256):
        self.cap = max(capacity, 16)
        self.t = <double*>malloc(self.cap * sizeof(double))
        self.v = <double*>malloc(self.cap * sizeof(double))
        if self.t == NULL or self.v == NULL:
            raise MemoryError()
        self.n = 0
        self.interval = interval
        self.last_t = -1e300

    def __dealloc__(self):
        free(self.t)
        free(self.v)

    cdef void add(self, double t, double v) except *:
        if self.n > 0 and t - self.last_t < self.interval:
            return
        if self.n == self.cap:
            self.cap *= 2
            self.t = <double*>realloc(self.t, self.cap * sizeof(double))
            self.v = <double*>realloc(self.v, self.cap * sizeof(double))
            if self.t == NULL or self.v == NULL:
                raise MemoryError()
        self.t[self.n] = t
        self.v[self.n] = v
        self.n += 1
        self.last_t = t

    def record(self, double t, double v):
        self.add(t, v)

    def as_dict(self, str name="cwnd"):
        return {"t": [self.t[i] for i in range(self.n)], name: [self.v[i] for i in range(self.n)]}

    def __len__(self):
        return self.n
