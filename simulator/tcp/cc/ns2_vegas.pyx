"""NS-2 2.35's own TCP Vegas (Agent/TCP/Vegas, tcp/tcp-vegas.cc VegasTcpAgent::recv), the ns2 stack's Vegas.

It differs from the ns-3/Linux Vegas of vegas.pyx in every decision, so it is its own controller. Units:
packets and seconds. NS-2 numbers packets from 0 and acknowledges the highest in-order one; our ACK is the
next expected packet, so NS-2's seqno is snd_una - 1, its last_ack_ the same, and its t_seqno_ our snd_nxt.
Per new ACK, in VegasTcpAgent::recv's order (the sender calls cong_avoid on every new ACK, because
Ns2VegasRecovery leaves recovery on the first one, as NS-2 does):
* the first ACK (the SYN's) seeds base_rtt with vegastime(), the time since packet 0 was last sent (firstrecv_:
  `v_baseRTT_ = v_rtt_ = firstrecv_`). TcpAgent::send_much sets firstsent_ whenever it sends packet 0, so when
  the SYN times out before its ACK comes (round trips longer than the 3 s initial timeout: the NS-2 paper's
  500-1500 ms links), the clock restarts at the retransmission and base_rtt starts at the few milliseconds
  between it and the ACK of the first SYN. No round's RTT is smaller and no round has one packet, so base_rtt
  keeps that value, every decision then finds delta = 2 (between alpha and beta) and the window stays at
  2.5 packets for the rest of the run, as NS-2's does;
* the ACK after the SYN's (last_ack_ was 0) opens windowInit_ (`cwnd_ = initial_window()` before newack);
* once per round, when the ACK reaches beg_seq (v_begseq_): rtt = the mean of the round's samples (v_sumRTT_ /
  v_cntRTT_), or the time since the round began if none; rttLen = snd_nxt - beg_seq (packets sent in the
  round); base_rtt = rtt if smaller or rttLen <= 1; expect = (snd_nxt - last_ack) / base_rtt, actual =
  rttLen / rtt, delta = int((expect - actual) * base_rtt + 0.5) (C truncation);
    slow start (cwnd < ssthresh): every other round (v_inc_flag_) decide: delta > gamma: ssthresh = 2,
      cwnd -= cwnd / 8 (at least 2), no growth; else grow 1 per ACK this round; other rounds no growth;
    congestion avoidance: delta > beta: cwnd -= 1 (at least 2), no growth; delta < alpha: grow 1/cwnd per
      ACK; else no growth;
  the next round ends at the packet sent next (beg_seq = snd_nxt);
* growth stops once slow start reaches ssthresh, and is added only while cwnd - (snd_nxt - last_ack) <= 2
  (the sender keeps up with the window);
* last, this ACK's own sample (the newest acknowledged packet, sent once: Karn, v_transmits_ == 1) joins the
  round's and lowers base_rtt. The SYN's ACK gives none (NS-2's send time 0 reads as "no time").
Not ported: the fine-grained timer v_timeout_ and the retransmissions it triggers on the first ACKs after a
fast retransmit (v_worried_, vegas_expire): loss is found by three duplicate ACKs or the coarse timer only.
"""
from simulator.tcp.cc.base cimport CA_EVENT_LOSS, AckSample, CongestionControl, TcpState

# tcl/lib/ns-default.tcl Agent/TCP/Vegas v_alpha_, v_beta_, v_gamma_; the initial ssthresh_ is int(window_) when
# the agent is made (tcp/tcp.cc TcpAgent::reset), window_'s default 20, before a script sets its own window_
DEFAULTS = {"alpha": 1, "beta": 3, "gamma": 1, "init_ssthresh": 20}
NO_DELTA = -1000000


