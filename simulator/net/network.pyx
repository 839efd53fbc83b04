"""Packet network: links (bit rate, propagation delay, buffer in packets) and static routes.

A link's waiting room is a DropTail ring by default; `set_queue` replaces it with any
`PacketQueue` (simulator/net/queue_disc.pyx: FIFO, per-flow DRR fair queueing, later RED/CoDel).
`set_medium` makes links share one half-duplex channel (a Wi-Fi network): only one of them
transmits at a time, and when the channel frees the next member with a waiting packet (round
robin, starting after the link that just finished) takes it.

A packet is a C struct in a pool (no Python object per packet).  Sending puts it on the first
link of its flow's route (data and ACKs have separate routes); at the far end of each link it
goes on to the next, or is handed back to the model when the route ends.  Link rates and delays
may change during a run (set_rate / set_delay): a packet already serialising keeps its timing.

Departures computed at arrival (`plan`, called once routes, impairments and the links whose rate or delay
change during the run are known): a DropTail link without jitter, discipline or medium whose rate and delay
stay fixed knows each packet's departure when it arrives (the later of its arrival and the previous
departure, plus its serialisation), so it needs no event for the end of a serialisation: such a link is
"lazy", and counts its waiting packets from their start times when deciding a drop.  A lazy link fed by one
link only (never the first link of a route) sees its packets in the order that link sends them, so it is
"eager": it takes each packet at once when the link before it sends it, with no arrival event of its own
(a dumbbell's access links, and the bottleneck of a one-flow path).  A packet an eager link drops is
reported when it would have arrived there, as before.  Every event still takes its place among simultaneous
ones by when it would have been scheduled with an event per step (simulator/core/events.pyx), and a lazy
link decides a tie between an arrival and the end of a serialisation the same way, so results are those of
one event per step, except where that ties too (two packets leaving two links at the same instant having
started there at the same instant: mirror-image flows of an NS-2 mesh), where the order may differ.
A lazy link fed by several first links of one rate and one delay (a dumbbell's bottleneck, fed by every
flow's access link) is a "merge" link, once the model has said which size no packet is smaller than
(`size_floor`) and unless it is the sampled one (`monitored`): a packet of that smallest size sent onto an idle
one of those links reaches it no sooner than anything sent later (which starts no sooner, takes no less time
and as long a wire; a tie goes by when scheduled, the earlier), so when no packet is on its way to it by an
arrival event the merge link takes it at once, as an eager link would, in the order its arrival events would
have given (a dumbbell's reverse bottleneck, for its ACKs; not the forward one, whose queue is sampled).
Without `plan` every link takes two events per packet (the unit tests of that path).

Propagation: packets leave a wire in the order they entered it (a constant delay), so each link
keeps its propagating packets in a list threaded through the packet pool and only the list's head
has an arrival event queued (as htsim's pipes do).  Each packet's event keeps the tie order it
would have had if queued when it left the link (EventQueue.reserve), so events are processed in
exactly the same order as with one event per packet.  A packet that would overtake the list's tail
(jitter, or a delay cut mid-run) gets its own event instead.  An eager link's packets go on the list of the
link feeding it (Links.plan): the eager access links behind a bottleneck fed by many flows share one list,
so the heap holds one event for all the packets the bottleneck has queued, not one per flow.
"""
from libc.math cimport INFINITY
from libc.stdlib cimport free, malloc, realloc
from libc.string cimport memcpy

from simulator.core.events cimport EventQueue
from simulator.net.impairments cimport Jitter, LossModel
from simulator.net.queue_disc cimport PacketQueue


cdef int _grow(void** ring, long* cap, long* head, long count, long limit, size_t size) except -1:
    """Double a full ring of `count` items of `size` bytes (to at most `limit`), keeping their order."""
    cdef long new_cap = min(2 * cap[0], limit), k
    cdef char* old = <char*>ring[0]
    cdef char* grown = <char*>malloc(new_cap * size)
    if grown == NULL:
        raise MemoryError()
    for k in range(count):
        memcpy(grown + k * size, old + ((head[0] + k) % cap[0]) * size, size)
    free(old)
    ring[0], cap[0], head[0] = grown, new_cap, 0
    return 0


