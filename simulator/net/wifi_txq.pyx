"""The transmit queues of the nodes on an 802.11 channel (simulator/net/wifi_network.pyx): which of a node's
links its next A-MPDU goes to, and where that A-MPDU's packets come from.

Each wireless link has the network's waiting room (its queue discipline: DropTail of txqueuelen, or
mac80211's FQ-CoDel) and, below it, a driver queue of `driver_queue_pkts` packets (the driver's or the
firmware's buffer: ath9k's per-TID queues, ath10k's firmware queue).  The driver queue is refilled from the
discipline whenever it has room, so its packets have left the AQM: CoDel sees their time in the discipline
only, as on a Linux access point without AQL.  With depth 0 (the default) the MAC pulls from the discipline at
each transmit opportunity, as mac80211's wake_tx_queue drivers do.

A node serves its links with packets in turn, one A-MPDU each, or with airtime_fairness by mac80211's deficit
scheduler.  A packet taken that did not fit the A-MPDU is held for the next one to its link (outside the
block-ACK window).  Per-link state is in C arrays allocated once: nothing is allocated per packet.
"""
from libc.stdlib cimport calloc, free

from simulator.net.network cimport Network


cdef class TxQueues:
    """The queues of a channel's links: links[i] is sent on by contender conts[i] (0..n_cont - 1)."""

    def __init__(self, Network net, int n_links, links, conts, int n_cont, bint atf, long long quantum_ns,
                 int depth):
        if depth < 0:
            raise ValueError(f"driver queue depth must be >= 0 packets, got {depth}")
        self.net, self.n_links, self.n_cont = net, n_links, n_cont
        self.atf, self.quantum_ns, self.depth = atf, quantum_ns, depth
        self.max_own = max(list(conts).count(c) for c in range(n_cont))
        self._allocate()
        for x in range(n_links):
            self.held[x] = -1
        for x, c in zip(links, conts):
            self.own[c * self.max_own + self.n_own[c]] = x
            self.n_own[c] += 1
        for c in range(n_cont):
            self.rr[c] = self.n_own[c] - 1

    def _allocate(self):
        n = self.n_links
        self.own = <int*>calloc(self.n_cont * self.max_own, sizeof(int))
        self.n_own = <int*>calloc(self.n_cont, sizeof(int))
        self.rr = <int*>calloc(self.n_cont, sizeof(int))
        self.held = <int*>calloc(n, sizeof(int))
        self.deficit = <long long*>calloc(n, sizeof(long long))
        self.airtime = <long long*>calloc(n, sizeof(long long))
        self.dq = <int*>calloc(max(1, n * self.depth), sizeof(int))
        self.dq_head = <int*>calloc(n, sizeof(int))
        self.dq_len = <int*>calloc(n, sizeof(int))
        if (self.own == NULL or self.n_own == NULL or self.rr == NULL or self.held == NULL or self.deficit == NULL
                or self.airtime == NULL or self.dq == NULL or self.dq_head == NULL or self.dq_len == NULL):
            raise MemoryError()

    def __dealloc__(self):
        free(self.own); free(self.n_own); free(self.rr); free(self.held); free(self.deficit); free(self.airtime)
        free(self.dq); free(self.dq_head); free(self.dq_len)

    cdef bint backlog(self, int link) except -1:
        return self.held[link] >= 0 or self.dq_len[link] > 0 or self.net.queue_length(link) > 0

    cdef bint has_packets(self, int c) except -1:
        cdef int j
        for j in range(self.n_own[c]):
            if self.backlog(self.own[c * self.max_own + j]):
                return True
        return False

    cdef int take(self, int link) except -2:
        """The link's next packet for an A-MPDU: one held over, else the driver queue's head, else its
        discipline's next; -1 if an AQM dropped what the link had left."""
        cdef int pid = self.held[link]
        if pid >= 0:
            self.held[link] = -1
            return pid
        if self.dq_len[link]:
            pid = self.dq[link * self.depth + self.dq_head[link]]
            self.dq_head[link] = (self.dq_head[link] + 1) % self.depth
            self.dq_len[link] -= 1
            self.refill(link)
            return pid
        return self.net._dequeue(link)

    cdef void hold(self, int link, int pid) noexcept:
        self.held[link] = pid

    cdef void charge(self, int link, long long ns) noexcept:
        self.airtime[link] += ns
        self.deficit[link] -= ns

    cdef int refill(self, int link) except -1:
        """Move packets from the link's discipline into its driver queue while it has room."""
        cdef int pid
        while self.dq_len[link] < self.depth and self.net.queue_length(link) > 0:
            pid = self.net._dequeue(link)
            if pid < 0:
                break                            # an AQM dropped the rest
            self.dq[link * self.depth + (self.dq_head[link] + self.dq_len[link]) % self.depth] = pid
            self.dq_len[link] += 1
        return 0

    cdef int pick(self, int c) except -2:
        """The link of c's next A-MPDU (its window is empty): the next in turn with packets, or by airtime; -1
        if none has any."""
        cdef int j, k, link
        if self.atf:
            return self._pick_by_airtime(c)
        for j in range(1, self.n_own[c] + 1):
            k = (self.rr[c] + j) % self.n_own[c]
            link = self.own[c * self.max_own + k]
            if self.backlog(link):
                self.rr[c] = k
                return link
        return -1

    cdef int _pick_by_airtime(self, int c) except -2:
        """mac80211's airtime scheduler (net/mac80211 since Linux 4.19, ath9k's before it): the link at the
        head keeps its turn while its airtime credit is not negative; one in debt gets a quantum and goes
        to the back.  Every PPDU's time is charged to its link (charge)."""
        cdef int j, k, link
        if not self.has_packets(c):
            return -1
        while True:
            for j in range(self.n_own[c]):
                k = (self.rr[c] + j) % self.n_own[c]
                link = self.own[c * self.max_own + k]
                if not self.backlog(link):
                    continue
                if self.deficit[link] >= 0:
                    self.rr[c] = k
                    return link
                self.deficit[link] += self.quantum_ns

    def driver_queue(self, int link):
        """Packets in the link's driver queue now."""
        return self.dq_len[link]
