from simulator.tcp.cc.base cimport CongestionControl, TcpState

cdef enum:
    ACT_NONE = 0
    ACT_RETRANSMIT = 1     # retransmit snd_una now
    ACT_GO_BACK = 2        # snd_nxt was rewound to snd_una: resend from there as the window allows


cdef class LossRecovery:
    cdef readonly str name
    cdef public long dupthresh
    cpdef int on_dupack(self, TcpState s, CongestionControl cc)
    cpdef int on_new_ack(self, TcpState s, CongestionControl cc, long acked)
    cdef void _set_state(self, TcpState s, CongestionControl cc, int new_state)


cdef class TahoeRecovery(LossRecovery):
    pass


cdef class RenoRecovery(LossRecovery):
    pass


cdef class NewRenoRecovery(RenoRecovery):
    pass
