from simulator.core.events cimport EventQueue
from simulator.net.queue_disc cimport PacketQueue


cdef struct CoDelNode:
    int pid
    int size
    double enqueued          # time it entered the queue, s (its sojourn starts here)
    int next                 # next node of the flow's FIFO, or the free list (-1: none)


cdef struct CoDelFlow:
    int head, tail           # nodes of the flow's FIFO (-1: empty)
    long count               # packets waiting
    long long bytes          # bytes waiting (the backlog CoDel compares with mtu)
    long long deficit        # DRR credit, bytes
    int in_list              # 0: in no list, 1: new flows, 2: old flows
    int next_in_list
    long long drops
    # CoDel state (RFC 8289 section 5; Linux include/net/codel.h struct codel_vars)
    double first_above_time  # when the sojourn time may first count as "above target an interval"; 0: below
    double drop_next         # time of the next drop while dropping
    unsigned int cd_count    # drops since entering the dropping state
    unsigned int lastcount   # cd_count when the dropping state was last entered
    bint dropping


cdef class FqCoDelQueue(PacketQueue):
    cdef EventQueue events                 # its `now` is the time of enqueue and dequeue
    cdef readonly double target, interval  # s
    cdef readonly int quantum              # bytes
    cdef readonly int mtu                  # bytes: no drop while the flow's backlog is at most this
    cdef bint single                       # plain CoDel: one FIFO, the arrival dropped when full
    cdef CoDelNode* nodes
    cdef int free_node
    cdef CoDelFlow* flows
    cdef int n_flows
    cdef int new_head, new_tail, old_head, old_tail
    cdef readonly long long codel_drops    # dropped at dequeue by CoDel
    cdef readonly long long overlimit_drops  # dropped from the fattest flow when full

    cdef int _grow_flows(self, int flow) except -1
    cdef int _pop(self, int f) noexcept
    cdef void _free_node(self, int n) noexcept
    cdef bint _should_drop(self, int f, int n, double now) noexcept
    cdef int _codel_dequeue(self, int f, double now) noexcept
    cdef void _head_drop(self, int f, int n) noexcept
    cdef int _drop_fattest(self) noexcept
    cdef void _list_pop_head(self, int which) noexcept
    cdef void _list_append(self, int which, int f) noexcept


cdef class CoDelQueue(FqCoDelQueue):
    pass
