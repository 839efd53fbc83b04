"""Binary heaps of C event structs.  Ties in time are broken by when each event was scheduled, then by
insertion order.  For events pushed as they are scheduled that is insertion order alone (time only moves
forward); an event a model works out ahead of time (a packet's arrival after a departure decided early,
simulator/net/network.pyx) carries the time it would have been scheduled, so it takes the same place
among simultaneous events as if it had been scheduled then.

Two heaps, one order: `push` puts an event in the main heap, `push_timer` in the timer heap, and `pop`
takes the earlier of the two heads by the same key (time, when scheduled, insertion order; the sequence
numbers are shared), so which heap an event goes to never changes the order events are processed in.
A model puts there the many timers that rarely fire (one or more per flow: retransmission, delayed ACK),
so the main heap, which takes an event per packet, stays as small as the packets in flight on distinct
wires and its pushes and pops stay cheap however many flows there are."""
from libc.stdlib cimport malloc, realloc, free


cdef inline bint _before(Event* a, Event* b) noexcept nogil:
    return a.time < b.time or (a.time == b.time and (a.born < b.born or (a.born == b.born and a.seq < b.seq)))


cdef int _sift_up(Event* heap, Py_ssize_t i, Event ev) noexcept nogil:
    """Place ev, added at index i, up the heap."""
    cdef Py_ssize_t parent
    while i > 0:
        parent = (i - 1) >> 1
        if _before(&ev, &heap[parent]):
            heap[i] = heap[parent]
            i = parent
        else:
            break
    heap[i] = ev
    return 0


cdef int _sift_down(Event* heap, Py_ssize_t n) noexcept nogil:
    """After the head was taken from a heap now of n events: move its last event down from the top."""
    cdef Py_ssize_t i = 0, child
    cdef Event last
    if n == 0:
        return 0
    last = heap[n]
    while True:
        child = 2 * i + 1
        if child >= n:
            break
        if child + 1 < n and _before(&heap[child + 1], &heap[child]):
            child += 1
        if _before(&heap[child], &last):
            heap[i] = heap[child]
            i = child
        else:
            break
    heap[i] = last
    return 0


cdef Event* _grow_heap(Event* heap, Py_ssize_t* capacity) except NULL:
    cdef Event* grown = <Event*>realloc(heap, 2 * capacity[0] * sizeof(Event))
    if grown == NULL:
        raise MemoryError()
    capacity[0] *= 2
    return grown


cdef class EventQueue:
    def __cinit__(self, Py_ssize_t capacity=1024):
        self.capacity = max(capacity, 16)
        self.heap = <Event*>malloc(self.capacity * sizeof(Event))
        self.tcapacity = 16
        self.timers = <Event*>malloc(self.tcapacity * sizeof(Event))
        if self.heap == NULL or self.timers == NULL:
            raise MemoryError()
        self.size = 0
        self.tsize = 0
        self.next_seq = 0
        self.pushed = 0
        self.popped = 0
        self.now = 0.0
        self.now_born = 0.0

    def __dealloc__(self):
        free(self.heap)
        free(self.timers)

    cdef int push(self, double time, int kind, long long data) except -1:
        self.pushed += 1
        self.next_seq += 1
        return self.push_seq(time, kind, data, self.next_seq - 1, self.now)

    cdef int push_timer(self, double time, int kind, long long data) except -1:
        """As push, into the timer heap (the same order: see the module docstring)."""
        cdef Event ev
        self.pushed += 1
        self.next_seq += 1
        if self.tsize == self.tcapacity:
            self.timers = _grow_heap(self.timers, &self.tcapacity)
        ev.time = time
        ev.seq = self.next_seq - 1
        ev.born = self.now
        ev.kind = kind
        ev.data = data
        self.tsize += 1
        _sift_up(self.timers, self.tsize - 1, ev)
        return 0

    cdef int push_seq(self, double time, int kind, long long data, long long seq, double born) except -1:
        """Schedule an event whose tie order `seq` was taken earlier by reserve(), as if scheduled at `born`."""
        if self.size == self.capacity:
            self.heap = _grow_heap(self.heap, &self.capacity)
        cdef Event ev
        ev.time = time
        ev.seq = seq
        ev.born = born
        ev.kind = kind
        ev.data = data
        self.size += 1
        _sift_up(self.heap, self.size - 1, ev)
        return 0

    cdef Event pop(self) noexcept:
        """Remove and return the earliest event of the two heaps (caller checks empty() first)."""
        cdef Event top
        self.popped += 1
        if self.tsize > 0 and (self.size == 0 or _before(&self.timers[0], &self.heap[0])):
            top = self.timers[0]
            self.tsize -= 1
            _sift_down(self.timers, self.tsize)
        else:
            top = self.heap[0]
            self.size -= 1
            _sift_down(self.heap, self.size)
        self.now = top.time
        self.now_born = top.born
        return top

    # Python-level access for tests of the ordering rule
    def schedule(self, double time, int kind=0, long long data=0):
        self.push(time, kind, data)

    def schedule_timer(self, double time, int kind=0, long long data=0):
        """Schedule an event into the timer heap."""
        self.push_timer(time, kind, data)

    def schedule_as_of(self, double time, double born, int kind=0, long long data=0):
        """Schedule an event now as if it had been scheduled at `born`."""
        self.push_seq(time, kind, data, self.reserve(), born)

    def next(self):
        if self.empty():
            raise IndexError("event queue is empty")
        cdef Event ev = self.pop()
        return (ev.time, ev.seq, ev.kind, ev.data)

    def __len__(self):
        return self.size + self.tsize
