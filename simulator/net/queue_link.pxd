from simulator.core.events cimport EventQueue


cdef class QueueLink:
    """Single-server FIFO bottleneck with a buffer of K packets in the system and a waiting deadline.

    Passive: the model feeds it arrivals and the events it scheduled (service completion,
    deadline), and acts on what it returns.  It stores transmission ids, not packets.
    """
    cdef EventQueue events
    cdef int ev_done, ev_deadline      # event kinds this link schedules
    cdef readonly long capacity        # K: packets in the system (waiting + in service)
    cdef readonly double theta         # waiting deadline in s (inf: none)
    # waiting room: ring buffer of (id, arrival time, service time)
    cdef long long* w_id
    cdef double* w_arr
    cdef double* w_svc
    cdef long w_head, w_count, w_cap
    cdef readonly bint busy
    cdef readonly long long in_service         # id being served
    cdef readonly double in_service_arrival     # its arrival time
    # counters
    cdef readonly long long arrivals, served, drops_overflow, drops_deadline
    cdef readonly long max_in_system          # the most packets ever in the system
    cdef readonly double area_in_system        # integral of number in system over time
    cdef double last_change
    cdef bint deadline_pending          # one deadline event at a time, for the head of the queue
    cdef readonly double last_deadline  # latest deadline of any admitted packet (-inf: none)

    cdef inline long in_system(self) noexcept:
        return self.w_count + (1 if self.busy else 0)

    cdef bint arrive(self, long long tx, double now, double svc) except -1
    cdef long long complete(self, double now) except -2
    cdef long long expire(self, double now) except -2
    cdef int _arm(self) except -1
    cdef void _track(self, double now) noexcept
    cdef void _pop_head(self) noexcept
    cdef int _start_next(self, double now) except -1
