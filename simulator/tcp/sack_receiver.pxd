cdef class SackReceiver:
    """Receiver of a bulk flow: cumulative ACK plus the out-of-order packet it just got (SACK),
    delayed ACKs (every `delack_count` in-order packets or after `delack_timeout`), timestamps."""
    cdef unsigned char* got
    cdef long long cap, mask, max_cap
    cdef readonly long long rcv_nxt, unique, duplicates
    cdef int unacked
    cdef public int delack_count
    cdef public double delack_timeout
    cdef readonly double delack_deadline
    cdef double ts_recent
    # the ACK to send, filled by on_data / on_delack_timer
    cdef readonly long long ack_sack
    cdef readonly double ack_ts

    cdef int _grow(self) except -1
    cdef bint on_data(self, long long seq, double ts, double now) except -1
    cdef bint on_delack_timer(self, double now) noexcept
