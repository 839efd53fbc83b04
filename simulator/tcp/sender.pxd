from simulator.tcp.cc.base cimport AckSample, CongestionControl, TcpState
from simulator.tcp.recovery cimport LossRecovery
from simulator.tcp.rto cimport RtoEstimator


cdef class TcpSender:
    """Sender of a finite flow: a state machine; the model moves the packets and runs the timer."""
    cdef public TcpState s
    cdef public CongestionControl cc
    cdef public LossRecovery recovery
    cdef public RtoEstimator rto
    cdef AckSample sample                # reused for every ACK: no allocation per ACK
    cdef readonly long long n, app_avail
    cdef public long long max_window      # receiver's window cap in packets (NS-2 window_); 0: none
    cdef public bint impatient            # RFC 6582 "Impatient": only the first partial ACK restarts the timer
    cdef readonly bint syn_packet         # NS-2's syn_: packet 0 is a SYN sent alone (use_syn_packet)
    cdef double syn_init                  # the window once the SYN is acknowledged
    cdef public bint syn_opens_window     # False: the controller opens the initial window itself (NS-2's Vegas)
    cdef public bint timed_rtt            # NS-2: one timed packet per round trip feeds the (Ns2Rto) timer
    cdef bint rtt_active
    cdef long long rtt_seq
    cdef double rtt_ts
    cdef long long partial_acks
    cdef public bint rearm_on_head_retx   # a fast retransmission restarts the timer (NS-2 reset_rtx_timer(1,0), Linux)
    cdef double* sent_time
    cdef unsigned char* retransmitted
    cdef readonly double rto_deadline      # inf when the timer is off
    cdef readonly long long retransmissions, timeouts, fast_retransmits, rtt_samples
    cdef readonly double rtt_sum
    cdef readonly double min_cwnd          # smallest window after any hook (invariant check)

    cdef long long next_to_send(self, double now) noexcept
    cdef void mark_retransmit(self, long long seq, double now) noexcept
    cdef int on_ack(self, long long ack, double now) except -1
    cdef void timed_ack(self, int action, double now) except *
    cdef void on_timeout(self, double now) except *
    cdef int establish(self, double rtt, double now) except -1
