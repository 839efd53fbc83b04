from simulator.tcp.cc.base cimport CongestionControl, TcpState


cdef class Ns2Vegas(CongestionControl):
    cdef public long alpha, beta, gamma  # v_alpha_, v_beta_, v_gamma_ (packets)
    cdef public double init_ssthresh     # ssthresh_ when the agent is made (20)
    cdef public double init_window       # windowInit_: opened on the ACK after the SYN's (delay_growth_)
    cdef public double base_rtt          # v_baseRTT_
    cdef public double sum_rtt           # v_sumRTT_: this round's fine-grained samples
    cdef public long cnt_rtt             # v_cntRTT_
    cdef public long long beg_seq        # v_begseq_: the round ends when this packet is acknowledged
    cdef public double beg_time          # v_begtime_ (absolute; NS-2's vegastime() 0 is the first send)
    cdef public double incr              # v_incr_: added to cwnd on each new ACK until the next decision
    cdef public bint inc_flag            # v_inc_flag_: slow start grows every other round
    cdef public long last_delta          # the last decision's delta (packets; -1000000: none yet)
    cdef public long long last_ack       # NS-2 last_ack_ (highest packet acknowledged; -1: none)
    cdef double pending_rtt              # this ACK's sample, folded in after the decision (< 0: none)
    cdef public double first_sent        # firstsent_: when packet 0 was last sent (absolute; < 0: not known yet)
    cdef public double first_recv        # firstrecv_: vegastime() at the first ACK (< 0: none yet)

    cdef void _round_end(self, TcpState s)
    cdef void _slow_start_decision(self, TcpState s, long delta)