cdef class Ns2Vegas(CongestionControl):
    def __init__(self, long alpha=1, long beta=3, long gamma=1, double init_ssthresh=20.0):
        from simulator.tcp.cc.vegas import check_params
        check_params(alpha, beta, gamma)
        if not init_ssthresh >= 2:
            raise ValueError(f"vegas init_ssthresh must be at least 2 packets (NS-2's default 20), got {init_ssthresh}")
        self.init_ssthresh = init_ssthresh
        self.name = "vegas"
        self.alpha = alpha
        self.beta = beta
        self.gamma = gamma
        self.owns_cwnd = False

    cpdef void init(self, TcpState s):
        # VegasTcpAgent::reset: v_baseRTT_ 1e9, v_begseq_ 0, v_begtime_ 0, v_incr_ 0, v_inc_flag_ 1
        self.init_window = s.cwnd
        s.ssthresh = self.init_ssthresh
        self.base_rtt = 1e9
        self.sum_rtt = 0.0
        self.cnt_rtt = 0
        self.beg_seq = 0
        self.beg_time = -1.0            # set at the first ACK: the first send's time
        self.incr = 0.0
        self.inc_flag = True
        self.last_delta = NO_DELTA
        self.last_ack = -1
        self.pending_rtt = -1.0
        self.first_sent = -1.0
        self.first_recv = -1.0

    cpdef void cwnd_event(self, TcpState s, int event):
        if event == CA_EVENT_LOSS and s.snd_una == 0:
            self.first_sent = s.now     # the timeout resends packet 0 now: send_much sets firstsent_ again

    cpdef void pkts_acked(self, TcpState s, AckSample sample):
        if self.first_recv < 0:         # the first ACK: VegasTcpAgent::recv's firstrecv_ block
            if self.first_sent < 0:
                self.first_sent = s.now - sample.rtt if sample.rtt >= 0 else s.now
            self.first_recv = s.now - self.first_sent
            self.base_rtt = self.first_recv
            if self.beg_time < 0:
                self.beg_time = self.first_sent   # v_begtime_ 0: vegastime()'s origin
        # the SYN (packet 0) went at NS-2's vegastime() 0, which its recv reads as "no send time"
        self.pending_rtt = sample.rtt if s.snd_una > 1 else -1.0

    cpdef void cong_avoid(self, TcpState s, long acked):
        cdef long long seqno = s.snd_una - 1
        if self.last_ack == 0:
            s.cwnd = self.init_window   # delay_growth_: initial_window() once last_ack_ is 0
        self.last_ack = seqno
        if seqno >= self.beg_seq:
            self._round_end(s)
        if self.incr == 1.0 and s.cwnd >= s.ssthresh:
            self.incr = 0.0
        if self.incr > 0 and s.cwnd - (s.snd_nxt - seqno) <= 2:
            s.cwnd += self.incr
        if self.pending_rtt >= 0:
            self.sum_rtt += self.pending_rtt
            self.cnt_rtt += 1
            if 0 < self.pending_rtt < self.base_rtt:
                self.base_rtt = self.pending_rtt
            self.pending_rtt = -1.0

    cdef void _round_end(self, TcpState s):
        """The once-per-round section of VegasTcpAgent::recv."""
        cdef double rtt, expect, actual
        cdef long rtt_len, delta
        if self.beg_time < 0:
            self.beg_time = s.now
        rtt = self.sum_rtt / self.cnt_rtt if self.cnt_rtt > 0 else s.now - self.beg_time
        self.sum_rtt = 0.0
        self.cnt_rtt = 0
        rtt_len = <long>(s.snd_nxt - self.beg_seq)
        if rtt > 0:
            if rtt < self.base_rtt or rtt_len <= 1:
                self.base_rtt = rtt
            actual = rtt_len / rtt
            expect = (s.snd_nxt - self.last_ack) / self.base_rtt
            delta = <long>((expect - actual) * self.base_rtt + 0.5)
            self.last_delta = delta
            if s.cwnd < s.ssthresh:
                self._slow_start_decision(s, delta)
            elif delta > self.beta:
                s.cwnd = max(s.cwnd - 1.0, 2.0)
                self.incr = 0.0
            elif delta < self.alpha:
                self.incr = 1.0 / s.cwnd
            else:
                self.incr = 0.0
        self.beg_seq = s.snd_nxt
        self.beg_time = s.now

    cdef void _slow_start_decision(self, TcpState s, long delta):
        self.inc_flag = not self.inc_flag
        if not self.inc_flag:
            self.incr = 0.0
        elif delta > self.gamma:
            s.ssthresh = 2.0            # leave slow start, a little below the window that queued
            s.cwnd = max(s.cwnd - s.cwnd / 8.0, 2.0)
            self.incr = 0.0
        else:
            self.incr = 1.0

    cpdef double ssthresh(self, TcpState s):
        return s.ssthresh               # NS-2's Vegas cuts no ssthresh on loss (Ns2VegasRecovery sets the window)


def make(**params):
    """NS-2's Vegas with NS-2's defaults (DEFAULTS)."""
    from simulator.tcp.cc.options import with_defaults
    p = with_defaults("vegas", DEFAULTS, params)
    for k in ("alpha", "beta", "gamma"):
        if int(p[k]) != p[k]:
            raise ValueError(f"vegas {k} must be a whole number of packets, got {p[k]}")
    return Ns2Vegas(int(p["alpha"]), int(p["beta"]), int(p["gamma"]), float(p["init_ssthresh"]))
