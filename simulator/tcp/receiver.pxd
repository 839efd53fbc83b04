cdef class TcpReceiver:
    cdef unsigned char* got
    cdef readonly long long n, rcv_nxt, unique, duplicates
    cdef long long on_data(self, long long seq) except -1
