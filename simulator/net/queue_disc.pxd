cdef class PacketQueue:
    """Waiting room of one link: packet ids in, packet ids out (the packet being serialised is
    not in it).  Subclasses decide the order and which packet to drop when the buffer is full.

    dequeue may drop packets before the one it returns (an AQM such as CoDel): their ids are then
    in head_drops[0:n_head_drops] until the next dequeue, for the caller to free.

    enqueue returns 1 if the arriving packet was queued, 0 if it was dropped; either way
    `last_dropped` then holds the id of the packet that this call dropped (the arrival, or a
    packet pushed out of the buffer), or -1.  The caller frees that packet.
    """
    cdef readonly long limit               # packets that may wait (shared by all flows)
    cdef readonly long count               # packets waiting
    cdef readonly long long bytes          # bytes waiting
    cdef readonly int last_dropped         # id dropped by the last enqueue, or -1
    cdef readonly long long arrivals, dequeued, drops   # arrivals = dequeued + drops + count
    cdef readonly long max_length
    # ids a dequeue call dropped from the head (CoDel), valid until the next dequeue: the caller
    # frees them.  Disciplines that never drop at dequeue leave n_head_drops at 0.
    cdef int* head_drops
    cdef readonly long n_head_drops

    cdef int enqueue(self, int pid, int flow, int size) except -2
    cdef int dequeue(self) except -2
    cdef inline long length(self) noexcept:
        return self.count


cdef class FifoQueue(PacketQueue):
    """DropTail FIFO: a full buffer drops the arrival."""
    cdef int* ring_pid
    cdef int* ring_size
    cdef long head, cap
