# The congestion-control interface (modelled on Linux tcp_congestion_ops / ns-3 TcpCongestionOps).
# The sender owns TcpState and is the only caller of the hooks, in this order per ACK of new data:
#   pkts_acked(state, sample) -> [recovery decisions] -> cong_avoid(state, acked) when in CA_OPEN.

cdef enum:
    CA_OPEN = 0
    CA_DISORDER = 1
    CA_RECOVERY = 2
    CA_LOSS = 3

cdef enum:
    CA_EVENT_LOSS = 0          # retransmission timeout
    CA_EVENT_COMPLETE_CWR = 1  # recovery complete
    CA_EVENT_TX_START = 2      # first transmission after idle
    CA_EVENT_DROP = 3          # a drop seen at once (the as_published model's loss signal)


cdef class TcpState:
    cdef public double cwnd          # packets (may be fractional)
    cdef public double ssthresh
    cdef public double now           # time of the current hook call
    cdef public long in_flight       # packets the sender counts as outstanding
    cdef public int ca_state
    cdef public double srtt, min_rtt, last_rtt
    # sender sequence space (packets), for loss-recovery plug-ins
    cdef public long long snd_una, snd_nxt, snd_max, recover
    cdef public long dupacks


cdef class AckSample:
    cdef public long acked           # packets newly acknowledged
    cdef public double rtt           # seconds, < 0 when no valid sample (Karn)
    cdef public long in_flight
    cdef public double now


cdef class CongestionControl:
    cdef readonly str name
    cpdef void init(self, TcpState s)
    cpdef void pkts_acked(self, TcpState s, AckSample sample)
    cpdef void set_state(self, TcpState s, int new_state)
    cpdef double ssthresh(self, TcpState s)
    cpdef void cong_avoid(self, TcpState s, long acked)
    cpdef void cwnd_event(self, TcpState s, int event)
