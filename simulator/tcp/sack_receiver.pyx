"""TCP receiver: cumulative ACKs, SACK, delayed ACKs and timestamp echo (RFC 7323 TS.Recent).

SACK information is carried as the sequence number of the out-of-order packet that triggered the
ACK: with no ACK lost this tells the sender exactly what SACK blocks would (out-of-order packets
are acknowledged at once, so every one is reported); the ACK path is not congested here.
"""
from libc.math cimport INFINITY
from libc.stdlib cimport calloc, free

DEF INITIAL_ENTRIES = 64       # the bitmap starts this small and doubles up to the window cap


cdef class SackReceiver:
    def __cinit__(self, int delack_count=2, double delack_timeout=0.2, long long window_cap=1 << 22):
        self.max_cap = 1
        while self.max_cap < window_cap:
            self.max_cap <<= 1
        self.cap = min(self.max_cap, INITIAL_ENTRIES)
        self.mask = self.cap - 1
        self.got = <unsigned char*>calloc(self.cap, 1)
        if self.got == NULL:
            raise MemoryError()
        self.delack_count = delack_count
        self.delack_timeout = delack_timeout
        self.delack_deadline = INFINITY
        self.ack_sack = -1

    def __dealloc__(self):
        free(self.got)

    cdef int _grow(self) except -1:
        """Double the bitmap, moving the packets in [rcv_nxt, rcv_nxt + cap) to their new places."""
        cdef long long new_cap = 2 * self.cap, new_mask = new_cap - 1, s
        cdef unsigned char* got = <unsigned char*>calloc(new_cap, 1)
        if got == NULL:
            raise MemoryError()
        for s in range(self.rcv_nxt, self.rcv_nxt + self.cap):
            got[s & new_mask] = self.got[s & self.mask]
        free(self.got)
        self.got, self.cap, self.mask = got, new_cap, new_mask
        return 0

    cdef bint on_data(self, long long seq, double ts, double now) except -1:
        """A data packet arrives; True means send an ACK now (ack_sack/ack_ts say what it carries)."""
        cdef long long advanced
        self.ack_sack = -1
        while seq - self.rcv_nxt >= self.cap and self.cap < self.max_cap:
            self._grow()
        if seq - self.rcv_nxt >= self.cap:
            raise OverflowError(f"packet {seq} beyond the receive window of {self.cap} packets")
        if seq < self.rcv_nxt or self.got[seq & self.mask]:
            self.duplicates += 1
            self.ack_ts = ts
            return True                               # duplicate: ACK at once
        self.unique += 1
        if seq != self.rcv_nxt:
            self.got[seq & self.mask] = 1             # out of order: ACK at once with SACK
            self.ack_sack = seq
            self.ack_ts = self.ts_recent
            self.unacked = 0
            self.delack_deadline = INFINITY
            return True
        if self.unacked == 0:
            self.ts_recent = ts                       # left edge of the window: TS.Recent
        self.rcv_nxt += 1
        advanced = 1
        while self.got[self.rcv_nxt & self.mask]:
            self.got[self.rcv_nxt & self.mask] = 0
            self.rcv_nxt += 1
            advanced += 1
        self.unacked += 1
        if advanced > 1 or self.unacked >= self.delack_count:
            self.ack_ts = self.ts_recent if advanced == 1 else ts    # a filled hole: ACK at once
            self.unacked = 0
            self.delack_deadline = INFINITY
            return True
        if self.delack_deadline == INFINITY:
            self.delack_deadline = now + self.delack_timeout
        return False

    cdef bint on_delack_timer(self, double now) noexcept:
        if self.unacked == 0 or now < self.delack_deadline:
            return False
        self.unacked = 0
        self.delack_deadline = INFINITY
        self.ack_sack = -1
        self.ack_ts = self.ts_recent
        return True

    # Python access for unit tests
    def receive(self, long long seq, double ts=0.0, double now=0.0):
        return self.on_data(seq, ts, now)

    def delack_timer(self, double now):
        return self.on_delack_timer(now)
