"""The links of a packet network (rate, propagation delay, buffer), their impairments (random loss,
jitter, a queue discipline), shared media and the route table: what is set up before a run, and
`plan`, which decides once which links work out departures at arrival (simulator/net/network.pyx
docstring).  Network, the subclass, moves the packets."""
from libc.math cimport INFINITY
from libc.stdlib cimport free, malloc, realloc
from libc.string cimport memcpy

from simulator.net.impairments cimport Jitter, LossModel
from simulator.net.queue_disc cimport PacketQueue


cdef extern from "stdlib.h":
    int posix_memalign(void** ptr, size_t alignment, size_t size)


cdef Link* _aligned_links(Link* old, int n, int cap) except NULL:
    """Room for cap links, 64-byte aligned (a link's per-packet state in whole cache lines), the first n copied."""
    cdef void* p = NULL
    if sizeof(Link) % 64:
        raise RuntimeError(f"a Link takes {sizeof(Link)} bytes, not a whole number of cache lines (links.pxd)")
    if posix_memalign(&p, 64, cap * sizeof(Link)):
        raise MemoryError()
    if old != NULL:
        memcpy(p, old, n * sizeof(Link))
        free(old)
    return <Link*>p


cdef class Links:
    def __cinit__(self, *args, **kwargs):
        self.links_cap = 16
        self.links = _aligned_links(NULL, 0, self.links_cap)
        self.routes_cap, self.route_links_cap = 64, 256      # doubled as routes are added (add_route)
        self.route_links = <int*>malloc(self.route_links_cap * sizeof(int))
        self.route_start = <int*>malloc(self.routes_cap * sizeof(int))
        self.route_len = <int*>malloc(self.routes_cap * sizeof(int))
        if self.links == NULL or self.route_links == NULL or self.route_start == NULL or self.route_len == NULL:
            raise MemoryError()
        self.loss_models, self.jitters, self.queues = [], [], []
        self.impaired = NULL
        self.monitored = -1
        self.medium_of = NULL
        self.medium_next = NULL
        self.medium_busy = NULL

    def __dealloc__(self):
        if self.links != NULL:
            for i in range(self.n_links):
                free(self.links[i].ring)
                free(self.links[i].lz)
        free(self.links)
        free(self.route_links)
        free(self.route_start)
        free(self.route_len)
        free(self.impaired)
        free(self.medium_of)
        free(self.medium_next)
        free(self.medium_busy)

    def add_link(self, double rate_bps, double delay, long limit):
        """A one-way link; returns its id.  limit: packets that may wait in its buffer."""
        if rate_bps <= 0 or delay < 0 or limit < 0:
            raise ValueError(f"link needs rate > 0 bit/s, delay >= 0 s, buffer >= 0 packets "
                             f"(got {rate_bps}, {delay}, {limit})")
        if self.n_links == self.links_cap:
            self.links_cap *= 2
            self.links = _aligned_links(self.links, self.n_links, self.links_cap)
        cdef Link* l = &self.links[self.n_links]
        l.rate_bps = rate_bps
        l.delay = delay
        l.limit = limit
        # the waiting room grows on demand up to `limit` (a 2^20-packet access buffer would
        # otherwise make memory grow as the ring's head walks round it)
        l.ring_cap = min(max(limit, 1), 64)
        l.ring = <int*>malloc(l.ring_cap * sizeof(int))
        if l.ring == NULL:
            raise MemoryError()
        l.head = 0
        l.count = 0
        l.busy = False
        l.in_tx = -1
        l.drops = 0
        l.sent_pkts = 0
        l.sent_bytes = 0.0
        l.max_queue = 0
        l.wire_head = -1
        l.wire_tail = -1
        l.chain = self.n_links
        l.lazy = False
        l.eager = False
        l.merge = False
        l.pending = 0
        l.last_start = -INFINITY
        l.last_done = -INFINITY
        l.lz = NULL
        l.lz_head = 0
        l.lz_count = 0
        l.lz_cap = 0
        self.n_links += 1
        self.loss_models.append(None)
        self.jitters.append(None)
        self.queues.append(None)
        self.impaired = <unsigned char*>realloc(self.impaired, self.links_cap * sizeof(unsigned char))
        if self.impaired == NULL:
            raise MemoryError()
        self.impaired[self.n_links - 1] = 0
        return self.n_links - 1

    def set_loss(self, int link, LossModel model):
        """Random loss after serialisation on `link` (a wireless hop, a lossy cable); None: none."""
        self.loss_models[link] = model
        self.impaired[link] = (self.impaired[link] & ~1) | (1 if model is not None else 0)

    def set_jitter(self, int link, Jitter jitter):
        """Extra per-packet delay on `link`, reordering only if the Jitter allows it; None: none."""
        self.jitters[link] = jitter
        self.impaired[link] = (self.impaired[link] & ~2) | (2 if jitter is not None else 0)

    def set_queue(self, int link, PacketQueue queue):
        """Use `queue` (its own limit) as the link's waiting room instead of the DropTail ring;
        None: back to the ring.  Set before any packet uses the link."""
        if self.links[link].busy or self.links[link].count:
            raise ValueError(f"link {link}: set the queue discipline before packets use the link")
        self.queues[link] = queue
        self.impaired[link] = (self.impaired[link] & ~4) | (4 if queue is not None else 0)

    def set_medium(self, links):
        """The given links share one channel from now on (set before packets use them)."""
        links = list(links)
        if len(links) < 2 or len(set(links)) != len(links) or any(not 0 <= x < self.n_links for x in links):
            raise ValueError(f"a shared medium needs two or more distinct links (0..{self.n_links - 1}), got {links}")
        if self.medium_of == NULL:
            self.medium_of = <int*>malloc(self.n_links * sizeof(int))
            self.medium_next = <int*>malloc(self.n_links * sizeof(int))
            if self.medium_of == NULL or self.medium_next == NULL:
                raise MemoryError()
            for i in range(self.n_links):
                self.medium_of[i] = -1
        for x in links:
            if self.medium_of[x] >= 0:
                raise ValueError(f"link {x} is already on a shared medium")
            if self.links[x].busy or self.queue_length(x):
                raise ValueError(f"link {x}: set the medium before packets use the link")
        m = self.n_media
        self.n_media += 1
        self.medium_busy = <unsigned char*>realloc(self.medium_busy, self.n_media * sizeof(unsigned char))
        if self.medium_busy == NULL:
            raise MemoryError()
        self.medium_busy[m] = 0
        for i, x in enumerate(links):
            self.medium_of[x] = m
            self.medium_next[x] = links[(i + 1) % len(links)]
            self.impaired[x] |= 8
        return m

    def add_route(self, links):
        """A route over these links, in order; returns its id."""
        links = list(links)
        if not links or any(not 0 <= x < self.n_links for x in links):
            raise ValueError(f"route {links} names a link that does not exist (0..{self.n_links - 1})")
        self._route_room(len(links))
        r = self.n_routes
        self.route_start[r] = self.route_links_used
        self.route_len[r] = len(links)
        for i, x in enumerate(links):
            self.route_links[self.route_links_used + i] = x
        self.route_links_used += len(links)
        self.n_routes += 1
        return r

    def _route_room(self, int n):
        """Room for one more route of n links: the tables double, so a topology of any size fits."""
        cdef void* p
        if self.n_routes == self.routes_cap:
            p = realloc(self.route_start, 2 * self.routes_cap * sizeof(int))
            if p == NULL:
                raise MemoryError()
            self.route_start = <int*>p
            p = realloc(self.route_len, 2 * self.routes_cap * sizeof(int))
            if p == NULL:
                raise MemoryError()
            self.route_len = <int*>p
            self.routes_cap *= 2
        while self.route_links_used + n > self.route_links_cap:
            p = realloc(self.route_links, 2 * self.route_links_cap * sizeof(int))
            if p == NULL:
                raise MemoryError()
            self.route_links = <int*>p
            self.route_links_cap *= 2

    def plan(self, timed_links=(), bint eager=True):
        """Decide which links compute departures at arrival (module docstring), once everything is set up
        and before the first packet.  timed_links: the links whose rate or delay change during the run."""
        cdef int k, r, i, prev, link
        cdef Link* l
        timed = set(timed_links)
        feeders = [set() for _ in range(self.n_links)]      # -1: a host sends onto it
        for r in range(self.n_routes):
            for i in range(self.route_len[r]):
                link = self.route_links[self.route_start[r] + i]
                feeders[link].add(self.route_links[self.route_start[r] + i - 1] if i else -1)
        for k in range(self.n_links):
            l = &self.links[k]
            if l.busy or l.count or l.wire_head >= 0:
                raise ValueError(f"link {k}: plan the network before packets use it")
            l.lazy = not (self.impaired[k] & (2 | 4 | 8)) and k not in timed
            l.eager = l.merge = False
            if eager and l.lazy and len(feeders[k]) == 1:
                prev = next(iter(feeders[k]))
                # the one link before it delivers in send order: no jitter, and its delay stays fixed
                l.eager = prev >= 0 and not (self.impaired[prev] & 2) and prev not in timed
            if l.lazy and l.lz == NULL:
                l.lz_cap = min(max(l.limit, 1), 64)
                l.lz = <Waiting*>malloc(l.lz_cap * sizeof(Waiting))
                if l.lz == NULL:
                    raise MemoryError()
        for k in range(self.n_links):
            l = &self.links[k]
            # a merge link takes packets ahead of their arrival, so its queue is known only as of its last
            # arrival: not the sampled one
            if eager and l.lazy and not l.eager and self.size_floor > 0 and len(feeders[k]) > 1 and k != self.monitored:
                l.merge = self._alike_first_links(feeders[k], feeders, timed)
            # an eager link's packets propagate on the wire list of the link that feeds it (of the first
            # non-eager link up the chain): a lazy bottleneck fed by many links hands its packets to one
            # eager access link per flow, which leave those in the bottleneck's order, so one list (one
            # event in the heap) carries them all; a packet that would overtake the list's tail gets its
            # own event (Network._propagate), so the order of events is the same whatever list holds them
            link, i = k, 0
            while self.links[link].eager and i < self.n_links:
                link, i = next(iter(feeders[link])), i + 1
            self.links[k].chain = link

    def _alike_first_links(self, links, feeders, timed):
        """Whether `links` are all lazy links only hosts send onto (packets enter them at the time of the event
        sending them), with one rate and one delay, no random loss, none timed: then a packet of the smallest
        size (size_floor) sent onto an idle one reaches their next link no later, in the order of events, than
        any packet sent onto any of them later (Network._depart)."""
        if any(f < 0 or feeders[f] != {-1} or f in timed or self.impaired[f] or not self.links[f].lazy for f in links):
            return False
        return len({(self.links[f].rate_bps, self.links[f].delay) for f in links}) == 1

    def link_modes(self):
        """Per link: 'events' (two per packet), 'lazy' or 'eager' (see plan)."""
        return ["eager" if self.links[k].eager else "merge" if self.links[k].merge else "lazy" if self.links[k].lazy
                else "events"
                for k in range(self.n_links)]

    def set_rate(self, int link, double rate_bps):
        if self.links[link].lazy:
            raise ValueError(f"link {link}: its rate changes during the run, so plan() must name it in timed_links")
        if rate_bps <= 0:
            raise ValueError(f"link rate must be > 0 bit/s, got {rate_bps}")
        self.links[link].rate_bps = rate_bps

    def set_delay(self, int link, double delay):
        if self.links[link].lazy:
            raise ValueError(f"link {link}: its delay changes during the run, so plan() must name it in timed_links")
        if delay < 0:
            raise ValueError(f"link delay must be >= 0 s, got {delay}")
        self.links[link].delay = delay

    def link_stats(self, int link, double now=INFINITY):
        """Counters of one link; a lazy link counts a packet sent (or dropped) once it has decided its fate,
        which may be before `now`."""
        cdef Link* l = &self.links[link]
        q = self.queues[link]
        return {"drops": l.drops, "sent_pkts": l.sent_pkts, "sent_bytes": l.sent_bytes,
                "max_queue": q.max_length if q is not None else l.max_queue,
                "queue": self.queue_length(link, now), "rate_bps": l.rate_bps, "delay": l.delay}

    cpdef long queue_length(self, int link, double now=INFINITY):
        """Packets waiting at `link` at time `now` (the one serialising not counted); for a lazy link those
        arrived before `now` and starting at or after it, as a sample taken at `now` saw them when links had
        events of their own (scheduled earlier than a simultaneous arrival or start, the sample came first);
        INFINITY: as of the last arrival it took."""
        cdef Link* l = &self.links[link]
        cdef long k, n = 0
        cdef long slot
        if self.impaired[link] & 4:
            return (<PacketQueue>self.queues[link]).count
        if not l.lazy:
            return l.count
        for k in range(l.lz_count):
            slot = (l.lz_head + k) % l.lz_cap
            if now == INFINITY or (l.lz[slot].arrival < now <= l.lz[slot].start):
                n += 1
        return n
