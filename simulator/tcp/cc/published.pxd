from simulator.tcp.cc.base cimport CongestionControl


cdef class PublishedTahoe(CongestionControl):
    cdef public double init_ssthresh


cdef class PublishedReno(CongestionControl):
    cdef public double init_ssthresh, guard, last_reaction
    cdef public long ack_count, floor_hits
    cdef public bint slow_start_step


cdef class PublishedCubic(CongestionControl):
    cdef public double C, beta, w_max, epoch, K
