# The links of a packet network, their settings and the route table (simulator/net/links.pyx);
# the packets that cross them: simulator/net/network.pxd.
from simulator.net.queue_disc cimport PacketQueue


cdef struct Waiting:
    # a packet waiting at a lazy link (see Network.plan)
    double arrival      # when it arrived
    double start        # when its serialisation starts (the one ahead of it ends)
    double ahead_start  # when the one ahead of it started: the event that would end it was scheduled then


cdef struct Link:
    # laid out for many flows (a link per flow, direction and side, each touched about once per packet): what a
    # lazy link reads and writes per packet in the first 64 bytes, the rest of its per-packet state in the next
    # 64, the waiting room of a link with events after that; Links allocates them 64-byte aligned
    double rate_bps
    double delay
    # a FIFO DropTail link whose rate and delay stay fixed (Network.plan) computes each packet's departure
    # when it arrives: no event for the end of its serialisation ("lazy")
    double last_start   # when the last packet it accepted starts serialising ...
    double last_done    # ... and finishes
    Waiting* lz         # the accepted packets that still wait, in order (a ring)
    long lz_head, lz_count
    long long sent_pkts
    # -- 64 bytes
    double sent_bytes
    long limit          # packets that may wait (the one being serialised not counted)
    long long drops
    long max_queue
    long lz_cap
    long pending        # merge: packets on their way to it by an arrival event
    # packets propagating on the wire in arrival order: only the head has an event queued, so
    # the event heap holds O(links + timers) entries, not O(packets in flight)
    int wire_head, wire_tail
    int chain           # the link whose wire list carries this link's propagating packets (itself, or see plan)
    unsigned char lazy
    unsigned char eager # lazy, fed in order by one link only: taken at once when that link sends (no arrival event)
    unsigned char merge # lazy, fed by several alike first links (Links.plan): takes at once a packet that nothing
                        # sent later can overtake (Network._depart), else by an arrival event
    # -- 64 bytes
    int* ring           # waiting packet ids
    long ring_cap       # its allocated size (grows up to limit)
    long head, count
    int in_tx           # packet being serialised
    unsigned char busy
    char pad[27]        # to 192 bytes: each link starts a cache line


cdef class Links:
    """The links (rate, delay, buffer, waiting room), their impairments and shared media, and the
    route table: set up before the run; Network (simulator/net/network.pyx) moves packets over them."""
    cdef Link* links
    cdef int n_links, links_cap
    # routes: route_links[route_start[r] : route_start[r] + route_len[r]]
    cdef int* route_links
    cdef int* route_start
    cdef int* route_len
    cdef int n_routes, route_links_used, routes_cap, route_links_cap
    # optional impairments per link (None: none); a Python list keeps the objects alive
    cdef list loss_models, jitters, queues
    cdef unsigned char* impaired    # per link: 1 loss, 2 jitter, 4 own queue discipline, 8 shared medium
    # shared media (a Wi-Fi channel): links of one medium transmit one at a time, round robin
    cdef int* medium_of             # per link: medium id or -1
    cdef int* medium_next           # per link: next member of its medium (a circle)
    cdef unsigned char* medium_busy # per medium
    cdef int n_media
    cdef public int size_floor      # no packet is smaller (bytes; the model says so before plan): 0, unknown
    cdef public int monitored       # the link whose queue the model samples (never a merge link), or -1

    cpdef long queue_length(self, int link, double now=*)
