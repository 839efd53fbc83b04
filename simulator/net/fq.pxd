from simulator.net.queue_disc cimport PacketQueue


cdef struct DrrNode:
    int pid
    int size
    int prev, next          # neighbours in the flow's FIFO (-1: none); next is the free-list link


cdef struct DrrFlow:
    int head, tail          # nodes of the flow's FIFO (-1: empty)
    long count              # packets waiting
    long long bytes
    long long deficit       # bytes it may still send in this round
    bint active
    int next_active         # active list (round-robin order)
    int dep_prev, dep_next  # list of flows with the same `count` (for the longest-flow drop)
    long long drops


cdef class DrrQueue(PacketQueue):
    """Per-flow deficit round robin (Shreedhar & Varghese 1996) over a shared buffer."""
    cdef readonly int quantum              # bytes added to a flow's deficit per round
    cdef DrrNode* nodes                    # pool of limit + 1 nodes
    cdef int free_node
    cdef DrrFlow* flows
    cdef int n_flows                       # flows allocated (grows with the largest flow id)
    cdef int active_head, active_tail
    cdef int* dep_head                     # dep_head[d]: a flow with d packets waiting, or -1
    cdef long max_depth                    # the longest flow's packet count

    cdef int _grow_flows(self, int flow) except -1
    cdef void _dep_unlink(self, int f) noexcept
    cdef void _dep_link(self, int f) noexcept
    cdef int _drop_longest(self) noexcept
