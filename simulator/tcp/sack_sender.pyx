"""TCP sender with a SACK scoreboard, as Linux/ns-3 run it for the QtColFair scenario.

Sequence numbers count packets.  The scoreboard keeps per-packet flags in a ring (no Python
object per packet) and three counters (Linux's sacked_out, lost_out, retrans_out), so
in-flight ("pipe", RFC 6675) is O(1): (snd_max - snd_una) - sacked - lost + retransmitted.
Loss marking and retransmission use forward-only scan pointers: O(1) amortised per ACK even with
thousands of packets in flight.  A retransmission that is lost again is detected as RACK does
(RFC 8985, as Linux): once a packet sent more than a reordering window after it is delivered.  With
rack off (ns-3 3.44 and NS-2, which have no RACK) a hole is retransmitted once per recovery, as
RFC 6675 NextSeg does, and a lost retransmission waits for the retransmission timeout.  With
retx_below_sack (ns-3) a lost packet above the highest SACK waits while there is new data to send
(NextSeg rule 1.b), so after a timeout the packets still in flight above it are not resent at once.
Leaving LOSS signals CA_EVENT_COMPLETE_CWR to the controller as Linux does (cwr_event_after_loss;
ns-3 3.44 signals it only on leaving RECOVERY).

Per ACK: RTT from the echoed timestamp -> SACK and cumulative delivery (rate sample) -> loss
marking (a hole with 3 SACKed packets above it is lost) -> cc.pkts_acked -> recovery state
(enter on the first loss: ssthresh, PRR; leave when snd_una passes recover: cwnd = ssthresh) ->
cc.cong_control (owns_cwnd) or cc.cong_avoid (OPEN or LOSS, and only on an ACK that advances
snd_una).  RTO: ssthresh, cwnd = 1, every unSACKed outstanding packet marked lost, LOSS state
until recover is acknowledged.

A receive window (max_window, packets; 0: none) caps the pipe and bounds new data to snd_una + max_window
less the packets the receiver holds out of order, as a receive buffer of that size advertises (ns-3 sends new
data only while its sent-but-unacknowledged bytes are below the advertised window, TcpTxBuffer::NextSeg rule 2;
Linux's tcp_snd_wnd_test): a hole that stays open stops new data once the buffer fills.

The application is bulk (always has data) by default.  With bulk=False it has written app_avail
packets (app_write) and the sender sends nothing beyond them.  App-limited rate samples follow
Linux (tcp_rate_check_app_limited, draft-cheng-iccrg-delivery-rate-estimation): when the
application writes while the sender had nothing to send, room in the window and no loss waiting
for retransmission, the stretch until the packets now in flight are delivered is app-limited;
packets sent in it carry the mark, and a rate sample is app-limited if its newest packet is.
cc.cwnd_event(CA_EVENT_TX_START) is called, as Linux does, when a packet is sent with nothing in
flight (BBR's restart from idle acts on it only when app-limited).
"""
from libc.math cimport INFINITY, ceil, floor
from libc.stdlib cimport calloc, free, malloc

from simulator.tcp.cc.base cimport (CA_EVENT_COMPLETE_CWR, CA_EVENT_LOSS, CA_EVENT_TX_START,
                                    CA_LOSS, CA_OPEN, CA_RECOVERY, AckSample, CongestionControl,
                                    TcpState)
from simulator.tcp.rto cimport RtoEstimator

cdef enum:
    SACKED = 1
    LOST = 2
    RETX = 4

DUPTHRESH = 3
# app_avail of a bulk sender: the application always has data
cdef long long BULK = 1LL << 62


