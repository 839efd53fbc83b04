# The flow model's state (simulator/models/flow_model.pyx): declared here so the event loop's file
# holds only its behaviour. Per-flow state is in typed arrays indexed by flow number.
from simulator.core.events cimport EventQueue
from simulator.core.quantiles cimport IntHistogram, LogHistogram
from simulator.net.network cimport Network, Packet
from simulator.tcp.sack_receiver cimport SackReceiver


cdef enum:
    EV_LINK_DONE = 0
    EV_ARRIVE = 1
    EV_START = 2
    EV_RTO = 3
    EV_DELACK = 4
    EV_PACE = 5
    EV_SCHED = 6
    EV_SAMPLE = 7
    EV_END = 8
    EV_STOP = 9
    EV_UDP = 10
    EV_PROBE = 11
    EV_SYN = 12

cdef enum:
    FLOW_TCP = 0
    FLOW_UDP = 1
    FLOW_PROBE = 2


cdef class FlowModel:
    cdef str key
    cdef int n
    cdef public list senders, receivers
    cdef Network net
    cdef EventQueue events
    cdef int bottleneck_fwd, bottleneck_rev
    cdef double duration, start_interval, sample_interval
    cdef list start_times
    cdef int data_size, ack_size
    cdef list schedule
    cdef double[::1] rto_scheduled, delack_scheduled, pace_scheduled
    cdef long long[::1] data_drops
    cdef object samples           # float64 rows (sample), preallocated for the run
    cdef long n_rows
    cdef long long acks_sent
    # event-sampled distributions, as the authors log at every cwnd change: every k-th ACK from
    # event_from on, kept as histograms (fixed memory however long the run)
    cdef int event_every
    cdef double event_from
    cdef long long acks_seen
    cdef LogHistogram ev_rtt
    cdef IntHistogram ev_inflight
    # classic (NS-2 style) senders, stop times, per-flow counters for the time series
    cdef unsigned char[::1] classic, stopped, kind
    cdef list stop_times
    cdef long long[::1] sent_count
    cdef double[::1] delay_sum, delay_max
    cdef long long[::1] delay_cnt
    cdef object samples2
    # UDP sources: rate (bit/s), size, mode (0 poisson, 1 on-off), on/off means, state
    cdef list udp, udp_rng
    cdef double[::1] udp_until
    cdef unsigned char[::1] udp_on
    cdef long long[::1] udp_sent, udp_delivered
    # probes: interval, size, sent/replies, RTT log
    cdef list probes
    cdef long long[::1] probe_sent, probe_replies
    cdef list probe_log
    cdef public dict link_ids
    cdef public bint plan_links     # FIFO links work out departures at arrival (Network.plan); False: an event per step
    cdef double syn_timeout
    cdef unsigned char[::1] syn_wait
    cdef double[::1] syn_deadline
    cdef long long[::1] syn_tries
    cdef object topology

    cdef void transmit(self, int flow, long long seq, double now) except *
    cdef void classic_send_loop(self, int flow, double now) except *
    cdef void send_loop(self, int flow, double now) except *
    cdef void start_flow(self, int flow, double now) except *
    cdef void send_syn(self, int flow, double now) except *
    cdef void handshake_reply(self, int flow, Packet* p, double now) except *
    cdef void handshake_done(self, int flow, double echo_ts, double now) except *
    cdef void send_ack(self, int flow, SackReceiver rcv, double now) except *
    cdef void deliver(self, int pid, double now) except *
    cdef void deliver_other(self, int pid, double now) except *
    cdef void udp_send(self, int j, double now) except *
    cdef void probe_send(self, int j, double now) except *
    cdef void classic_timeout(self, int flow, double now) except *
