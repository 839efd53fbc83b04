from simulator.tcp.cc.base cimport CongestionControl


cdef class RenoGrowth(CongestionControl):
    pass
