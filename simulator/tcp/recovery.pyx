"""Loss-recovery plug-ins: what the sender does on duplicate ACKs and while recovering.

They set window and state and return an action; the sender performs the transmissions.
  Tahoe   (RFC 5681 without fast recovery): 3 dupACKs -> ssthresh, cwnd = 1, go back N.
  Reno    (RFC 5681 fast recovery): retransmit, cwnd = ssthresh + 3, +1 per dupACK,
          leave on the first new ACK with cwnd = ssthresh.
  NewReno (RFC 6582): as Reno, but a partial ACK retransmits the next hole and stays in
          recovery until everything sent before the loss (recover) is acknowledged.
The LOSS state (after a timeout, entered by the sender) ends once snd_una passes recover.

With `ns2` set (the ns2 stack's Tahoe, Reno and NewReno: NS-2 2.35's agents, tcp/tcp.cc, tcp-reno.cc,
tcp-newreno.cc, defaults of ns-default.tcl):
  * the inflation is kept apart from the window, in `dupwnd` (dupwnd_; the window in use is cwnd + dupwnd);
  * a cut halves min(cwnd, window_) (windowd(), not the flight): cwnd = that half, ssthresh its integer part,
    at least 2 (slowdown CLOSE_SSTHRESH_HALF | CLOSE_CWND_HALF); a timeout's ssthresh the same (the sender
    asks timeout_ssthresh), the inflation dropped first;
  * no new fast retransmit until an ACK passes `recover` (bug_fix_: highest_ack_ > recover_), or the first
    packet's (bugfix_ss_): Reno, which leaves recovery on the first new ACK, waits for a timeout when a window
    lost several packets;
  * Reno leaves recovery with cwnd = the halved window (dupwnd_ = 0); NewReno's partial ACK deflates the
    inflation first (partial_window_deflation_), and a full ACK keeps that window (exit_recovery_fix_ 0);
  * `limited_transmit` (singledup_ 1): the sender may send one new packet on each of the first two dupACKs
    (send_one), within cwnd + dupACKs and window_.
  Ns2Vegas: NS-2 2.35's Agent/TCP/Vegas's own loss handling (below), with its controller (cc/ns2_vegas.pyx).
"""
from libc.math cimport floor

from simulator.tcp.cc.base cimport (CA_EVENT_COMPLETE_CWR, CA_LOSS, CA_OPEN, CA_RECOVERY,
                                    CongestionControl, TcpState)


cdef class LossRecovery:
    def __cinit__(self, *args, **kwargs):
        self.timeout_cwnd = 1.0

    def __init__(self, long dupthresh=3):
        self.name = "base"
        self.dupthresh = dupthresh

    cpdef double timeout_ssthresh(self, TcpState s, CongestionControl cc):
        """ssthresh after a timeout (the sender then sets cwnd to 1): the controller's, or NS-2's halving."""
        if self.ns2:
            s.cwnd -= self.dupwnd
            self.dupwnd = 0.0
            return max(floor(self._ns2_win(s) / 2.0), 2.0)
        return cc.ssthresh(s)

    cdef double _ns2_win(self, TcpState s):
        return min(s.cwnd, self.wnd) if self.wnd > 0 else s.cwnd

    cdef double ns2_halve(self, TcpState s):
        """NS-2's slowdown(CLOSE_SSTHRESH_HALF | CLOSE_CWND_HALF): sets ssthresh, returns the new cwnd."""
        cdef double half = self._ns2_win(s) / 2.0
        s.ssthresh = max(floor(half), 2.0)
        return half

    cdef bint ns2_recovered(self, TcpState s):
        """NS-2's bug_fix_ test before a fast retransmit (highest_ack_ > recover_, or highest_ack_ == 0)."""
        return s.snd_una > s.recover or s.snd_una == 1

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
        if self.ns2 and not self.ns2_recovered(s):
            return ACT_NONE
        if self.ns2:
            self.ns2_halve(s)
        else:
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
            self.dupwnd += 1.0
            return ACT_NONE
        if s.ca_state != CA_OPEN or s.dupacks != self.dupthresh:
            return ACT_NONE
        if not (self.ns2_recovered(s) if self.ns2 else self._may_enter(s)):
            return ACT_NONE
        if self.ns2:
            s.cwnd = self.ns2_halve(s) + self.dupthresh
        else:
            s.ssthresh = cc.ssthresh(s)
            s.cwnd = s.ssthresh + self.dupthresh
        self.dupwnd = self.dupthresh
        self._set_state(s, cc, CA_RECOVERY)
        s.recover = s.snd_max
        return ACT_RETRANSMIT

    def _may_enter(self, TcpState s):
        return True

    cpdef int on_new_ack(self, TcpState s, CongestionControl cc, long acked):
        if s.ca_state == CA_RECOVERY:
            # deflate and leave on the first new ACK (NS-2: the halved window, its dupwnd_ dropped)
            s.cwnd = s.cwnd - self.dupwnd if self.ns2 else s.ssthresh
            self.dupwnd = 0.0
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
            if self.ns2:                        # NS-2 keeps the window without its inflation
                s.cwnd -= self.dupwnd
            else:
                s.cwnd = min(s.ssthresh, max(<double>(s.snd_max - s.snd_una), 1.0) + 1.0)
            self.dupwnd = 0.0
            self._set_state(s, cc, CA_OPEN)
            cc.cwnd_event(s, CA_EVENT_COMPLETE_CWR)
            return ACT_NONE
        # partial ACK: deflate by what was acked, add back one, retransmit the next hole
        if self.ns2:                            # NS-2 partialnewack: the inflation goes first
            if self.dupwnd > acked:
                self.dupwnd -= acked - 1
                s.cwnd -= acked - 1
            else:
                s.cwnd = max(s.cwnd - self.dupwnd - (acked - self.dupwnd), 1.0)
                self.dupwnd = 1.0
                s.cwnd += 1.0
            return ACT_RETRANSMIT
        s.cwnd = max(s.cwnd - acked + 1.0, 1.0)
        return ACT_RETRANSMIT


