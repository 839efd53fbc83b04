from simulator.tcp.cc.base cimport CongestionControl, TcpState

cdef enum:
    ACT_NONE = 0
    ACT_RETRANSMIT = 1     # retransmit snd_una now
    ACT_GO_BACK = 2        # snd_nxt was rewound to snd_una: resend from there as the window allows


cdef class LossRecovery:
    cdef readonly str name
    cdef public long dupthresh
    cdef public bint ns2                 # NS-2 2.35's agent (Ns2 below): set by the catalogue for the ns2 stack
    cdef public bint limited_transmit    # NS-2 singledup_: a new packet on each of the first dupthresh - 1 dupACKs
    cdef public double wnd               # NS-2 window_ (the receive-window cap, packets; 0: none)
    cdef public double dupwnd            # NS-2 dupwnd_: fast recovery's inflation, apart from the window
    cdef public double timeout_cwnd      # the window a timeout leaves (1; NS-2's Vegas: v_slowstart_ 2)
    cdef public bint backoff_on_fast_retx  # a fast retransmission also backs the timer off (NS-2's Vegas)
    cpdef double timeout_ssthresh(self, TcpState s, CongestionControl cc)
    cdef double _ns2_win(self, TcpState s)
    cdef double ns2_halve(self, TcpState s)
    cdef bint ns2_recovered(self, TcpState s)
    cpdef int on_dupack(self, TcpState s, CongestionControl cc)
    cpdef int on_new_ack(self, TcpState s, CongestionControl cc, long acked)
    cdef void _set_state(self, TcpState s, CongestionControl cc, int new_state)


cdef class TahoeRecovery(LossRecovery):
    pass


cdef class RenoRecovery(LossRecovery):
    pass


cdef class NewRenoRecovery(RenoRecovery):
    pass


cdef class Ns2VegasRecovery(LossRecovery):
    cdef public double newcwnd           # v_newcwnd_: the window a fast retransmission cut to
    cdef public long long changed_seq    # first packet sent after the last window cut (t_cwnd_changed_)
    cdef public long dupcount            # NS-2 dupacks_ as the next new ACK finds it
    cdef public bint after_timeout       # last_cwnd_action_ == CWND_ACTION_TIMEOUT
