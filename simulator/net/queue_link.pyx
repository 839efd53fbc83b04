"""M/M/1/K (or M/D/1/K) bottleneck: FIFO, buffer counted as packets in system, waiting deadline.

With one deadline theta for every packet and FIFO order, deadlines expire in arrival order, so a
packet still waiting when its deadline fires is always at the head of the waiting room.
"""
from libc.math cimport isinf
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
            # the timer exists even if service starts at once (the published model's end time counts it)
            self.events.push(now + self.theta, self.ev_deadline, tx)
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
        return True

    cdef void _start_next(self, double now) except *:
        if self.w_count == 0:
            self.busy = False
            self.in_service = -1
            return
        self.in_service = self.w_id[self.w_head]
        self.in_service_arrival = self.w_arr[self.w_head]
        self.events.push(now + self.w_svc[self.w_head], self.ev_done, self.in_service)
        self._pop_head()

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

    cdef bint expire(self, long long tx, double now) except -1:
        """Deadline of tx fires: True (and tx leaves) if it is still waiting."""
        if self.w_count == 0 or self.w_id[self.w_head] != tx:
            return False          # already in service or gone: the timer has nothing to do
        self._track(now)
        self._pop_head()
        self.drops_deadline += 1
        return True

    # read-only view for tests
    @property
    def number_in_system(self):
        return self.in_system()

    # Python access for unit tests
    def offer(self, long long tx, double now, double svc):
        return self.arrive(tx, now, svc)

    def finish(self, double now):
        return self.complete(now)

    def timeout(self, long long tx, double now):
        return self.expire(tx, now)
