"""Loss-recovery plug-ins: what the sender does on duplicate ACKs and while recovering.

They set window and state and return an action; the sender performs the transmissions.
  Tahoe   (RFC 5681 without fast recovery): 3 dupACKs -> ssthresh, cwnd = 1, go back N.
  Reno    (RFC 5681 fast recovery): retransmit, cwnd = ssthresh + 3, +1 per dupACK,
          leave on the first new ACK with cwnd = ssthresh.
  NewReno (RFC 6582): as Reno, but a partial ACK retransmits the next hole and stays in
          recovery until everything sent before the loss (recover) is acknowledged.
The LOSS state (after a timeout, entered by the sender) ends once snd_una passes recover.
"""
from simulator.tcp.cc.base cimport (CA_EVENT_COMPLETE_CWR, CA_LOSS, CA_OPEN, CA_RECOVERY,
                                    CongestionControl, TcpState)


cdef class LossRecovery:
    def __init__(self, long dupthresh=3):
        self.name = "base"
        self.dupthresh = dupthresh

    cdef void _set_state(self, TcpState s, CongestionControl cc, int new_state):
        cc.set_state(s, new_state)
        s.ca_state = new_state

    cpdef int on_dupack(self, TcpState s, CongestionControl cc):
        return ACT_NONE

    cpdef int on_new_ack(self, TcpState s, CongestionControl cc, long acked):
        if s.ca_state == CA_LOSS and s.snd_una >= s.recover:
            self._set_state(s, cc, CA_OPEN)
            cc.cwnd_event(s, CA_EVENT_COMPLETE_CWR)
        return ACT_NONE


cdef class TahoeRecovery(LossRecovery):
    def __init__(self, long dupthresh=3):
        self.name = "tahoe"
        self.dupthresh = dupthresh

    cpdef int on_dupack(self, TcpState s, CongestionControl cc):
        if s.ca_state != CA_OPEN or s.dupacks != self.dupthresh:
            return ACT_NONE
        s.ssthresh = cc.ssthresh(s)
        self._set_state(s, cc, CA_LOSS)     # slow start from one packet until `recover` is acked
        s.cwnd = 1.0
        s.recover = s.snd_max
        s.snd_nxt = s.snd_una
        return ACT_GO_BACK


cdef class RenoRecovery(LossRecovery):
    def __init__(self, long dupthresh=3):
        self.name = "reno"
        self.dupthresh = dupthresh

    cpdef int on_dupack(self, TcpState s, CongestionControl cc):
        if s.ca_state == CA_RECOVERY:
            s.cwnd += 1.0                       # window inflation: a packet has left the network
            return ACT_NONE
        if s.ca_state != CA_OPEN or s.dupacks != self.dupthresh:
            return ACT_NONE
        if not self._may_enter(s):
            return ACT_NONE
        s.ssthresh = cc.ssthresh(s)
        self._set_state(s, cc, CA_RECOVERY)
        s.cwnd = s.ssthresh + self.dupthresh
        s.recover = s.snd_max
        return ACT_RETRANSMIT

    def _may_enter(self, TcpState s):
        return True

    cpdef int on_new_ack(self, TcpState s, CongestionControl cc, long acked):
        if s.ca_state == CA_RECOVERY:
            s.cwnd = s.ssthresh                 # deflate and leave on the first new ACK
            self._set_state(s, cc, CA_OPEN)
            cc.cwnd_event(s, CA_EVENT_COMPLETE_CWR)
            return ACT_NONE
        return LossRecovery.on_new_ack(self, s, cc, acked)


cdef class NewRenoRecovery(RenoRecovery):
    def __init__(self, long dupthresh=3):
        self.name = "newreno"
        self.dupthresh = dupthresh

    def _may_enter(self, TcpState s):
        # RFC 6582 section 3.2: no new recovery for dupACKs of data sent before the last one
        return s.snd_una >= s.recover

    cpdef int on_new_ack(self, TcpState s, CongestionControl cc, long acked):
        if s.ca_state != CA_RECOVERY:
            return LossRecovery.on_new_ack(self, s, cc, acked)
        if s.snd_una >= s.recover:              # full ACK
            s.cwnd = min(s.ssthresh, max(<double>(s.snd_max - s.snd_una), 1.0) + 1.0)
            self._set_state(s, cc, CA_OPEN)
            cc.cwnd_event(s, CA_EVENT_COMPLETE_CWR)
            return ACT_NONE
        # partial ACK: deflate by what was acked, add back one, retransmit the next hole
        s.cwnd = max(s.cwnd - acked + 1.0, 1.0)
        return ACT_RETRANSMIT
