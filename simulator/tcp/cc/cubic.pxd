from simulator.tcp.cc.base cimport CongestionControl


cdef class Cubic(CongestionControl):
    cdef public double C, beta, alpha
    cdef public bint fast_convergence
    cdef public double w_max, k, epoch_start, origin, w_est
