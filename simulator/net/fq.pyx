"""Fair queueing: per-flow deficit round robin (Shreedhar & Varghese, SIGCOMM 1995 / ToN 1996).

Each flow has its own FIFO; backlogged flows sit in a round-robin "active list".  When a flow
becomes backlogged it joins the tail of the list with a deficit of one quantum (as Linux sch_drr
does, which is the paper's "add the quantum when the round robin pointer reaches the flow").
The flow at the head sends its head packet if the packet fits in its deficit (deficit -= size);
otherwise its deficit grows by one quantum and it moves to the tail.  A flow whose FIFO empties
leaves the list and its deficit is reset.  Backlogged flows thus get equal bytes per round
whatever their packet sizes (to within one maximum packet).  With quantum >= the largest packet
(default 1514 bytes, an Ethernet frame, as Linux fq_codel) every operation is O(1): a visit
that does not send raises the deficit enough for the next visit to send.

Buffer: `limit` packets shared by all flows.  When an arrival would exceed it, the arrival is
queued and then one packet is dropped from the tail of the longest flow (in packets) — the
behaviour of Linux sch_sfq (tail drop from the deepest slot).  Linux fq_codel and ns-3
FqCoDelQueueDisc also drop from the fattest flow, but measure it in bytes, drop from its head
and drop in batches; that needs an O(flows) search and is tied to CoDel, so it is not used here.
Dropping from the longest flow keeps a flow that sends faster than its fair share from taking
buffer space from the others (plain tail drop of the arrival would let one greedy flow fill the
shared buffer and lock the others out).  Ties: flows with equal packet counts are kept in a list
per count, most recently grown first, so if the arrival's flow is one of the longest, the arrival
itself is dropped (enqueue returns 0); otherwise the victim is the tail packet of the flow that
most recently reached the maximum count (enqueue returns 1 and `last_dropped` names it).
Finding the longest flow is O(1): flows are bucketed by packet count (as sch_sfq's `dep` table).

Per-flow FIFOs are doubly linked lists in one node pool of limit + 1 entries (the shared buffer
plus the arrival being admitted) rather than one ring per flow, so memory is O(limit + flows)
and the tail drop is O(1).  Flow ids are small non-negative integers (the network's flow ids);
the per-flow table grows to the largest id seen.
"""
from libc.stdlib cimport free, malloc, realloc

cdef int MAX_FLOW_ID = 1 << 24          # sanity bound on flow ids (the table is dense)


