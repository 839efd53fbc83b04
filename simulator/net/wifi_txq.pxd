from simulator.net.network cimport Network


cdef class TxQueues:
    cdef Network net
    cdef int n_links, n_cont, max_own, depth
    cdef bint atf                 # serve a node's links by airtime (airtime_fairness), else in turn
    cdef long long quantum_ns
    # per contender c: its links own[c * max_own + j], j < n_own[c]; rr[c]: index of the one served last
    cdef int* own
    cdef int* n_own
    cdef int* rr
    # per network link
    cdef int* held                # a packet taken that did not fit the last A-MPDU, first into the next (-1: none)
    cdef long long* deficit       # airtime credit, ns (airtime_fairness)
    cdef long long* airtime       # PPDU time sent, ns
    cdef int* dq                  # the driver queue, a ring of `depth` packets: dq[link * depth + k]
    cdef int* dq_head
    cdef int* dq_len

    cdef bint backlog(self, int link) except -1
    cdef bint has_packets(self, int c) except -1
    cdef int pick(self, int c) except -2
    cdef int _pick_by_airtime(self, int c) except -2
    cdef int take(self, int link) except -2
    cdef void hold(self, int link, int pid) noexcept
    cdef void charge(self, int link, long long ns) noexcept
    cdef int refill(self, int link) except -1
