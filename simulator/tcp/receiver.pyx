"""Receiver of a finite flow of n packets: keeps out-of-order packets, returns cumulative ACKs."""
from libc.stdlib cimport calloc, free


cdef class TcpReceiver:
    def __cinit__(self, long long n):
        self.n = n
        self.got = <unsigned char*>calloc(max(n, 1), 1)
        if self.got == NULL:
            raise MemoryError()

    def __dealloc__(self):
        free(self.got)

    cdef long long on_data(self, long long seq) except -1:
        """Packet seq arrived: returns the next packet expected (the cumulative ACK)."""
        if seq < 0 or seq >= self.n:
            raise ValueError(f"sequence {seq} outside flow of {self.n} packets")
        if self.got[seq]:
            self.duplicates += 1
        else:
            self.got[seq] = 1
            self.unique += 1
            while self.rcv_nxt < self.n and self.got[self.rcv_nxt]:
                self.rcv_nxt += 1
        return self.rcv_nxt

    def receive(self, long long seq):
        return self.on_data(seq)
