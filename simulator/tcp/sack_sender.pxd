from simulator.tcp.cc.base cimport AckSample, CongestionControl, TcpState
from simulator.tcp.rto cimport RtoEstimator


cdef struct TxSlot:
    # a packet's entry in the scoreboard, one record so that an ACK reads one cache line per packet (with many
    # flows a flow's entries are rarely in cache: six parallel arrays cost six misses)
    double sent_time                  # when it was last (re)sent
    double delivered_time             # rate sampler state then: delivered_time ...
    double first_sent                 # ... first_sent_time ...
    long long delivered               # ... and s.delivered
    unsigned char flags               # SACKED, LOST, RETX
    unsigned char app_limited         # the sender was app-limited then


cdef class SackSender:
    """TCP sender with a SACK scoreboard: RFC 6675 loss recovery with proportional rate reduction
    (RFC 6937), RFC 6298 timer, timestamp RTT, delivery-rate samples, optional pacing.  Bulk (an
    application that always has data) unless built with bulk=False: then it sends only what the
    application wrote (app_write) and marks its rate samples app-limited as Linux does."""
    cdef public TcpState s
    cdef public CongestionControl cc
    cdef public RtoEstimator rto
    cdef AckSample rs
    cdef long long cap, mask, max_cap
    cdef TxSlot* tx                       # per sequence (mod cap)
    cdef readonly long long sacked_out, lost_out, retrans_out
    cdef long long highest_sacked, loss_scan, retx_scan
    # retransmissions in the order sent, to detect a lost retransmission RACK-style
    cdef long long* rq_seq
    cdef double* rq_time
    cdef long long rq_head, rq_count
    cdef public double reo_wnd_fraction
    cdef public bint rack                 # detect lost retransmissions as RACK does (stack detail `rack`)
    cdef public long long max_window      # receive window in packets (0: none): caps the pipe, and new data to
                                          # snd_una + max_window less what the receiver holds out of order
    # ssthresh at recovery entry sees the pipe after this ACK (ns-3) instead of before it (sack_sender.pyx)
    cdef public bint ssthresh_pipe_after_ack
    # leaving LOSS (after a timeout) tells the controller CA_EVENT_COMPLETE_CWR, as leaving RECOVERY does
    cdef public bint cwr_event_after_loss
    # while a SACK above snd_una is known and there is new data, a lost packet is retransmitted only below the
    # highest SACKed one (RFC 6675 NextSeg rule 1.b, as ns-3 3.44's TcpTxBuffer::NextSeg, which forgets its
    # highest SACK once snd_una passes it): after a timeout the packets still in flight above it are not resent.
    # Without new data we still retransmit them (ns-3 would wait for its next timeout; bulk flows never do)
    cdef public bint retx_below_sack
    # the retransmission timer's restarts besides every advance of snd_una (stacks.py RTO_TIMER): resending
    # snd_una restarts it (Linux tcp_xmit_retransmit_queue); in recovery only the first partial ACK restarts it
    # (ns-3 TcpSocketBase::ProcessAck, m_isFirstPartialAck)
    cdef public bint rearm_on_head_retx, rto_first_partial_only
    cdef long long partial_acks
    # PRR
    cdef long long prr_delivered, prr_out, recover_fs
    # rate sampler
    cdef double delivered_time, first_sent_time
    # pacing
    cdef public double next_send_time
    # application: packets written so far (BULK: unlimited); Linux's tp->app_limited, the
    # delivered count that ends an app-limited stretch (0: not app-limited)
    cdef readonly long long app_avail
    cdef long long app_limited_until
    cdef readonly double rto_deadline
    cdef readonly long long sent, retransmitted, timeouts, recoveries
    cdef readonly double srtt_sum, rtt_sum
    cdef readonly long long rtt_samples
    cdef readonly double min_cwnd

    cdef inline long long in_flight(self) noexcept:
        return (self.s.snd_max - self.s.snd_una) - self.sacked_out - self.lost_out + self.retrans_out

    cdef inline bint has_data(self) noexcept:
        """A lost packet waits for retransmission, or the application wrote data not yet sent."""
        return self.retx_waiting() or self.s.snd_max < self.app_avail

    cdef inline bint retx_waiting(self) noexcept:
        """A packet marked lost has not been retransmitted yet."""
        return self.lost_out > self.retrans_out

    cdef inline bint new_data_allowed(self) noexcept:
        """The application has unsent data and the receive window has room for it: the window's right edge is
        snd_una + max_window, less the packets the receiver holds out of order (SACKed), whose buffer space its
        advertised window no longer offers (ns-3's TcpRxBuffer::MaxRxSequence; Linux's receive memory)."""
        return self.s.snd_max < self.app_avail and (
            self.max_window == 0 or (self.s.snd_max - self.s.snd_una) + self.sacked_out < self.max_window)

    cdef void app_write(self, long long packets) noexcept
    cdef bint can_send(self, double now) noexcept
    cdef long long next_segment(self, double now) except -2
    cdef int on_ack(self, long long ack, long long sack, double echo_ts, double now) except -1
    cdef int on_timeout(self, double now) except -1
    cdef int establish(self, double rtt, double now) except -1
    cdef void _deliver(self, long long seq, double now, double* newest_sent) noexcept
    cdef void _mark_losses(self) noexcept
    cdef void _detect_lost_retransmissions(self, double newest_delivered_sent) noexcept
    cdef int _grow(self) except -1
    cdef void _set_state(self, int new_state) except *
