from simulator.tcp.cc.base cimport TcpState

cdef enum:
    HYSTART_ACK_TRAIN = 1
    HYSTART_DELAY = 2


cdef class HyStart:
    # parameters
    cdef public double low_window, ack_delta, thresh_min, thresh_max, thresh_div, train_div
    cdef public long min_samples
    cdef public int detect            # bit mask of HYSTART_ACK_TRAIN | HYSTART_DELAY
    cdef public bint use_srtt
    # state
    cdef public double delay_min, round_start, last_ack, curr_rtt
    cdef public long long end_seq
    cdef public long sample_cnt
    cdef public int found
    cdef public long exits            # times HyStart ended slow start

    cpdef void init(self, TcpState s)
    cpdef void reset(self, TcpState s)
    cpdef void reset_round(self, TcpState s)
    cpdef void on_cong_avoid(self, TcpState s)
    cpdef void on_ack(self, TcpState s, double delay)
    cpdef double delay_thresh(self)