cdef class Network(Links):
    """Packets (C structs in a pool) crossing the links and routes of Links (simulator/net/links.pyx)."""

    def __cinit__(self, EventQueue events, int ev_done, int ev_arrive, int n_flows):
        # Links.__cinit__ has run: the link and route tables exist
        self.events = events
        self.ev_done = ev_done
        self.ev_arrive = ev_arrive
        self.pkts_cap = 1024
        self.pkts = <Packet*>malloc(self.pkts_cap * sizeof(Packet))
        self.n_flows = n_flows
        self.flow_route = <int*>malloc(max(2 * n_flows, 1) * sizeof(int))
        self.pushed_out = <long long*>malloc(max(n_flows, 1) * sizeof(long long))
        if self.pkts == NULL or self.flow_route == NULL or self.pushed_out == NULL:
            raise MemoryError()
        for i in range(self.pkts_cap):
            self.pkts[i].next_free = i + 1 if i + 1 < self.pkts_cap else -1
        self.free_head = 0
        for i in range(2 * n_flows):
            self.flow_route[i] = -1
        for i in range(n_flows):
            self.pushed_out[i] = 0

    def __dealloc__(self):
        free(self.pkts)
        free(self.flow_route)
        free(self.pushed_out)

    def pushed_out_drops(self, int flow):
        """Packets of `flow` that a queue discipline dropped from its buffer to admit another."""
        return self.pushed_out[flow]

    def set_route(self, int flow, int kind, links):
        """The links a flow's data (kind 0) or ACK (kind 1) packets cross, in order."""
        self.flow_route[2 * flow + kind] = self.add_route(links)

    def use_route(self, int flow, int kind, int route):
        """Send flow's data (kind 0) or ACK (kind 1) packets over route `route` (add_route's id): an open-loop
        run gives each arriving flow a slot and its class's routes, added once before plan()."""
        if not 0 <= flow < self.n_flows or not 0 <= route < self.n_routes:
            raise ValueError(f"flow {flow} or route {route} out of range ({self.n_flows} flows, {self.n_routes} routes)")
        self.flow_route[2 * flow + kind] = route

    def ensure_flows(self, int n):
        """Room for flows 0 .. n-1 (an open-loop run's slots grow with the flows active at once)."""
        cdef int old = self.n_flows, i
        if n <= old:
            return
        fr = <int*>realloc(self.flow_route, 2 * n * sizeof(int))
        po = <long long*>realloc(self.pushed_out, n * sizeof(long long))
        if fr == NULL or po == NULL:
            raise MemoryError()
        self.flow_route, self.pushed_out, self.n_flows = fr, po, n
        for i in range(2 * old, 2 * n):
            self.flow_route[i] = -1
        for i in range(old, n):
            self.pushed_out[i] = 0

    # ------------------------------------------------------------------ packets
    cdef int new_packet(self, int flow, int kind, long long seq, long long sack, double ts,
                        int size) except -1:
        cdef int pid, i, old
        if self.free_head < 0:
            old = self.pkts_cap
            self.pkts_cap *= 2
            self.pkts = <Packet*>realloc(self.pkts, self.pkts_cap * sizeof(Packet))
            if self.pkts == NULL:
                raise MemoryError()
            for i in range(old, self.pkts_cap):
                self.pkts[i].next_free = i + 1 if i + 1 < self.pkts_cap else -1
            self.free_head = old
        pid = self.free_head
        self.free_head = self.pkts[pid].next_free
        cdef Packet* p = &self.pkts[pid]
        p.flow = flow
        p.kind = kind
        p.hop = 0
        p.size = size
        p.seq = seq
        p.sack = sack
        p.ts = ts
        p.wire_link = -1
        p.retries = 0
        self.in_network += 1
        return pid

    cdef void free_packet(self, int pid) noexcept:
        self.pkts[pid].next_free = self.free_head
        self.free_head = pid
        self.in_network -= 1

    cdef int send(self, int pid, double now) except -2:
        """Put a new packet on the first link of its route; returns 1 if queued, 0 if dropped."""
        cdef Packet* p = &self.pkts[pid]
        cdef int r = self.flow_route[2 * p.flow + p.kind]
        cdef int link = self.route_links[self.route_start[r]]
        p.hop = 0
        if self.links[link].lazy:
            return self._lazy_hop(link, pid, now, self.events.now_born)
        return self._enqueue(link, pid, now)

    cdef void _start(self, int link, int pid, double now) except *:
        """Serialise pid on link now (the link, and its medium if any, become busy)."""
        cdef Link* l = &self.links[link]
        l.busy = True
        l.in_tx = pid
        if self.impaired[link] & 8:
            self.medium_busy[self.medium_of[link]] = 1
        self.events.push(now + self.pkts[pid].size * 8.0 / l.rate_bps, self.ev_done, link)

    cdef int _dequeue(self, int link) except -2:
        """The link's next waiting packet (removed from its queue), or -1."""
        cdef Link* l = &self.links[link]
        cdef int pid
        cdef PacketQueue q
        if self.impaired[link] & 4:
            q = <PacketQueue>self.queues[link]
            pid = q.dequeue()
            if q.n_head_drops:
                self._free_head_drops(link, q)
            return pid
        if l.count == 0:
            return -1
        pid = l.ring[l.head]
        l.head += 1
        if l.head == l.ring_cap:
            l.head = 0
        l.count -= 1
        return pid

    cdef int _enqueue(self, int link, int pid, double now) except -2:
        cdef Link* l = &self.links[link]
        # a free medium has no waiting packets on any member (link_done hands it on at once)
        if not l.busy and not (self.impaired[link] & 8 and self.medium_busy[self.medium_of[link]]):
            self._start(link, pid, now)
            return 1
        return self._wait(link, pid)

    cdef int _wait(self, int link, int pid) except -2:
        """Into the link's waiting room (its discipline, or the DropTail ring): 1, or 0 if refused."""
        cdef Link* l = &self.links[link]
        cdef long slot
        if self.impaired[link] & 4:
            return self._enqueue_disc(link, pid)
        if l.count >= l.limit:
            l.drops += 1
            return 0                         # caller accounts for the drop and frees the packet
        if l.count == l.ring_cap:
            self._grow_ring(l)
        slot = l.head + l.count
        if slot >= l.ring_cap:
            slot -= l.ring_cap
        l.ring[slot] = pid
        l.count += 1
        if l.count > l.max_queue:
            l.max_queue = l.count
        return 1

    cdef int _grow_ring(self, Link* l) except -1:
        """Double a full waiting room (at most its limit), keeping the packets' order."""
        return _grow(<void**>&l.ring, &l.ring_cap, &l.head, l.count, l.limit, sizeof(int))

    cdef int _enqueue_disc(self, int link, int pid) except -2:
        """Enqueue into the link's own discipline; a packet it pushes out is freed here."""
        cdef PacketQueue q = <PacketQueue>self.queues[link]
        cdef Packet* p = &self.pkts[pid]
        cdef int accepted = q.enqueue(pid, p.flow, p.size)
        cdef int victim = q.last_dropped
        if victim >= 0:
            self.links[link].drops += 1
            if victim != pid:
                self.pushed_out[self.pkts[victim].flow] += 1
                self.free_packet(victim)
        return accepted

    cdef int _free_head_drops(self, int link, PacketQueue q) except -1:
        """Packets the discipline dropped at dequeue (CoDel) count as the link's drops and their flows'."""
        cdef long k
        cdef int victim
        for k in range(q.n_head_drops):
            victim = q.head_drops[k]
            self.links[link].drops += 1
            self.pushed_out[self.pkts[victim].flow] += 1
            self.free_packet(victim)
        return 0

    cdef int link_done(self, int link, double now) except -1:
        """Serialisation of the link's current packet ends: it propagates; the next one starts."""
        cdef Link* l = &self.links[link]
        cdef int pid = l.in_tx
        self._depart(link, pid, now)
        l.busy = False
        l.in_tx = -1
        cdef int nxt, k
        if not self.impaired[link] & 8:
            nxt = self._dequeue(link)
            if nxt >= 0:
                self._start(link, nxt, now)
            return 0
        self.medium_busy[self.medium_of[link]] = 0
        k = link
        while True:                          # round robin: the members after this link first
            k = self.medium_next[k]
            nxt = self._dequeue(k)
            if nxt >= 0:
                self._start(k, nxt, now)
                break
            if k == link:
                break
        return 0

    cdef int _depart(self, int link, int pid, double done) except -1:
        """pid has been serialised on link at `done` (now, or ahead of time on a lazy link): it may be lost
        on the wire; else it propagates, straight into the next link if that one is eager."""
        cdef Link* l = &self.links[link]
        cdef Packet* p = &self.pkts[pid]
        cdef double arrival = done + l.delay
        cdef int r, nxt
        l.sent_pkts += 1
        l.sent_bytes += p.size
        if self.impaired[link] & 1 and (<LossModel>self.loss_models[link]).drop():
            self.random_losses += 1
            p.hop = -2                       # lost on the wire: arrive() reports it as dropped
            return self._propagate(link, pid, arrival, done)
        if self.impaired[link] & 2:
            arrival = (<Jitter>self.jitters[link]).arrival_time(arrival)
        r = self.flow_route[2 * p.flow + p.kind]
        if p.hop + 1 < self.route_len[r]:
            nxt = self.route_links[self.route_start[r] + p.hop + 1]
            if self.links[nxt].eager or (self.links[nxt].merge and self._first_in(link, nxt, p.size)):
                p.hop += 1
                if self._lazy_hop(nxt, pid, arrival, done):
                    return 0
                p.hop = -2                   # no room at nxt: reported when it would have arrived there
            elif self.links[nxt].merge:
                self.links[nxt].pending += 1
        return self._propagate(link, pid, arrival, done)

    cdef bint _first_in(self, int link, int nxt, int size) noexcept:
        """Whether merge link nxt may take at once a packet of `size` that link (one of its alike first links,
        Links.plan) sends: it started there at once (the link was idle) and is of the smallest size, so whatever is
        sent later reaches nxt no sooner, or as soon but scheduled no earlier (ties go by when scheduled), and no
        packet is on its way to nxt by an event: nxt takes its packets in the order arrival events would give."""
        return (size <= self.size_floor and self.links[nxt].pending == 0
                and self.links[link].last_start == self.events.now)

    cdef int _lazy_hop(self, int link, int pid, double arrival, double born) except -2:
        """pid reaches lazy `link` at `arrival` (now, or ahead of time if it is eager), handed on by an event
        scheduled at `born`: 1 if it is taken (its departure decided and passed on), 0 if the buffer is full
        (the caller accounts for the drop).  At a tie, a serialisation ends before this arrival if the event
        that would end it was scheduled no later, as events are ordered (simulator/core/events.pyx)."""
        cdef Link* l = &self.links[link]
        cdef Waiting* w
        cdef double start = arrival
        while l.lz_count:                    # those that started by now no longer wait
            w = &l.lz[l.lz_head]
            if w.start > arrival or (w.start == arrival and w.ahead_start > born):
                break
            l.lz_head += 1
            if l.lz_head == l.lz_cap:
                l.lz_head = 0
            l.lz_count -= 1
        if l.last_done > arrival or (l.last_done == arrival and l.last_start > born):   # busy
            if l.lz_count >= l.limit:
                l.drops += 1
                return 0
            start = l.last_done
            self._wait_lazily(l, arrival, start)
        l.last_start = start
        l.last_done = start + self.pkts[pid].size * 8.0 / l.rate_bps
        self._depart(link, pid, l.last_done)
        return 1

    cdef int _wait_lazily(self, Link* l, double arrival, double start) except -1:
        """Append a waiting packet to the lazy link's ring (grown up to its limit)."""
        cdef long slot
        if l.lz_count == l.lz_cap:
            _grow(<void**>&l.lz, &l.lz_cap, &l.lz_head, l.lz_count, l.limit, sizeof(Waiting))
        slot = l.lz_head + l.lz_count
        if slot >= l.lz_cap:
            slot -= l.lz_cap
        l.lz[slot].arrival = arrival
        l.lz[slot].start = start
        l.lz[slot].ahead_start = l.last_start
        l.lz_count += 1
        if l.lz_count > l.max_queue:
            l.max_queue = l.lz_count
        return 0

    cdef int _propagate(self, int link, int pid, double arrival, double born) except -1:
        """pid enters the wire of link at `born` (its departure), to reach its far end at `arrival`; it joins
        the tail of the wire list of link's chain (Links.plan) unless it would come before that tail in the
        event order (time, when scheduled), then it gets an event of its own."""
        cdef int chain = self.links[link].chain
        cdef Link* l = &self.links[chain]
        cdef Packet* p = &self.pkts[pid]
        cdef Packet* tail
        cdef long long seq = self.events.reserve()
        if l.wire_head >= 0:
            tail = &self.pkts[l.wire_tail]
            if arrival < tail.wire_arrival or (arrival == tail.wire_arrival and born < tail.wire_born):
                p.wire_link = -1                 # overtakes the wire's tail: an event of its own
                return self.events.push_seq(arrival, self.ev_arrive, pid, seq, born)
        p.wire_link = chain
        p.wire_next = -1
        p.wire_arrival = arrival
        p.wire_seq = seq
        p.wire_born = born
        if l.wire_head < 0:
            l.wire_head = pid
            self.events.push_seq(arrival, self.ev_arrive, pid, seq, born)
        else:
            self.pkts[l.wire_tail].wire_next = pid
        l.wire_tail = pid
        return 0

    cdef void _leave_wire(self, int pid) except *:
        """pid, the head of its link's wire, arrives: the next one on that wire gets its event."""
        cdef Link* l = &self.links[self.pkts[pid].wire_link]
        cdef int nxt = self.pkts[pid].wire_next
        self.pkts[pid].wire_link = -1
        l.wire_head = nxt
        if nxt < 0:
            l.wire_tail = -1
        else:
            self.events.push_seq(self.pkts[nxt].wire_arrival, self.ev_arrive, nxt, self.pkts[nxt].wire_seq,
                                 self.pkts[nxt].wire_born)

    cdef int arrive(self, int pid, double now) except -2:
        """A packet reaches the far end of its current link.  Returns -1 if it went on to the next
        link, 0 if it was dropped there (freed), 1 if its route ended (the model takes it)."""
        cdef Packet* p = &self.pkts[pid]
        cdef int r = self.flow_route[2 * p.flow + p.kind]
        if p.wire_link >= 0:
            self._leave_wire(pid)
        if p.hop == -2:
            return 0                         # lost on the wire (a link's loss model)
        p.hop += 1
        if p.hop >= self.route_len[r]:
            return 1
        cdef int link = self.route_links[self.route_start[r] + p.hop]
        if self.links[link].merge:
            self.links[link].pending -= 1
        if (self._lazy_hop(link, pid, now, self.events.now_born) if self.links[link].lazy
                else self._enqueue(link, pid, now)):
            return -1
        return 0

    # Python access for unit tests (a model drives these through the cdef methods)
    def py_send(self, int flow, int kind, long long seq, double now, int size):
        cdef int pid = self.new_packet(flow, kind, seq, -1, now, size)
        if self.send(pid, now):
            return 1
        self.free_packet(pid)
        return 0

    def py_link_done(self, int link, double now):
        self.link_done(link, now)

    def py_arrive(self, int pid, double now):
        cdef int r = self.arrive(pid, now)
        if r == 0:
            self.free_packet(pid)
        return r

    def py_packet(self, int pid):
        """(flow, seq) of a packet."""
        return self.pkts[pid].flow, self.pkts[pid].seq

    def py_free(self, int pid):
        self.free_packet(pid)
