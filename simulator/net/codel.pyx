"""CoDel and FQ-CoDel: queue disciplines that drop at dequeue when packets have waited too long.

CoDel (RFC 8289; Linux include/net/codel.h and include/net/codel_impl.h, codel_dequeue): each packet
is stamped when it enters the queue; at dequeue its sojourn time is now minus that stamp.  While the
sojourn time is below `target`, or the queue holds at most `mtu` bytes, nothing happens (RFC 8289
section 5.3, codel_should_drop).  Once it has stayed at or above target for a whole `interval`, the
queue enters the dropping state and drops the head packet; it then drops again at
drop_next = previous + interval / sqrt(count) (the control law, section 5.4), count being the drops
of this dropping state, until the sojourn time goes below target.  Reuse rule (section 5.5, Linux's
`delta = count - lastcount`): re-entering the dropping state less than 16 intervals after the last
next-drop time, with more than one drop then, starts count at the previous state's drops instead of 1.
Linux computes 1/sqrt(count) by Newton steps in fixed point; here it is libm's sqrt (the same law,
without the approximation).  ECN marking is not modelled: the simulator's TCPs are not ECN-capable,
for which Linux drops.

FQ-CoDel (RFC 8290; Linux net/sched/sch_fq_codel.c, and mac80211's per-station queues,
include/net/fq_impl.h with net/mac80211/tx.c): one FIFO and one CoDel state per flow, scheduled by
deficit round robin in bytes (quantum) over two lists.  A flow that becomes backlogged joins the
*new* list with one quantum of credit; dequeue serves the new list before the old one, so a sparse
flow (a ping) goes ahead of bulk backlogs (RFC 8290 section 4.2).  A flow whose credit is used up
gets one more quantum and moves to the tail of the old list; a flow found empty leaves (a new one
goes to the old list first if the old list is not empty, so it cannot starve old flows; RFC 8290
section 4.2, fq_codel_dequeue).  Flows are the network's flow ids, each its own queue (Linux hashes
to 1024 or 4096 buckets; with a few flows per link there would be no collisions either).  When an
arrival takes the queue past `limit` packets, one packet is dropped from the head of the flow with
the most bytes waiting (mac80211 fq_tin_enqueue: fq_find_fattest_flow, fq_flow_drop; sch_fq_codel
drops up to half of that flow's backlog in one batch instead).

CoDelQueue is the same code with one flow: a FIFO with CoDel at its head that drops the arrival when
`limit` packets wait (Linux net/sched/sch_codel.c, codel_qdisc_enqueue).

Both read the time from the network's EventQueue (`events.now`) given at construction, so the
packet network's enqueue/dequeue calls need no time argument and the other disciplines are untouched.
Packets dropped at dequeue are reported through `head_drops` (queue_disc.pxd) for the network to free.
"""
from libc.math cimport sqrt
from libc.stdlib cimport free, malloc, realloc

cdef int MAX_FLOW_ID = 1 << 24          # sanity bound on flow ids (the table is dense)
cdef enum:
    IN_NO_LIST = 0
    NEW_FLOWS = 1
    OLD_FLOWS = 2

# Parameters: (unit, allowed range, default, source).  mac80211's per-station queues use target 20 ms,
# interval 100 ms (net/mac80211/sta_info.c, sta_info_alloc; 50/300 ms for stations slower than
# STA_SLOW_THRESHOLD, not modelled), quantum 300 bytes and a limit of 8192 packets for the whole radio
# (include/net/fq_impl.h, fq_init); RFC 8289/8290 and sch_fq_codel use 5 ms, 100 ms, 1514 bytes.
PARAMS = {
    "target": ("s", "(0, interval]", 0.005, "RFC 8289 section 4.4; Linux codel_params_init"),
    "interval": ("s", "> 0", 0.100, "RFC 8289 section 4.3"),
    "quantum": ("bytes", ">= 1", 1514, "RFC 8290 section 5.2.1; sch_fq_codel (mac80211: 300)"),
    "mtu": ("bytes", ">= 0", 1514, "Linux codel_should_drop: no drop with at most one MTU waiting (mac80211: 0)"),
}