cdef class SackSender:
    def __cinit__(self, CongestionControl cc, RtoEstimator rto, double init_cwnd=10.0,
                  double mss=1448.0, long long window_cap=1 << 22, bint bulk=True,
                  long long initial_entries=16):
        self.max_cap = 1
        while self.max_cap < window_cap:
            self.max_cap <<= 1
        # the scoreboard starts small and doubles as the window grows (memory follows the
        # largest window, not the run's length), up to max_cap
        self.cap = 1
        while self.cap < min(self.max_cap, max(initial_entries, 1)):
            self.cap <<= 1
        self.mask = self.cap - 1
        self.tx = <TxSlot*>calloc(self.cap, sizeof(TxSlot))
        self.rq_seq = <long long*>malloc(self.cap * sizeof(long long))
        self.rq_time = <double*>malloc(self.cap * sizeof(double))
        self.reo_wnd_fraction = 0.25            # RACK's reordering window: min_rtt / 4
        self.rack = True
        self.ssthresh_pipe_after_ack = False
        self.cwr_event_after_loss = True
        self.retx_below_sack = False
        if self.rq_seq == NULL or self.rq_time == NULL or self.tx == NULL:
            raise MemoryError()
        self.cc = cc
        self.rto = rto
        self.s = TcpState(init_cwnd, INFINITY)
        self.s.mss = mss
        self.rs = AckSample()
        self.rto_deadline = INFINITY
        self.highest_sacked = -1
        self.app_avail = BULK if bulk else 0
        cc.init(self.s)
        self.min_cwnd = self.s.cwnd

    def __dealloc__(self):
        free(self.tx)
        free(self.rq_seq)
        free(self.rq_time)

    cdef int _grow(self) except -1:
        """Double the scoreboard: the packets in [snd_una, snd_max) move to their places under the
        new mask; the retransmission queue is copied in order from index 0."""
        cdef long long new_cap = 2 * self.cap, new_mask = new_cap - 1, seq, k, i, j
        cdef TxSlot* tx = <TxSlot*>calloc(new_cap, sizeof(TxSlot))
        cdef long long* rq_seq = <long long*>malloc(new_cap * sizeof(long long))
        cdef double* rq_time = <double*>malloc(new_cap * sizeof(double))
        if tx == NULL or rq_seq == NULL or rq_time == NULL:
            raise MemoryError()
        for seq in range(self.s.snd_una, self.s.snd_max):
            i, j = seq & self.mask, seq & new_mask
            tx[j] = self.tx[i]
        for k in range(self.rq_count):
            i = (self.rq_head + k) & self.mask
            rq_seq[k] = self.rq_seq[i]
            rq_time[k] = self.rq_time[i]
        self.rq_head = 0
        free(self.tx); free(self.rq_seq); free(self.rq_time)
        self.tx = tx
        self.rq_seq, self.rq_time = rq_seq, rq_time
        self.cap, self.mask = new_cap, new_mask
        return 0

    cdef void _set_state(self, int new_state) except *:
        self.cc.set_state(self.s, new_state)
        self.s.ca_state = new_state

    # ------------------------------------------------------------------ sending
    cdef void app_write(self, long long packets) noexcept:
        """The application writes `packets` more packets (a sender built with bulk=False)."""
        cdef long long in_flight = self.in_flight()
        if not self.has_data() and in_flight < <long long>floor(self.s.cwnd):
            # Linux tcp_rate_check_app_limited: the sender was waiting for the application
            self.app_limited_until = max(self.s.delivered + in_flight, 1)
            self.s.app_limited = True
        self.app_avail += packets

    cdef bint can_send(self, double now) noexcept:
        cdef long long window = <long long>floor(self.s.cwnd)
        if self.max_window > 0 and window > self.max_window:
            window = self.max_window
        if self.in_flight() >= window:
            return False
        if not (self.retx_waiting() or self.new_data_allowed()):     # has_data, within the receive window
            return False
        if self.s.pacing_rate > 0 and now < self.next_send_time:
            return False
        return True

    cdef long long next_segment(self, double now) except -2:
        """The segment to transmit now: the first lost one not yet retransmitted, else new data."""
        cdef TcpState s = self.s
        cdef long long seq = -1, i
        cdef TxSlot* slot
        cdef bint retx = False
        if self.in_flight() == 0:
            # nothing in flight: the rate sampler starts a new interval here (draft-cheng 3.2)
            self.first_sent_time = now
            self.delivered_time = now
            self.cc.cwnd_event(s, CA_EVENT_TX_START)
        if self.lost_out > self.retrans_out:
            if self.retx_scan < s.snd_una:
                self.retx_scan = s.snd_una
            while self.retx_scan < s.snd_max:
                if (self.retx_below_sack and self.highest_sacked > s.snd_una
                        and self.retx_scan >= self.highest_sacked and self.new_data_allowed()):
                    break                   # NextSeg rule (2): new data before a hole above the highest SACK
                i = self.retx_scan & self.mask
                if (self.tx[i].flags & (LOST | RETX | SACKED)) == LOST:
                    seq = self.retx_scan
                    retx = True
                    self.retx_scan += 1
                    break
                self.retx_scan += 1
        if seq < 0:
            seq = s.snd_max
            while seq - s.snd_una >= self.cap and self.cap < self.max_cap:
                self._grow()
            if seq - s.snd_una >= self.cap:
                raise OverflowError(f"window beyond the scoreboard capacity {self.cap} packets")
            s.snd_max += 1
            s.snd_nxt = s.snd_max
        i = seq & self.mask
        if retx:
            self.tx[i].flags |= RETX
            self.retrans_out += 1
            self.retransmitted += 1
            if self.rack and self.rq_count == self.cap and self.cap < self.max_cap:
                self._grow()
            if self.rack and self.rq_count < self.cap:
                self.rq_seq[(self.rq_head + self.rq_count) & self.mask] = seq
                self.rq_time[(self.rq_head + self.rq_count) & self.mask] = now
                self.rq_count += 1
        else:
            self.tx[i].flags = 0
        slot = &self.tx[i]
        slot.sent_time = now
        slot.delivered = s.delivered
        slot.delivered_time = self.delivered_time
        slot.first_sent = self.first_sent_time
        slot.app_limited = self.app_limited_until != 0
        self.sent += 1
        if s.ca_state == CA_RECOVERY:
            self.prr_out += 1
        if s.pacing_rate > 0:
            self.next_send_time = (self.next_send_time if self.next_send_time > now else now) \
                + 1.0 / s.pacing_rate
        if self.rto_deadline == INFINITY or (retx and self.rearm_on_head_retx and seq == s.snd_una):
            self.rto_deadline = now + self.rto.rto
        return seq

    # ------------------------------------------------------------------ ACK processing
    cdef void _deliver(self, long long seq, double now, double* newest_sent) noexcept:
        """seq reached the receiver for the first time we know of: rate-sample bookkeeping."""
        cdef TxSlot* slot = &self.tx[seq & self.mask]
        self.s.delivered += 1
        self.rs.delivered += 1
        if slot.sent_time >= newest_sent[0]:          # the most recently sent so far
            newest_sent[0] = slot.sent_time
            newest_sent[1] = slot.sent_time - slot.first_sent     # send elapsed
            newest_sent[2] = slot.delivered_time                  # prior delivered time
            self.rs.prior_delivered = slot.delivered
            self.rs.is_app_limited = slot.app_limited
            self.first_sent_time = slot.sent_time

    cdef void _mark_losses(self) noexcept:
        """RFC 6675 IsLost as a forward (FACK-style) scan: a hole DupThresh packets below the
        highest SACKed one is lost.  Exact for FIFO paths, which never reorder packets."""
        cdef long long limit = self.highest_sacked - DUPTHRESH + 1
        cdef long long i
        if self.loss_scan < self.s.snd_una:
            self.loss_scan = self.s.snd_una
        while self.loss_scan < limit:
            i = self.loss_scan & self.mask
            if not (self.tx[i].flags & (SACKED | LOST)):
                self.tx[i].flags |= LOST
                self.lost_out += 1
                self.s.lost += 1
                self.rs.losses += 1
            self.loss_scan += 1

    cdef void _detect_lost_retransmissions(self, double newest_delivered_sent) noexcept:
        """A retransmission is lost if a packet sent more than reo_wnd after it was delivered."""
        cdef double reo = self.reo_wnd_fraction * (self.s.min_rtt if self.s.min_rtt > 0 else 0.0)
        cdef long long seq, i
        while self.rq_count > 0 and self.rq_time[self.rq_head] + reo < newest_delivered_sent:
            seq = self.rq_seq[self.rq_head]
            i = seq & self.mask
            if (seq >= self.s.snd_una and self.tx[i].sent_time == self.rq_time[self.rq_head]
                    and (self.tx[i].flags & (RETX | SACKED)) == RETX):
                self.tx[i].flags &= ~RETX              # still LOST: eligible to be sent again
                self.retrans_out -= 1
                self.rs.losses += 1
                if seq < self.retx_scan:
                    self.retx_scan = seq
            self.rq_head = (self.rq_head + 1) & self.mask
            self.rq_count -= 1

    cdef int on_ack(self, long long ack, long long sack, double echo_ts, double now) except -1:
        cdef TcpState s = self.s
        cdef AckSample rs = self.rs
        cdef long long seq, i, acked = 0, prior_in_flight = self.in_flight(), sndcnt
        cdef double newest[3]
        cdef double rtt = -1.0
        cdef unsigned char f
        s.now = now
        newest[0] = -1.0
        newest[1] = 0.0
        newest[2] = 0.0
        rs.delivered = 0
        rs.losses = 0
        rs.acked = 0
        rs.interval = -1.0
        rs.delivery_rate = -1.0
        rs.is_app_limited = False
        # selective acknowledgement of one packet above the cumulative ACK
        if sack >= ack and sack >= s.snd_una and sack < s.snd_max:
            i = sack & self.mask
            f = self.tx[i].flags
            if not (f & SACKED):
                self.tx[i].flags = SACKED
                self.sacked_out += 1
                if f & LOST:
                    self.lost_out -= 1
                if f & RETX:
                    self.retrans_out -= 1
                self._deliver(sack, now, newest)
                if sack > self.highest_sacked:
                    self.highest_sacked = sack
        # cumulative acknowledgement
        if ack > s.snd_una:
            if ack > s.snd_max:
                ack = s.snd_max
            seq = s.snd_una
            while seq < ack:
                i = seq & self.mask
                f = self.tx[i].flags
                if f & SACKED:
                    self.sacked_out -= 1
                else:
                    if f & LOST:
                        self.lost_out -= 1
                    self._deliver(seq, now, newest)
                if f & RETX and not (f & SACKED):
                    self.retrans_out -= 1
                self.tx[i].flags = 0
                seq += 1
            acked = ack - s.snd_una
            s.snd_una = ack
            if s.snd_nxt < ack:
                s.snd_nxt = ack
            if s.snd_una >= s.snd_max:
                self.rto_deadline = INFINITY
            elif not (self.rto_first_partial_only and s.ca_state == CA_RECOVERY and s.snd_una < s.recover
                      and self.partial_acks > 0):
                self.rto_deadline = now + self.rto.rto
            if s.ca_state == CA_RECOVERY and s.snd_una < s.recover:
                self.partial_acks += 1
        if rs.delivered == 0 and acked == 0:
            return 0                                   # nothing new: a pure duplicate
        if acked > 0:
            # RTT from the echoed timestamp, on ACKs that advance snd_una only (as Linux): while
            # a hole is open the receiver echoes an old TS.Recent (RFC 7323), which would inflate it
            rtt = now - echo_ts
            self.rto.sample_seq(rtt, s.snd_una, s.snd_max)
            self.rtt_sum += rtt
            s.last_rtt = rtt
            s.srtt = self.rto.srtt
            if s.min_rtt < 0 or rtt < s.min_rtt:
                s.min_rtt = rtt
            self.srtt_sum += s.srtt
            self.rtt_samples += 1
        self._mark_losses()
        if newest[0] >= 0 and self.rq_count > 0:
            self._detect_lost_retransmissions(newest[0])
        # delivery-rate sample; an app-limited stretch ends once its packets are delivered
        if self.app_limited_until != 0 and s.delivered > self.app_limited_until:
            self.app_limited_until = 0
            s.app_limited = False
        if newest[0] >= 0:
            rs.interval = max(newest[1], now - newest[2])        # max(send, ack elapsed)
            if rs.interval > 0:
                rs.delivery_rate = (s.delivered - rs.prior_delivered) / rs.interval
        self.delivered_time = now
        rs.acked = acked
        rs.rtt = rtt
        rs.now = now
        rs.prior_in_flight = prior_in_flight
        s.in_flight = self.in_flight()
        rs.in_flight = s.in_flight
        self.cc.pkts_acked(s, rs)
        # recovery state machine
        cdef bint ended_recovery = False
        if s.ca_state == CA_RECOVERY or s.ca_state == CA_LOSS:
            if s.snd_una >= s.recover:
                if s.ca_state == CA_RECOVERY:
                    s.cwnd = s.ssthresh
                    ended_recovery = True         # the window does not grow on this ACK
                # Linux's BBR restores its pre-loss window on leaving LOSS as on leaving RECOVERY
                # (tcp_bbr.c bbr_set_cwnd_to_recover_or_restore); ns-3 leaves CA_LOSS without
                # CA_EVENT_COMPLETE_CWR (tcp-socket-base.cc ProcessAck), so its TcpBbr keeps growing
                # from one packet (cwr_event_after_loss False)
                self._set_state(CA_OPEN)
                if ended_recovery or self.cwr_event_after_loss:
                    self.cc.cwnd_event(s, CA_EVENT_COMPLETE_CWR)
        if s.ca_state == CA_OPEN and self.lost_out > 0:
            # the flight the window reduction sees: before this ACK (Linux's prior_in_flight), or,
            # as ns-3 does, the RFC 6675 pipe after it (its SACKs recorded, the head marked lost):
            # TcpSocketBase::EnterRecovery passes BytesInFlight() to GetSsThresh
            # (src/internet/model/tcp-socket-base.cc; TcpTxBuffer::BytesInFlight = sent - sacked -
            # lost + retransmitted), and TcpNewReno::GetSsThresh halves it
            if not self.ssthresh_pipe_after_ack:
                s.in_flight = prior_in_flight
            s.ssthresh = self.cc.ssthresh(s)
            s.in_flight = self.in_flight()
            self._set_state(CA_RECOVERY)
            s.recover = s.snd_max
            self.prr_delivered = 0
            self.prr_out = 0
            self.recover_fs = prior_in_flight
            self.recoveries += 1
            self.partial_acks = 0
        if s.ca_state == CA_RECOVERY and not self.cc.owns_cwnd:
            # proportional rate reduction (RFC 6937), slow-start reduction bound
            self.prr_delivered += rs.delivered
            if s.in_flight > s.ssthresh:
                sndcnt = <long long>ceil(self.prr_delivered * s.ssthresh / max(self.recover_fs, 1)) \
                    - self.prr_out
            else:
                sndcnt = min(<long long>s.ssthresh - s.in_flight,
                             max(self.prr_delivered - self.prr_out, rs.delivered) + 1)
            if sndcnt < 0:
                sndcnt = 0
            s.cwnd = s.in_flight + sndcnt
            if s.cwnd < 1.0:
                s.cwnd = 1.0
        if self.cc.owns_cwnd:
            self.cc.cong_control(s, rs)
        elif (s.ca_state == CA_OPEN or s.ca_state == CA_LOSS) and rs.delivered > 0 \
                and acked > 0 and not ended_recovery:
            # only an ACK that advances snd_una grows the window (RFC 5681; Linux tcp_may_raise_cwnd
            # needs FLAG_DATA_ACKED, ns-3 ProcessAck calls IncreaseWindow on new cumulative ACKs only):
            # SACKs alone never do, else a flow in LOSS whose hole stays open (its retransmission lost
            # again, found only by the next, backed-off RTO) slow-starts on SACKs far past it (issue 38).
            # Growth counts packets newly delivered (Linux's acked_sacked), not the cumulative jump
            # over packets SACKed earlier; in LOSS this is slow start from one packet
            self.cc.cong_avoid(s, rs.delivered)
        if s.cwnd < self.min_cwnd or s.cwnd != s.cwnd:    # NaN is kept: the run's check reports it
            self.min_cwnd = s.cwnd
        return 1

    cdef int establish(self, double rtt, double now) except -1:
        """The handshake ended at `now` with its RTT sample `rtt` (the SYN-ACK's echo): the RTT
        estimate, the latest and the minimum RTT start from it, and the controller starts here, as
        Linux (tcp_init_transfer) and ns-3 (TcpSocketBase::ProcessSynSent, TcpBbr's Init on the
        first CA_OPEN) start theirs once connected."""
        self.s.now = now
        self.rto.handshake(self.s, rtt)
        self.cc.init(self.s)
        self.min_cwnd = self.s.cwnd
        return 0

    cdef int on_timeout(self, double now) except -1:
        cdef TcpState s = self.s
        cdef long long seq, i
        s.now = now
        s.in_flight = self.in_flight()
        s.ssthresh = self.cc.ssthresh(s)
        self._set_state(CA_LOSS)
        self.cc.cwnd_event(s, CA_EVENT_LOSS)
        s.cwnd = 1.0
        s.recover = s.snd_max
        # every outstanding packet not SACKed is now lost and eligible for retransmission
        self.retrans_out = 0
        seq = s.snd_una
        while seq < s.snd_max:
            i = seq & self.mask
            if not (self.tx[i].flags & SACKED):
                if not (self.tx[i].flags & LOST):
                    s.lost += 1
                self.tx[i].flags = LOST
            seq += 1
        self.lost_out = (s.snd_max - s.snd_una) - self.sacked_out
        self.retx_scan = s.snd_una
        self.loss_scan = s.snd_una
        self.rq_count = 0
        self.timeouts += 1
        self.rto.backoff()
        self.rto_deadline = now + self.rto.rto
        self.next_send_time = now
        return 0

    # Python access for unit tests
    def write(self, long long packets=1):
        self.app_write(packets)

    @property
    def app_limited(self):
        """The delivered count that ends the current app-limited stretch (0: none)."""
        return self.app_limited_until

    def send_one(self, double now):
        if not self.can_send(now):
            return -1
        return self.next_segment(now)

    def ack(self, long long ack, long long sack=-1, double echo_ts=0.0, double now=0.0):
        return self.on_ack(ack, sack, echo_ts, now)

    def timeout(self, double now):
        self.on_timeout(now)

    @property
    def pipe(self):
        return self.in_flight()
