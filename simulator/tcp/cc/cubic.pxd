from simulator.tcp.cc.base cimport CongestionControl
from simulator.tcp.cc.hystart cimport HyStart


cdef class Cubic(CongestionControl):
    cdef public double C, beta, alpha
    cdef public bint fast_convergence
    cdef public double w_max, k, epoch_start, origin, w_est
    cdef public HyStart hystart      # None: plain slow start (the default)
    cdef public double epoch_delta   # HyStart ignores samples this long after an epoch starts
