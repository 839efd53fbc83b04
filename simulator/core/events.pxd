# Event queue: binary min-heaps of C structs keyed by (time, when scheduled, insertion sequence): the main
# heap and the timer heap, popped as one (simulator/core/events.pyx).

cdef struct Event:
    double time
    double born        # when it was scheduled (or would have been: a packet's departure worked out ahead)
    long long seq      # insertion order: with born, breaks ties so runs are deterministic
    int kind           # what happens (model-defined code)
    long long data     # integer payload (packet id, timer generation, ...)


cdef class EventQueue:
    cdef Event* heap
    cdef Py_ssize_t size
    cdef Py_ssize_t capacity
    cdef Event* timers              # the timer heap (push_timer)
    cdef Py_ssize_t tsize, tcapacity
    cdef long long next_seq
    cdef public long long pushed    # events ever scheduled (for event-rate benchmarks)
    cdef public long long popped    # events taken off the queue (processed)
    cdef readonly double now        # time of the last event taken off (what push records as born) ...
    cdef readonly double now_born   # ... and when that event was scheduled

    cdef int push(self, double time, int kind, long long data) except -1
    cdef int push_timer(self, double time, int kind, long long data) except -1
    cdef inline long long reserve(self) noexcept:
        # the place in the tie order of an event to be pushed later with push_seq (a packet
        # waiting behind others on a wire); it counts as scheduled now
        self.pushed += 1
        self.next_seq += 1
        return self.next_seq - 1
    cdef int push_seq(self, double time, int kind, long long data, long long seq, double born) except -1
    cdef Event pop(self) noexcept
    cdef inline bint empty(self) noexcept:
        return self.size == 0 and self.tsize == 0
