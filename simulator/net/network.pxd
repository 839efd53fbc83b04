from simulator.core.events cimport EventQueue
from simulator.net.impairments cimport Jitter, LossModel
from simulator.net.queue_disc cimport PacketQueue

cdef enum:
    PKT_DATA = 0
    PKT_ACK = 1


cdef struct Packet:
    int flow
    int kind            # PKT_DATA or PKT_ACK
    int hop             # index of the link it is on (or travelling from) in its route
    int size            # bytes on the wire
    long long seq       # data: sequence number (packets); ack: cumulative ACK
    long long sack      # ack: a sequence number received above the cumulative ACK, or -1
    double ts           # data: timestamp (send time); ack: echoed timestamp
    int next_free       # free-list link while unused
    # on a wire behind other packets of the same link (see Link.wire_head)
    int wire_link       # the link whose wire queue holds it, or -1
    int wire_next       # the packet behind it on that wire, or -1
    double wire_arrival # when it reaches the far end
    long long wire_seq  # its place in the event order, taken when it left the link ...
    double wire_born    # ... and when that was (its departure, which a lazy link works out ahead)


cdef struct Waiting:
    # a packet waiting at a lazy link (see Network.plan)
    double arrival      # when it arrived
    double start        # when its serialisation starts (the one ahead of it ends)
    double ahead_start  # when the one ahead of it started: the event that would end it was scheduled then


cdef struct Link:
    double rate_bps
    double delay
    long limit          # packets that may wait (the one being serialised not counted)
    int* ring           # waiting packet ids
    long ring_cap       # its allocated size (grows up to limit)
    long head, count
    bint busy
    int in_tx           # packet being serialised
    long long drops, sent_pkts
    double sent_bytes
    long max_queue
    # packets propagating on the wire in arrival order: only the head has an event queued, so
    # the event heap holds O(links + timers) entries, not O(packets in flight)
    int wire_head, wire_tail
    # a FIFO DropTail link whose rate and delay stay fixed (Network.plan) computes each packet's departure
    # when it arrives: no event for the end of its serialisation ("lazy")
    bint lazy
    bint eager          # lazy, fed in order by one link only: taken at once when that link sends (no arrival event)
    double last_start   # when the last packet it accepted starts serialising ...
    double last_done    # ... and finishes
    Waiting* lz         # the accepted packets that still wait, in order (a ring)
    long lz_head, lz_count, lz_cap


cdef class Network:
    """Links with a rate, a propagation delay and a DropTail FIFO; packets follow static routes.

    Passive: the model feeds it the events it scheduled (EV_LINK_DONE with the link id,
    EV_ARRIVE with the packet id) and handles the packets it delivers to end points.
    """
    cdef EventQueue events
    cdef int ev_done, ev_arrive
    cdef Link* links
    cdef int n_links, links_cap
    cdef Packet* pkts
    cdef int pkts_cap, free_head
    cdef readonly long long in_network          # packets alive (queued, serialising, propagating)
    # routes: route_links[route_start[r] : route_start[r] + route_len[r]]
    cdef int* route_links
    cdef int* route_start
    cdef int* route_len
    cdef int n_routes, route_links_used
    cdef int* flow_route            # per flow and kind: route id (2 * flow + kind)
    cdef int n_flows
    # optional impairments per link (None: none); a Python list keeps the objects alive
    cdef list loss_models, jitters, queues
    cdef unsigned char* impaired    # per link: 1 loss, 2 jitter, 4 own queue discipline, 8 shared medium
    cdef readonly long long random_losses
    cdef long long* pushed_out      # per flow: queued packets a discipline dropped to admit another
    # shared media (a Wi-Fi channel): links of one medium transmit one at a time, round robin
    cdef int* medium_of             # per link: medium id or -1
    cdef int* medium_next           # per link: next member of its medium (a circle)
    cdef unsigned char* medium_busy # per medium
    cdef int n_media

    cdef int new_packet(self, int flow, int kind, long long seq, long long sack, double ts,
                        int size) except -1
    cdef void free_packet(self, int pid) noexcept
    cdef int send(self, int pid, double now) except -2
    cdef int link_done(self, int link, double now) except -1
    cdef int arrive(self, int pid, double now) except -2
    cdef int _propagate(self, int link, int pid, double arrival, double born) except -1
    cdef int _depart(self, int link, int pid, double done) except -1
    cdef int _lazy_hop(self, int link, int pid, double arrival, double born) except -2
    cdef int _wait_lazily(self, Link* l, double arrival, double start) except -1
    cdef void _leave_wire(self, int pid) except *
    cdef int _enqueue(self, int link, int pid, double now) except -2
    cdef int _grow_ring(self, Link* l) except -1
    cdef int _enqueue_disc(self, int link, int pid) except -2
    cdef void _start(self, int link, int pid, double now) except *
    cdef int _dequeue(self, int link) except -2
    cpdef long queue_length(self, int link, double now=*)
