from simulator.tcp.cc.base cimport CongestionControl

# how window growth counts an ACK (simulator/tcp/stacks.py names them after the reference stacks)
cdef enum:
    COUNT_LINUX = 0     # RFC 3465 byte counting: slow start + acked, congestion avoidance + acked/cwnd
    COUNT_NS3 = 1       # ns-3 TcpNewReno: + 1 per ACK in slow start, + floor(MSS/cwnd) bytes per ACK in avoidance
    COUNT_NS2 = 2       # NS-2 Agent/TCP opencwnd: + 1 per ACK in slow start, + 1/cwnd per ACK


cdef class RenoGrowth(CongestionControl):
    cdef public int ack_counting     # COUNT_*: fixed at construction, one branch per ACK
