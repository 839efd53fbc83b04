from simulator.core.events cimport EventQueue
from simulator.net.impairments cimport Jitter, LossModel
from simulator.net.links cimport Link, Links, Waiting
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
    int retries         # transmissions that failed on a Wi-Fi hop (simulator/net/wifi_network.pyx)
    # on a wire behind other packets of the same link (see Link.wire_head)
    int wire_link       # the link whose wire queue holds it, or -1
    int wire_next       # the packet behind it on that wire, or -1
    double wire_arrival # when it reaches the far end
    long long wire_seq  # its place in the event order, taken when it left the link ...
    double wire_born    # ... and when that was (its departure, which a lazy link works out ahead)


cdef class Network(Links):
    """Links with a rate, a propagation delay and a DropTail FIFO; packets follow static routes.

    Passive: the model feeds it the events it scheduled (EV_LINK_DONE with the link id,
    EV_ARRIVE with the packet id) and handles the packets it delivers to end points.
    """
    cdef EventQueue events
    cdef int ev_done, ev_arrive
    cdef Packet* pkts
    cdef int pkts_cap, free_head
    cdef readonly long long in_network          # packets alive (queued, serialising, propagating)
    cdef int* flow_route            # per flow and kind: route id (2 * flow + kind)
    cdef int n_flows
    cdef readonly long long random_losses
    cdef long long* pushed_out      # per flow: queued packets a discipline dropped (to admit another, or at dequeue)

    cdef int new_packet(self, int flow, int kind, long long seq, long long sack, double ts,
                        int size) except -1
    cdef void free_packet(self, int pid) noexcept
    cdef int send(self, int pid, double now) except -2
    cdef int link_done(self, int link, double now) except -1
    cdef int arrive(self, int pid, double now) except -2
    cdef int _propagate(self, int link, int pid, double arrival, double born) except -1
    cdef int _depart(self, int link, int pid, double done) except -1
    cdef int _lazy_hop(self, int link, int pid, double arrival, double born) except -2
    cdef bint _first_in(self, int link, int nxt, int size) noexcept
    cdef int _wait_lazily(self, Link* l, double arrival, double start) except -1
    cdef void _leave_wire(self, int pid) except *
    cdef int _enqueue(self, int link, int pid, double now) except -2
    cdef int _wait(self, int link, int pid) except -2
    cdef int _grow_ring(self, Link* l) except -1
    cdef int _enqueue_disc(self, int link, int pid) except -2
    cdef void _start(self, int link, int pid, double now) except *
    cdef int _dequeue(self, int link) except -2
    cdef int _free_head_drops(self, int link, PacketQueue q) except -1
