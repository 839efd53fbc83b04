"""Queue disciplines of a link's waiting room: the place to add RED, CoDel, ... later.

A discipline holds packet ids (with their flow and size in bytes, which it may use to order or
drop them); the packets themselves stay in the network's pool.  The packet being serialised is
not in the queue, as in `Network`: `limit` counts packets that may wait.

Contract for the link that owns a queue (`PacketQueue`, the common base):

    accepted = q.enqueue(pid, flow, size)   # 1: pid waits, 0: pid was dropped
    if q.last_dropped >= 0: free(q.last_dropped)   # the arrival, or a packet pushed out
    pid = q.dequeue()                       # next packet to serialise, or -1 when empty

`last_dropped` is set by every enqueue call (-1 if nothing was dropped), so a discipline that
pushes a queued packet out to admit the arrival (`fq.DrrQueue`) fits the same contract as a
DropTail FIFO.  Counters: arrivals = dequeued + drops + count at all times.

Python wrappers (`push`, `pop`, `len()`) exist for tests; a model uses the cdef methods.
"""
from libc.stdlib cimport free, malloc


cdef class PacketQueue:
    def __cinit__(self, *args, **kwargs):
        self.last_dropped = -1

    cdef int enqueue(self, int pid, int flow, int size) except -2:
        raise NotImplementedError(f"{type(self).__name__} does not implement enqueue")

    cdef int dequeue(self) except -2:
        raise NotImplementedError(f"{type(self).__name__} does not implement dequeue")

    # ------------------------------------------------------------------ Python access (tests)
    def push(self, int pid, int flow, int size):
        """enqueue; returns 1 (queued) or 0 (dropped).  See `last_dropped` for the victim."""
        if pid < 0 or flow < 0 or size <= 0:
            raise ValueError(f"push needs pid >= 0, flow >= 0, size > 0 bytes "
                             f"(got {pid}, {flow}, {size})")
        return self.enqueue(pid, flow, size)

    def pop(self):
        """dequeue; returns the next packet id, or -1 if the queue is empty."""
        return self.dequeue()

    def __len__(self):
        return self.count

    def stats(self):
        return {"arrivals": self.arrivals, "dequeued": self.dequeued, "drops": self.drops,
                "queue": self.count, "bytes": self.bytes, "max_queue": self.max_length}


cdef class FifoQueue(PacketQueue):
    """DropTail FIFO of at most `limit` waiting packets (limit 0: nothing may wait)."""

    def __cinit__(self, long limit):
        if limit < 0:
            raise ValueError(f"queue limit must be >= 0 packets, got {limit}")
        self.limit = limit
        self.cap = max(limit, 1)
        self.ring_pid = <int*>malloc(self.cap * sizeof(int))
        self.ring_size = <int*>malloc(self.cap * sizeof(int))
        if self.ring_pid == NULL or self.ring_size == NULL:
            raise MemoryError()
        self.head = 0

    def __dealloc__(self):
        free(self.ring_pid)
        free(self.ring_size)

    cdef int enqueue(self, int pid, int flow, int size) except -2:
        cdef long slot
        self.arrivals += 1
        if self.count >= self.limit:
            self.drops += 1
            self.last_dropped = pid
            return 0
        self.last_dropped = -1
        slot = self.head + self.count
        if slot >= self.cap:
            slot -= self.cap
        self.ring_pid[slot] = pid
        self.ring_size[slot] = size
        self.count += 1
        self.bytes += size
        if self.count > self.max_length:
            self.max_length = self.count
        return 1

    cdef int dequeue(self) except -2:
        cdef int pid
        if self.count == 0:
            return -1
        pid = self.ring_pid[self.head]
        self.bytes -= self.ring_size[self.head]
        self.head += 1
        if self.head == self.cap:
            self.head = 0
        self.count -= 1
        self.dequeued += 1
        return pid


QUEUE_KINDS = ("droptail", "fq")


def make_queue(str kind, long limit, **params):
    """A queue discipline by name: "droptail" (FIFO) or "fq" (per-flow DRR; params: quantum)."""
    if kind == "droptail":
        if params:
            raise ValueError(f"droptail takes no parameters, got {sorted(params)}")
        return FifoQueue(limit)
    if kind == "fq":
        from simulator.net.fq import DrrQueue
        unknown = set(params) - {"quantum"}
        if unknown:
            raise ValueError(f"fq takes only 'quantum' (bytes), got {sorted(unknown)}")
        return DrrQueue(limit, **params)
    raise ValueError(f"queue discipline must be one of {QUEUE_KINDS}, got {kind!r}")