cdef class Ns2VegasRecovery(LossRecovery):
    """NS-2 2.35's Agent/TCP/Vegas on duplicate ACKs and timeouts (tcp/tcp-vegas.cc VegasTcpAgent::recv, timeout).

    * third dupACK, unless the last cut was a timeout whose `recover` no ACK has passed (bug_fix_): retransmit,
      back the timer off (reset_rtx_timer(1), backoff 1), and, if the window was not already cut since that
      packet was sent, cut it: win = int(min(cwnd, window_)); 2 if win <= 3, else win - win/4 (integer);
      cwnd = win + dupACKs (the inflation is in cwnd itself); ssthresh is not touched;
    * every dupACK past the third adds one packet, whether or not the third retransmitted;
    * the next new ACK, if more than three dupACKs came and cwnd is above the cut window: cwnd = that window,
      ssthresh = 2 (so slow start does not resume); recovery ends on any new ACK;
    * timeout: ssthresh = half of min(cwnd, window_), at least 2 (slowdown CLOSE_SSTHRESH_HALF), cwnd =
      v_slowstart_ 2, the cut window forgotten (v_newcwnd_ 0).
    "Sent since the cut" is read from sequence numbers (the first packet sent after the cut is snd_max then),
    and every retransmission counts as sent once (the halving for v_transmits_ > 1 is not ported: after a
    timeout bug_fix_ blocks the fast retransmission of such packets).
    """
    def __init__(self, long dupthresh=3):
        self.name = "ns2_vegas"
        self.dupthresh = dupthresh
        self.timeout_cwnd = 2.0
        self.backoff_on_fast_retx = True

    cpdef int on_dupack(self, TcpState s, CongestionControl cc):
        cdef long win
        self.dupcount = s.dupacks
        if s.dupacks > self.dupthresh:
            s.cwnd += 1.0
            return ACT_NONE
        if s.dupacks != self.dupthresh or (self.after_timeout and s.snd_una <= s.recover):
            return ACT_NONE
        self.after_timeout = False
        s.recover = s.snd_max
        if s.snd_una >= self.changed_seq:
            win = <long>self._ns2_win(s)
            win = 2 if win <= 3 else win - (win >> 2)
            self.newcwnd = <double>win
            s.cwnd = self.newcwnd + s.dupacks
            self.changed_seq = s.snd_max
        self._set_state(s, cc, CA_RECOVERY)
        return ACT_RETRANSMIT

    cpdef int on_new_ack(self, TcpState s, CongestionControl cc, long acked):
        if self.dupcount > self.dupthresh and s.cwnd > self.newcwnd:
            s.cwnd = self.newcwnd
            s.ssthresh = 2.0
        self.dupcount = 0
        if s.ca_state == CA_RECOVERY:
            self._set_state(s, cc, CA_OPEN)
            return ACT_NONE
        return LossRecovery.on_new_ack(self, s, cc, acked)

    cpdef double timeout_ssthresh(self, TcpState s, CongestionControl cc):
        self.newcwnd = 0.0
        self.dupcount = 0
        self.after_timeout = True
        self.changed_seq = s.snd_max
        return max(floor(self._ns2_win(s) / 2.0), 2.0)
