from simulator.tcp.cc.base cimport AckSample, CongestionControl, TcpState

cdef enum:
    BBR_STARTUP = 0
    BBR_DRAIN = 1
    BBR_PROBE_BW = 2
    BBR_PROBE_RTT = 3


cdef class Bbr(CongestionControl):
    # parameters
    cdef public double high_gain, rtprop_window, probe_rtt_duration, pacing_margin
    cdef public double min_pipe_cwnd, send_quantum
    cdef public long bw_window
    cdef public bint use_srtt
    cdef public int cycle_start          # -1: random like Linux (seeded), 0..7: fixed phase
    cdef unsigned long long rng_state
    # model and state
    cdef public int mode, cycle_index
    cdef public double pacing_gain, cwnd_gain
    cdef double bw_v[3]
    cdef long long bw_t[3]
    cdef public long long round_count, next_round_delivered, delivered
    cdef public bint round_start, full_pipe, packet_conservation, idle_restart, has_seen_rtt
    cdef public bint probe_rtt_round_done, rtprop_expired
    cdef public double full_bw
    cdef public int full_bw_count
    cdef public double rtprop, rtprop_stamp, probe_rtt_done_stamp, cycle_stamp
    cdef public double prior_cwnd, target_cwnd, initial_cwnd
    cdef public long last_acked_sacked

    cpdef double btl_bw(self)
    cpdef void bw_filter_update(self, double rate, long long t)
    cpdef void bw_filter_reset(self, double rate, long long t)
    cpdef double inflight(self, double gain)
    cdef void _init_pacing_rate(self, TcpState s)
    cdef void _set_pacing_rate(self, TcpState s, double gain)
    cdef void _enter_startup(self)
    cdef void _enter_drain(self)
    cdef void _enter_probe_bw(self, double now)
    cdef void _enter_probe_rtt(self)
    cdef void _advance_cycle_phase(self, double now)
    cdef bint _is_next_cycle_phase(self, TcpState s, AckSample rs)
    cdef void _save_cwnd(self, TcpState s)
    cdef void _restore_cwnd(self, TcpState s)
    cdef void _exit_probe_rtt(self, double now)
    cdef void _handle_probe_rtt(self, TcpState s)
    cdef void _set_cwnd(self, TcpState s, AckSample rs)
    cdef int _random_below(self, int n)
