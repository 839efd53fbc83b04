# The open-loop model's state (simulator/models/openloop_model.pyx). Flows live in slots: a slot is taken
# when a flow arrives and given back once the flow has finished and none of its packets is left in the
# network, so per-flow state follows the flows active at once, not the flows of the run.
from simulator.core.events cimport EventQueue
from simulator.net.network cimport Network, Packet
from simulator.tcp.sack_receiver cimport SackReceiver


cdef enum:
    OL_LINK_DONE = 0
    OL_ARRIVE = 1
    OL_FLOW = 2          # a flow of class `data` arrives (open loop) or starts (long-lived)
    OL_RTO = 3
    OL_DELACK = 4
    OL_PACE = 5
    OL_SYN = 6
    OL_SAMPLE = 7
    OL_END = 8

cdef enum:
    SLOT_FREE = 0
    SLOT_ACTIVE = 1
    SLOT_DONE = 2        # all data received; waiting for its last packets to leave the network


cdef class OpenLoopModel:
    cdef str key
    cdef readonly Network net
    cdef EventQueue events
    cdef double duration, warmup, sample_interval, syn_timeout
    cdef int data_size, ack_size, monitor
    cdef dict tcp
    cdef list classes              # per class: dict (routes, controller factory, workload, ideal-FCT terms)
    cdef list class_rng            # per class: its Stream (arrival gaps and sizes)
    cdef long long[::1] class_left # per class: long-lived flows still to start / trace arrivals still to come
    # per slot
    cdef public list senders, receivers
    cdef int n_slots
    cdef list free_slots
    cdef unsigned char[::1] state, syn_wait
    cdef int[::1] cls
    cdef long long[::1] size, serial, created, freed, syn_tries
    cdef double[::1] born, rto_scheduled, delack_scheduled, pace_scheduled, syn_deadline
    # finished flows (growing rows): class, size (packets), arrival, completion time
    cdef object done
    cdef long long n_done, n_arrived, peak_active, n_active
    cdef object queue_samples
    cdef long n_rows

    cdef int grow_slots(self) except -1
    cdef int arrive_flow(self, int c, long long packets, double now) except -1
    cdef void transmit(self, int slot, long long seq, double now) except *
    cdef void send_loop(self, int slot, double now) except *
    cdef void send_syn(self, int slot, double now) except *
    cdef void send_ack(self, int slot, SackReceiver rcv, double now) except *
    cdef void deliver(self, int pid, double now) except *
    cdef void finished(self, int slot, double now) except *
    cdef void release_if_clear(self, int slot) except *
    cdef void free_pkt(self, int pid) noexcept
