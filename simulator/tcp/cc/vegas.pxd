from simulator.tcp.cc.aimd cimport RenoGrowth
from simulator.tcp.cc.base cimport TcpState


cdef class Vegas(RenoGrowth):
    cdef public long alpha, beta, gamma  # packets
    cdef public bint use_srtt            # True: s.srtt (ns-3's m_lastRtt), False: rs.rtt
    cdef public bint ns3_ssthresh        # loss ssthresh as ns-3 TcpVegas::GetSsThresh
    cdef public double base_rtt, min_rtt # min ever / min in the current RTT round
    cdef public long cnt_rtt
    cdef public long long beg_snd_nxt
    cdef public bint doing_vegas
    cdef public long last_diff           # diff of the last Vegas decision (-1: none yet)

    cdef double _vegas_ssthresh(self, TcpState s)
    cdef void _enable(self, TcpState s)