cdef class DrrQueue(PacketQueue):

    def __cinit__(self, long limit, int quantum=1514, int n_flows=16):
        if limit < 0:
            raise ValueError(f"queue limit must be >= 0 packets, got {limit}")
        if quantum < 1:
            raise ValueError(f"DRR quantum must be >= 1 byte, got {quantum}")
        if n_flows < 1:
            raise ValueError(f"n_flows must be >= 1, got {n_flows}")
        self.limit = limit
        self.quantum = quantum
        self.nodes = <DrrNode*>malloc((limit + 1) * sizeof(DrrNode))
        self.dep_head = <int*>malloc((limit + 2) * sizeof(int))
        self.flows = NULL
        self.n_flows = 0
        if self.nodes == NULL or self.dep_head == NULL:
            raise MemoryError()
        for i in range(limit + 1):
            self.nodes[i].next = i + 1 if i < limit else -1
        self.free_node = 0
        for i in range(limit + 2):
            self.dep_head[i] = -1
        self.max_depth = 0
        self.active_head = -1
        self.active_tail = -1
        self._grow_flows(n_flows - 1)

    def __dealloc__(self):
        free(self.nodes)
        free(self.dep_head)
        free(self.flows)

    cdef int _grow_flows(self, int flow) except -1:
        cdef int old = self.n_flows, n = max(2 * self.n_flows, flow + 1), i
        if flow >= MAX_FLOW_ID:
            raise ValueError(f"flow id must be < {MAX_FLOW_ID}, got {flow}")
        cdef DrrFlow* fl = <DrrFlow*>realloc(self.flows, n * sizeof(DrrFlow))
        if fl == NULL:
            raise MemoryError()
        self.flows = fl
        for i in range(old, n):
            fl[i].head = -1
            fl[i].tail = -1
            fl[i].count = 0
            fl[i].bytes = 0
            fl[i].deficit = 0
            fl[i].active = False
            fl[i].next_active = -1
            fl[i].dep_prev = -1
            fl[i].dep_next = -1
            fl[i].drops = 0
        self.n_flows = n
        return 0

    # ---------------------------------------------------------- flows bucketed by packet count
    cdef void _dep_unlink(self, int f) noexcept:
        cdef DrrFlow* fl = &self.flows[f]
        if fl.dep_prev >= 0:
            self.flows[fl.dep_prev].dep_next = fl.dep_next
        else:
            self.dep_head[fl.count] = fl.dep_next
        if fl.dep_next >= 0:
            self.flows[fl.dep_next].dep_prev = fl.dep_prev
        fl.dep_prev = -1
        fl.dep_next = -1

    cdef void _dep_link(self, int f) noexcept:
        cdef DrrFlow* fl = &self.flows[f]
        cdef int h = self.dep_head[fl.count]
        fl.dep_prev = -1
        fl.dep_next = h
        if h >= 0:
            self.flows[h].dep_prev = f
        self.dep_head[fl.count] = f
        if fl.count > self.max_depth:
            self.max_depth = fl.count

    cdef int _drop_longest(self) noexcept:
        """Remove the tail packet of the longest flow; returns its id."""
        cdef int f = self.dep_head[self.max_depth]
        cdef DrrFlow* fl = &self.flows[f]
        cdef int n = fl.tail
        cdef int pid = self.nodes[n].pid
        fl.tail = self.nodes[n].prev
        if fl.tail >= 0:
            self.nodes[fl.tail].next = -1
        else:
            fl.head = -1
        self._dep_unlink(f)
        fl.count -= 1
        fl.bytes -= self.nodes[n].size
        fl.drops += 1
        if fl.count > 0:
            self._dep_link(f)
        # an emptied flow stays in the active list; dequeue removes it when it reaches it
        while self.max_depth > 0 and self.dep_head[self.max_depth] < 0:
            self.max_depth -= 1
        self.count -= 1
        self.bytes -= self.nodes[n].size
        self.drops += 1
        self.nodes[n].next = self.free_node
        self.free_node = n
        return pid

    # ------------------------------------------------------------------ queue interface
    cdef int enqueue(self, int pid, int flow, int size) except -2:
        cdef DrrFlow* fl
        cdef int n
        self.arrivals += 1
        if self.limit == 0:
            self.drops += 1
            self.last_dropped = pid
            return 0
        if flow >= self.n_flows:
            self._grow_flows(flow)
        elif flow < 0:
            raise ValueError(f"flow id must be >= 0, got {flow}")
        fl = &self.flows[flow]
        n = self.free_node                  # never -1: count <= limit < pool size here
        self.free_node = self.nodes[n].next
        self.nodes[n].pid = pid
        self.nodes[n].size = size
        self.nodes[n].next = -1
        self.nodes[n].prev = fl.tail
        if fl.tail >= 0:
            self.nodes[fl.tail].next = n
            self._dep_unlink(flow)
        else:
            fl.head = n
        fl.tail = n
        fl.count += 1
        fl.bytes += size
        self._dep_link(flow)
        if not fl.active:
            fl.active = True
            fl.deficit = self.quantum
            fl.next_active = -1
            if self.active_tail >= 0:
                self.flows[self.active_tail].next_active = flow
            else:
                self.active_head = flow
            self.active_tail = flow
        self.count += 1
        self.bytes += size
        if self.count > self.limit:
            self.last_dropped = self._drop_longest()
        else:
            self.last_dropped = -1
        if self.count > self.max_length:
            self.max_length = self.count
        return 0 if self.last_dropped == pid else 1

    cdef int dequeue(self) except -2:
        cdef int f, n, pid
        cdef DrrFlow* fl
        if self.count == 0:
            return -1
        while True:
            f = self.active_head
            fl = &self.flows[f]
            if fl.count == 0:               # emptied by a drop: leaves the round
                self.active_head = fl.next_active
                if self.active_head < 0:
                    self.active_tail = -1
                fl.active = False
                fl.deficit = 0
                continue
            n = fl.head
            if self.nodes[n].size <= fl.deficit:
                break
            fl.deficit += self.quantum     # next round: move to the tail with one more quantum
            if self.active_tail != f:
                self.active_head = fl.next_active
                self.flows[self.active_tail].next_active = f
                fl.next_active = -1
                self.active_tail = f
        pid = self.nodes[n].pid
        fl.deficit -= self.nodes[n].size
        fl.head = self.nodes[n].next
        if fl.head >= 0:
            self.nodes[fl.head].prev = -1
        else:
            fl.tail = -1
        self._dep_unlink(f)
        fl.count -= 1
        fl.bytes -= self.nodes[n].size
        if fl.count > 0:
            self._dep_link(f)
        else:                               # FIFO empty: leaves the active list (it is the head)
            self.active_head = fl.next_active
            if self.active_head < 0:
                self.active_tail = -1
            fl.active = False
            fl.deficit = 0
        while self.max_depth > 0 and self.dep_head[self.max_depth] < 0:
            self.max_depth -= 1
        self.count -= 1
        self.bytes -= self.nodes[n].size
        self.dequeued += 1
        self.nodes[n].next = self.free_node
        self.free_node = n
        return pid

    # ------------------------------------------------------------------ Python access (tests)
    def flow_length(self, int flow):
        """Packets of `flow` waiting."""
        return self.flows[flow].count if 0 <= flow < self.n_flows else 0

    def flow_bytes(self, int flow):
        return self.flows[flow].bytes if 0 <= flow < self.n_flows else 0

    def flow_drops(self, int flow):
        return self.flows[flow].drops if 0 <= flow < self.n_flows else 0

    def flow_deficit(self, int flow):
        return self.flows[flow].deficit if 0 <= flow < self.n_flows else 0

    def active_flows(self):
        """Flow ids in round-robin order (an emptied flow may linger until its turn)."""
        out, f = [], self.active_head
        while f >= 0:
            out.append(f)
            f = self.flows[f].next_active
        return out

    @property
    def longest_flow_length(self):
        return self.max_depth
