"""Binary heap of C event structs.  Ties in time are broken by when each event was scheduled, then by
insertion order.  For events pushed as they are scheduled that is insertion order alone (time only moves
forward); an event a model works out ahead of time (a packet's arrival after a departure decided early,
simulator/net/network.pyx) carries the time it would have been scheduled, so it takes the same place
among simultaneous events as if it had been scheduled then."""
from libc.stdlib cimport malloc, realloc, free


cdef inline bint _before(Event* a, Event* b) noexcept nogil:
    return a.time < b.time or (a.time == b.time and (a.born < b.born or (a.born == b.born and a.seq < b.seq)))


cdef class EventQueue:
    def __cinit__(self, Py_ssize_t capacity=1024):
        self.capacity = max(capacity, 16)
        self.heap = <Event*>malloc(self.capacity * sizeof(Event))
        if self.heap == NULL:
            raise MemoryError()
        self.size = 0
        self.next_seq = 0
        self.pushed = 0
        self.popped = 0
        self.now = 0.0
        self.now_born = 0.0

    def __dealloc__(self):
        free(self.heap)

    cdef int push(self, double time, int kind, long long data) except -1:
        self.pushed += 1
        self.next_seq += 1
        return self.push_seq(time, kind, data, self.next_seq - 1, self.now)

    cdef int push_seq(self, double time, int kind, long long data, long long seq, double born) except -1:
        """Schedule an event whose tie order `seq` was taken earlier by reserve(), as if scheduled at `born`."""
        cdef Event* grown
        if self.size == self.capacity:
            grown = <Event*>realloc(self.heap, 2 * self.capacity * sizeof(Event))
            if grown == NULL:
                raise MemoryError()
            self.heap = grown
            self.capacity *= 2
        cdef Event ev
        ev.time = time
        ev.seq = seq
        ev.born = born
        ev.kind = kind
        ev.data = data
        # sift up
        cdef Py_ssize_t i = self.size
        cdef Py_ssize_t parent
        self.size += 1
        while i > 0:
            parent = (i - 1) >> 1
            if _before(&ev, &self.heap[parent]):
                self.heap[i] = self.heap[parent]
                i = parent
            else:
                break
        self.heap[i] = ev
        return 0

    cdef Event pop(self) noexcept:
        """Remove and return the earliest event (caller checks empty() first)."""
        cdef Event top = self.heap[0]
        cdef Event last
        cdef Py_ssize_t i = 0, child, n
        self.popped += 1
        self.now = top.time
        self.now_born = top.born
        self.size -= 1
        n = self.size
        if n > 0:
            last = self.heap[n]
            while True:
                child = 2 * i + 1
                if child >= n:
                    break
                if child + 1 < n and _before(&self.heap[child + 1], &self.heap[child]):
                    child += 1
                if _before(&self.heap[child], &last):
                    self.heap[i] = self.heap[child]
                    i = child
                else:
                    break
            self.heap[i] = last
        return top

    # Python-level access for tests of the ordering rule
    def schedule(self, double time, int kind=0, long long data=0):
        self.push(time, kind, data)

    def schedule_as_of(self, double time, double born, int kind=0, long long data=0):
        """Schedule an event now as if it had been scheduled at `born`."""
        self.push_seq(time, kind, data, self.reserve(), born)

    def next(self):
        if self.size == 0:
            raise IndexError("event queue is empty")
        cdef Event ev = self.pop()
        return (ev.time, ev.seq, ev.kind, ev.data)

    def __len__(self):
        return self.size
