"""TCP sender for a flow of n packets (sequence numbers count packets).

Per ACK of new data, the documented hook order: RTT sample -> cc.pkts_acked -> recovery
plug-in (may leave recovery) -> cc.cong_avoid when the state is OPEN or LOSS (slow start after
a timeout).  A duplicate ACK goes to the recovery plug-in.  RFC 6298 timer: restarted on every
ACK of new data (and, with rearm_on_head_retx, on a fast retransmission: NS-2's dupack_action,
Linux's tcp_xmit_retransmit_queue), stopped when nothing is
outstanding; on expiry ssthresh, cwnd = 1, go back N.
"""
from libc.math cimport INFINITY, floor
from libc.stdlib cimport calloc, free, malloc

from simulator.tcp.cc.base cimport (CA_EVENT_LOSS, CA_LOSS, CA_OPEN, AckSample,
                                    CongestionControl, TcpState)
from simulator.tcp.recovery cimport ACT_NONE, ACT_RETRANSMIT, LossRecovery
from simulator.tcp.rto cimport Ns2Rto, RtoEstimator


cdef class TcpSender:
    def __cinit__(self, long long n, CongestionControl cc, LossRecovery recovery,
                  RtoEstimator rto, double init_cwnd=1.0, double init_ssthresh=1e9):
        self.n = n
        self.sent_time = <double*>malloc(max(n, 1) * sizeof(double))
        self.retransmitted = <unsigned char*>calloc(max(n, 1), 1)
        if self.sent_time == NULL or self.retransmitted == NULL:
            raise MemoryError()
        self.cc = cc
        self.recovery = recovery
        self.rto = rto
        self.s = TcpState(init_cwnd, init_ssthresh)
        self.sample = AckSample()
        self.rto_deadline = INFINITY
        cc.init(self.s)
        self.min_cwnd = self.s.cwnd

    def __dealloc__(self):
        free(self.sent_time)
        free(self.retransmitted)

    def use_syn_packet(self):
        """NS-2's one-way syn_ (true in 2.35, with delay_growth_; tcp/tcp.cc set_initial_window): packet 0 is a
        SYN (the flow model sends it as a 40-byte packet) alone in a window of one; its ACK sets the window to
        the initial window (TcpAgent::recv: cwnd_ = initial_window() when last_ack_ becomes 0), or to one if
        the SYN timed out first (timeout(): wnd_init_ = 1 when nothing was acknowledged, bugfix_ss_)."""
        self.syn_packet = True
        self.syn_opens_window = True
        self.syn_init = self.s.cwnd
        self.s.cwnd = 1.0
        self.min_cwnd = 1.0

    def app_write(self, long long packets=1):
        self.app_avail = min(self.app_avail + packets, self.n)

    cdef long long next_to_send(self, double now) noexcept:
        """The packet the window allows now (advancing snd_nxt), or -1."""
        cdef TcpState s = self.s
        cdef long long seq, window = <long long>floor(s.cwnd)
        if self.recovery.limited_transmit and 0 < s.dupacks < self.recovery.dupthresh and s.ca_state == CA_OPEN:
            window = <long long>floor(s.cwnd + s.dupacks)      # NS-2 send_one (singledup_)
        if self.max_window > 0 and window > self.max_window:
            window = self.max_window
        if s.snd_nxt >= self.app_avail or s.snd_nxt - s.snd_una >= window:
            return -1
        seq = s.snd_nxt
        s.snd_nxt += 1
        if seq < s.snd_max:
            self.mark_retransmit(seq, now)      # going back N after a loss
        else:
            s.snd_max = s.snd_nxt
            self.sent_time[seq] = now
            if self.timed_rtt and not self.rtt_active:      # NS-2 output(): time this new packet
                self.rtt_active = True
                self.rtt_seq = seq
                self.rtt_ts = now
        if self.rto_deadline == INFINITY:
            self.rto_deadline = now + self.rto.rto
        return seq

    cdef void mark_retransmit(self, long long seq, double now) noexcept:
        self.retransmitted[seq] = 1             # Karn: no RTT sample from this packet
        self.sent_time[seq] = now
        self.retransmissions += 1

    cdef int establish(self, double rtt, double now) except -1:
        """The handshake (a study's `handshake` detail; NS-2's agents have none) ended at `now` with
        RTT sample `rtt`: the RTT estimate starts from it and the controller starts here."""
        self.s.now = now
        self.rto.handshake(self.s, rtt)
        self.cc.init(self.s)
        return 0

    cdef int on_ack(self, long long ack, double now) except -1:
        """Process a cumulative ACK; returns the recovery action the model must perform."""
        cdef TcpState s = self.s
        cdef long long acked
        cdef double rtt = -1.0
        cdef int action
        s.now = now
        if ack > s.snd_una:
            acked = ack - s.snd_una
            if not self.retransmitted[ack - 1]:
                rtt = now - self.sent_time[ack - 1]
                if not self.timed_rtt:
                    self.rto.sample_seq(rtt, ack, s.snd_max)
                self.rtt_samples += 1
                self.rtt_sum += rtt
                s.last_rtt = rtt
                if not self.timed_rtt:
                    s.srtt = self.rto.srtt
                else:       # the controller's smoothed RTT stays per ACK (RFC 6298 gain); only the timer is NS-2's
                    s.srtt = rtt if s.srtt < 0 else 0.875 * s.srtt + 0.125 * rtt
                if s.min_rtt < 0 or rtt < s.min_rtt:
                    s.min_rtt = rtt
            s.snd_una = ack
            if s.snd_nxt < ack:
                s.snd_nxt = ack
            s.dupacks = 0
            s.in_flight = s.snd_max - s.snd_una
            self.sample.acked = acked
            self.sample.rtt = rtt
            self.sample.in_flight = s.in_flight
            self.sample.now = now
            self.cc.pkts_acked(s, self.sample)
            action = self.recovery.on_new_ack(s, self.cc, acked)
            if self.timed_rtt and self.rtt_active and ack > self.rtt_seq:
                self.timed_ack(action, now)
            if s.ca_state == CA_OPEN or s.ca_state == CA_LOSS:
                self.cc.cong_avoid(s, acked)
            if self.syn_packet and ack == 1 and self.syn_opens_window:
                s.cwnd = self.syn_init              # the SYN's ACK (use_syn_packet)
            if action == ACT_RETRANSMIT:
                self.partial_acks += 1
            if not (self.impatient and action == ACT_RETRANSMIT and self.partial_acks > 1):
                self.rto_deadline = now + self.rto.rto if s.snd_una < s.snd_max else INFINITY
        elif ack == s.snd_una and s.snd_max > s.snd_una:
            s.dupacks += 1
            s.in_flight = s.snd_max - s.snd_una
            action = self.recovery.on_dupack(s, self.cc)
            if action == ACT_RETRANSMIT:
                self.partial_acks = 0               # a new recovery episode
                if self.timed_rtt:                  # NS-2 reset_rtx_timer(1, 0): restart, no timing across it
                    self.rtt_active = False
                if self.recovery.backoff_on_fast_retx:
                    self.rto.backoff()              # NS-2's Vegas: reset_rtx_timer(1) backs off
                if self.rearm_on_head_retx or self.timed_rtt:   # the fast retransmission of snd_una restarts the timer
                    self.rto_deadline = now + self.rto.rto
        else:
            return ACT_NONE
        if action == ACT_RETRANSMIT:
            self.fast_retransmits += 1
        if s.cwnd < self.min_cwnd or s.cwnd != s.cwnd:    # NaN is kept: the run's check reports it
            self.min_cwnd = s.cwnd
        return action

    cdef void timed_ack(self, int action, double now) except *:
        """The timed packet is acknowledged (NS-2 newack): the backoff ends, and the round trip is a sample,
        but for NewReno's partial ACK, which stops the timing without one (partialnewack)."""
        self.rtt_active = False
        (<Ns2Rto>self.rto).end_backoff()
        if action != ACT_RETRANSMIT:
            (<Ns2Rto>self.rto).timed_sample(now - self.rtt_ts, self.rtt_ts)

    cdef void on_timeout(self, double now) except *:
        cdef TcpState s = self.s
        s.now = now
        s.in_flight = s.snd_max - s.snd_una
        s.ssthresh = self.recovery.timeout_ssthresh(s, self.cc)
        if self.syn_packet and s.snd_una == 0:
            self.syn_init = 1.0                     # the SYN timed out (use_syn_packet)
        self.cc.set_state(s, CA_LOSS)
        s.ca_state = CA_LOSS
        self.cc.cwnd_event(s, CA_EVENT_LOSS)
        s.cwnd = self.recovery.timeout_cwnd
        s.recover = s.snd_max
        s.snd_nxt = s.snd_una
        s.dupacks = 0
        self.timeouts += 1
        self.rtt_active = False
        self.rto.backoff()
        self.rto_deadline = now + self.rto.rto

    # Python access for unit tests
    def send_next(self, double now):
        return self.next_to_send(now)

    def ack(self, long long ack, double now):
        return self.on_ack(ack, now)

    def timeout(self, double now):
        self.on_timeout(now)
