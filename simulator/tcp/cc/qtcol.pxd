from simulator.tcp.cc.aimd cimport RenoGrowth
from simulator.tcp.cc.base cimport TcpState


cdef class QtCol(RenoGrowth):
    cdef public double alpha             # Rtarget = alpha * Rmin, alpha > 1
    cdef public double rmin              # min of smoothed RTTs (m_rttProp), inf until a sample
    cdef public double target            # alpha * rmin (m_rttTarget); 0 until a sample
    cdef public long cnt_rtt             # ACKs with an RTT since the last update (m_cntRtt)
    cdef public long long beg_snd_nxt    # snd_nxt saved at the last update (m_begSndNxt)
    cdef public long last_lpred, last_wnew, updates   # for traces and tests
    cdef bint truncate_lpred             # QtColFair truncates W*R/Rt, QtCol rounds it up

    cdef void _update_or_slow_start(self, TcpState s, long acked)
    cpdef long compute_cwnd(self, TcpState s)
    cdef long _lpred_override(self)


cdef class QtColFair(QtCol):
    cdef public double rmin_window       # Rmin expiry period (m_rttPropFilterLen), s
    cdef public double rmin_stamp        # start of the current expiry period (m_rttPropStamp)
    cdef public double probe_stamp       # probe start (m_probeRttPropStamp)
    cdef public double probe_duration    # Rmin before the probe (m_probeRttDuration)
    cdef public long prior_in_flight     # in-flight saved at probe start (m_priorInFlight)
    cdef public bint probing, use_prior_in_flight, rmin_expired
    cdef public long probes