cdef class FqCoDelQueue(PacketQueue):
    """FQ-CoDel (RFC 8290) over the network's flow ids; times in seconds from `events.now`."""

    def __cinit__(self, EventQueue events, long limit, double target=0.005, double interval=0.100,
                  int quantum=1514, int mtu=1514, int n_flows=16, *args, **kwargs):
        if events is None:
            raise ValueError("CoDel needs the network's EventQueue (its clock)")
        if limit < 0:
            raise ValueError(f"queue limit must be >= 0 packets, got {limit}")
        if not interval > 0:
            raise ValueError(f"CoDel interval must be > 0 s, got {interval}")
        if not 0 < target <= interval:
            raise ValueError(f"CoDel target must be in (0, interval = {interval}] s, got {target}")
        if quantum < 1:
            raise ValueError(f"FQ-CoDel quantum must be >= 1 byte, got {quantum}")
        if mtu < 0:
            raise ValueError(f"CoDel mtu must be >= 0 bytes, got {mtu}")
        self.events = events
        self.limit = limit
        self.target = target
        self.interval = interval
        self.quantum = quantum
        self.mtu = mtu
        self.nodes = <CoDelNode*>malloc((limit + 1) * sizeof(CoDelNode))
        self.head_drops = <int*>malloc((limit + 1) * sizeof(int))
        self.flows = NULL
        self.n_flows = 0
        if self.nodes == NULL or self.head_drops == NULL:
            raise MemoryError()
        for i in range(limit + 1):
            self.nodes[i].next = i + 1 if i < limit else -1
        self.free_node = 0
        self.new_head = self.new_tail = self.old_head = self.old_tail = -1
        self._grow_flows(n_flows - 1)

    def __dealloc__(self):
        free(self.nodes)
        free(self.head_drops)
        free(self.flows)

    cdef int _grow_flows(self, int flow) except -1:
        cdef int old = self.n_flows, n = max(2 * self.n_flows, flow + 1, 1), i
        if flow >= MAX_FLOW_ID:
            raise ValueError(f"flow id must be < {MAX_FLOW_ID}, got {flow}")
        cdef CoDelFlow* fl = <CoDelFlow*>realloc(self.flows, n * sizeof(CoDelFlow))
        if fl == NULL:
            raise MemoryError()
        self.flows = fl
        for i in range(old, n):
            fl[i].head = -1
            fl[i].tail = -1
            fl[i].count = 0
            fl[i].bytes = 0
            fl[i].deficit = 0
            fl[i].in_list = IN_NO_LIST
            fl[i].next_in_list = -1
            fl[i].drops = 0
            fl[i].first_above_time = 0.0
            fl[i].drop_next = 0.0
            fl[i].cd_count = 0
            fl[i].lastcount = 0
            fl[i].dropping = False
        self.n_flows = n
        return 0

    # ------------------------------------------------------------------ the flow lists
    cdef void _list_pop_head(self, int which) noexcept:
        cdef int f
        if which == NEW_FLOWS:
            f = self.new_head
            self.new_head = self.flows[f].next_in_list
            if self.new_head < 0:
                self.new_tail = -1
        else:
            f = self.old_head
            self.old_head = self.flows[f].next_in_list
            if self.old_head < 0:
                self.old_tail = -1
        self.flows[f].next_in_list = -1
        self.flows[f].in_list = IN_NO_LIST

    cdef void _list_append(self, int which, int f) noexcept:
        self.flows[f].in_list = which
        self.flows[f].next_in_list = -1
        if which == NEW_FLOWS:
            if self.new_tail >= 0:
                self.flows[self.new_tail].next_in_list = f
            else:
                self.new_head = f
            self.new_tail = f
        else:
            if self.old_tail >= 0:
                self.flows[self.old_tail].next_in_list = f
            else:
                self.old_head = f
            self.old_tail = f

    # ------------------------------------------------------------------ per-flow FIFO
    cdef int _pop(self, int f) noexcept:
        """Take the head node off flow f's FIFO (it stays allocated); -1 if empty."""
        cdef CoDelFlow* fl = &self.flows[f]
        cdef int n = fl.head
        if n < 0:
            return -1
        fl.head = self.nodes[n].next
        if fl.head < 0:
            fl.tail = -1
        fl.count -= 1
        fl.bytes -= self.nodes[n].size
        self.count -= 1
        self.bytes -= self.nodes[n].size
        return n

    cdef void _free_node(self, int n) noexcept:
        self.nodes[n].next = self.free_node
        self.free_node = n

    cdef void _head_drop(self, int f, int n) noexcept:
        """Node n, just popped from flow f at dequeue, is dropped."""
        self.head_drops[self.n_head_drops] = self.nodes[n].pid
        self.n_head_drops += 1
        self.flows[f].drops += 1
        self.drops += 1
        self.codel_drops += 1
        self._free_node(n)

    # ------------------------------------------------------------------ CoDel (codel_impl.h)
    cdef bint _should_drop(self, int f, int n, double now) noexcept:
        """codel_should_drop: n is the popped head (or -1); the flow's backlog is without it."""
        cdef CoDelFlow* fl = &self.flows[f]
        if n < 0:
            fl.first_above_time = 0.0
            return False
        if now - self.nodes[n].enqueued < self.target or fl.bytes <= self.mtu:
            fl.first_above_time = 0.0          # went below: must stay above a whole interval again
            return False
        if fl.first_above_time == 0.0:
            fl.first_above_time = now + self.interval
            return False
        return now > fl.first_above_time

    cdef int _codel_dequeue(self, int f, double now) noexcept:
        """codel_dequeue for flow f: the node to send, or -1 (flow empty, perhaps after drops)."""
        cdef CoDelFlow* fl = &self.flows[f]
        cdef int n = self._pop(f)
        cdef bint drop
        cdef unsigned int delta
        if n < 0:
            fl.dropping = False
            return -1
        drop = self._should_drop(f, n, now)
        if fl.dropping:
            if not drop:
                fl.dropping = False            # sojourn time below target: leave the dropping state
            else:
                # a large backlog can make the next drop due at once: hence the loop
                while fl.dropping and now >= fl.drop_next:
                    fl.cd_count += 1
                    self._head_drop(f, n)
                    n = self._pop(f)
                    if not self._should_drop(f, n, now):
                        fl.dropping = False
                    else:
                        fl.drop_next = fl.drop_next + self.interval / sqrt(<double>fl.cd_count)
        elif drop:
            self._head_drop(f, n)
            n = self._pop(f)
            self._should_drop(f, n, now)       # updates first_above_time, as Linux does
            fl.dropping = True
            # RFC 8289 section 5.5: back above target soon after the last dropping state: reuse its rate
            delta = fl.cd_count - fl.lastcount
            if delta > 1 and now - fl.drop_next < 16 * self.interval:
                fl.cd_count = delta
            else:
                fl.cd_count = 1
            fl.lastcount = fl.cd_count
            fl.drop_next = now + self.interval / sqrt(<double>fl.cd_count)
        return n

    # ------------------------------------------------------------------ queue interface
    cdef int _drop_fattest(self) noexcept:
        """Drop the head packet of the flow with the most bytes waiting; returns its id."""
        cdef int f, fat = 0, n, pid
        cdef long long most = -1
        for f in range(self.n_flows):
            if self.flows[f].bytes > most:
                most, fat = self.flows[f].bytes, f
        n = self._pop(fat)
        pid = self.nodes[n].pid
        self.flows[fat].drops += 1
        self.drops += 1
        self.overlimit_drops += 1
        self._free_node(n)
        return pid

    cdef int enqueue(self, int pid, int flow, int size) except -2:
        cdef CoDelFlow* fl
        cdef int n
        self.arrivals += 1
        if self.single:
            flow = 0
        if self.limit == 0 or (self.single and self.count >= self.limit):
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
        self.nodes[n].enqueued = self.events.now
        self.nodes[n].next = -1
        if fl.tail >= 0:
            self.nodes[fl.tail].next = n
        else:
            fl.head = n
        fl.tail = n
        fl.count += 1
        fl.bytes += size
        self.count += 1
        self.bytes += size
        if fl.in_list == IN_NO_LIST:
            self._list_append(NEW_FLOWS, flow)
            fl.deficit = self.quantum
        if self.count > self.limit:
            self.last_dropped = self._drop_fattest()
        else:
            self.last_dropped = -1
        if self.count > self.max_length:
            self.max_length = self.count
        return 0 if self.last_dropped == pid else 1

    cdef int dequeue(self) except -2:
        cdef int f, n = -1, which
        cdef CoDelFlow* fl
        cdef double now = self.events.now
        self.n_head_drops = 0
        while True:
            if self.new_head >= 0:
                which, f = NEW_FLOWS, self.new_head
            elif self.old_head >= 0:
                which, f = OLD_FLOWS, self.old_head
            else:
                return -1
            fl = &self.flows[f]
            if fl.deficit <= 0 and not self.single:
                fl.deficit += self.quantum
                self._list_pop_head(which)
                self._list_append(OLD_FLOWS, f)
                continue
            n = self._codel_dequeue(f, now)
            if n >= 0:
                break
            self._list_pop_head(which)
            # an emptied new flow goes through the old list once, so new flows cannot starve old ones
            if which == NEW_FLOWS and self.old_head >= 0:
                self._list_append(OLD_FLOWS, f)
        fl.deficit -= self.nodes[n].size
        self.dequeued += 1
        self._free_node(n)
        return self.nodes[n].pid            # the freed node keeps its pid until reused

    # ------------------------------------------------------------------ Python access (tests)
    def flow_length(self, int flow):
        return self.flows[flow].count if 0 <= flow < self.n_flows else 0

    def flow_drops(self, int flow):
        return self.flows[flow].drops if 0 <= flow < self.n_flows else 0

    def dropped_at_dequeue(self):
        """Ids the last dequeue dropped (CoDel)."""
        return [self.head_drops[k] for k in range(self.n_head_drops)]

    def codel_state(self, int flow=0):
        cdef CoDelFlow* fl = &self.flows[flow]
        return {"dropping": bool(fl.dropping), "count": fl.cd_count, "lastcount": fl.lastcount,
                "drop_next": fl.drop_next, "first_above_time": fl.first_above_time}

    def stats(self):
        out = PacketQueue.stats(self)
        out.update(codel_drops=self.codel_drops, overlimit_drops=self.overlimit_drops)
        return out


cdef class CoDelQueue(FqCoDelQueue):
    """CoDel (RFC 8289) on one FIFO: Linux sch_codel; the arrival is dropped when `limit` packets wait."""

    def __cinit__(self, EventQueue events, long limit, double target=0.005, double interval=0.100,
                  int quantum=1514, int mtu=1514, int n_flows=1, *args, **kwargs):
        self.single = True
