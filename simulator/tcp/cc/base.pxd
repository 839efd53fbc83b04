# The congestion-control interface (modelled on Linux tcp_congestion_ops / ns-3 TcpCongestionOps).
# The sender owns TcpState and is the only caller of the hooks, in this order per ACK of new data:
#   pkts_acked(state, sample) -> [recovery decisions] -> cong_avoid(state, acked) when in CA_OPEN,
# or, for an algorithm with owns_cwnd (BBR), cong_control(state, sample) on every ACK instead.
# Units: packets (segments of s.mss bytes) and seconds.

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
    cdef public double mss              # bytes of payload per packet (informational)
    cdef public double pacing_rate      # packets/s the sender paces at; 0 = no pacing
    cdef public long long delivered     # packets delivered (cumulatively or selectively acked) so far
    cdef public long long lost          # packets marked lost so far
    cdef public bint app_limited        # the application had nothing to send


cdef class AckSample:
    cdef public long acked           # packets newly acknowledged (cumulative)
    cdef public double rtt           # seconds, < 0 when no valid sample (Karn)
    cdef public long in_flight       # packets in flight after this ACK was processed
    cdef public double now
    # delivery-rate sample (draft-cheng-iccrg-delivery-rate-estimation), for BBR-like algorithms
    cdef public long delivered       # packets newly delivered by this ACK (cumulative + SACKed)
    cdef public long long prior_delivered   # s.delivered when the newest acked packet was sent
    cdef public double interval      # seconds the sample spans; <= 0: no valid rate sample
    cdef public double delivery_rate # packets/s; < 0: no valid sample
    cdef public bint is_app_limited
    cdef public long losses          # packets newly marked lost by this ACK
    cdef public long prior_in_flight # packets in flight before this ACK


cdef class CongestionControl:
    cdef readonly str name
    cdef public bint owns_cwnd       # True: cong_control sets cwnd and pacing (cong_avoid unused)
    cpdef void init(self, TcpState s)
    cpdef void pkts_acked(self, TcpState s, AckSample sample)
    cpdef void set_state(self, TcpState s, int new_state)
    cpdef double ssthresh(self, TcpState s)
    cpdef void cong_avoid(self, TcpState s, long acked)
    cpdef void cwnd_event(self, TcpState s, int event)
    cpdef void cong_control(self, TcpState s, AckSample rs)
