"""M/M/1/K (or M/D/1/K) bottleneck: FIFO, buffer counted as packets in system, waiting deadline.

With one deadline theta for every packet and FIFO order, deadlines expire in arrival order, so
only the head of the waiting room can expire next: the link keeps a single deadline event, for
that head, instead of one timer per packet.  `last_deadline` still tells when the last per-packet
timer would have fired (the published model's run ends then).
"""
from libc.math cimport INFINITY, isinf
from libc.stdlib cimport free, malloc


cdef class QueueLink:
    def __cinit__(self, EventQueue events, long capacity, double theta, int ev_done, int ev_deadline):
        if capacity < 1:
            raise ValueError(f"buffer K must be >= 1 packet, got {capacity}")
        if not theta > 0:
            raise ValueError(f"deadline theta must be > 0 (or inf), got {theta}")
        self.events = events
        self.capacity = capacity
        self.theta = theta
        self.ev_done = ev_done
        self.ev_deadline = ev_deadline
        self.w_cap = capacity            # one more than needed; K >= 1 keeps it non-zero
        self.w_id = <long long*>malloc(self.w_cap * sizeof(long long))
        self.w_arr = <double*>malloc(self.w_cap * sizeof(double))
        self.w_svc = <double*>malloc(self.w_cap * sizeof(double))
        if self.w_id == NULL or self.w_arr == NULL or self.w_svc == NULL:
            raise MemoryError()
        self.w_head = 0
        self.w_count = 0
        self.busy = False
        self.in_service = -1
        self.deadline_pending = False
        self.last_deadline = -INFINITY

    def __dealloc__(self):
        free(self.w_id)
        free(self.w_arr)
        free(self.w_svc)

    cdef void _track(self, double now) noexcept:
        self.area_in_system += self.in_system() * (now - self.last_change)
        self.last_change = now

    cdef bint arrive(self, long long tx, double now, double svc) except -1:
        """Offer transmission tx; False means dropped because K packets are already in the system."""
        cdef long slot
        if self.in_system() >= self.capacity:
            self.drops_overflow += 1
            return False
        self._track(now)
        self.arrivals += 1
        if not isinf(self.theta):
            self.last_deadline = now + self.theta
        if not self.busy:
            self.busy = True
            self.in_service = tx
            self.in_service_arrival = now
            self.events.push(now + svc, self.ev_done, tx)
        else:
            slot = self.w_head + self.w_count
            if slot >= self.w_cap:
                slot -= self.w_cap
            self.w_id[slot] = tx
            self.w_arr[slot] = now
            self.w_svc[slot] = svc
            self.w_count += 1
            self._arm()
        if self.in_system() > self.max_in_system:
            self.max_in_system = self.in_system()
        return True

    cdef int _arm(self) except -1:
        """Schedule the deadline of the waiting head unless an earlier event is already pending."""
        if self.w_count > 0 and not self.deadline_pending and not isinf(self.theta):
            self.deadline_pending = True
            self.events.push(self.w_arr[self.w_head] + self.theta, self.ev_deadline, 0)
        return 0

    cdef int _start_next(self, double now) except -1:
        if self.w_count == 0:
            self.busy = False
            self.in_service = -1
            return 0
        self.in_service = self.w_id[self.w_head]
        self.in_service_arrival = self.w_arr[self.w_head]
        self.events.push(now + self.w_svc[self.w_head], self.ev_done, self.in_service)
        self._pop_head()
        return 0

    cdef inline void _pop_head(self) noexcept:
        self.w_head += 1
        if self.w_head == self.w_cap:
            self.w_head = 0
        self.w_count -= 1

    cdef long long complete(self, double now) except -2:
        """Service of the packet in service ends now; returns its id and starts the next one."""
        cdef long long done = self.in_service
        self._track(now)
        self.served += 1
        self._start_next(now)
        return done

    cdef long long expire(self, double now) except -2:
        """The deadline event fires: returns the id of the waiting head if its deadline has come
        (it leaves the system), else -1; re-arms for the next head."""
        cdef long long tx = -1
        self.deadline_pending = False
        if self.w_count > 0 and self.w_arr[self.w_head] + self.theta <= now:
            tx = self.w_id[self.w_head]
            self._track(now)
            self._pop_head()
            self.drops_deadline += 1
        self._arm()
        return tx

    # read-only view for tests
    @property
    def number_in_system(self):
        return self.in_system()

    # Python access for unit tests
    def offer(self, long long tx, double now, double svc):
        return self.arrive(tx, now, svc)

    def finish(self, double now):
        return self.complete(now)

    def timeout(self, double now):
        return self.expire(now)
