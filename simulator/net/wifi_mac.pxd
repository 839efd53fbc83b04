from simulator.core.rng cimport Stream


cdef class WifiMedium:
    cdef int n, cap, dbps, encoders, preamble_us, max_mpdus, retry_limit, cwmin, cwmax, vht
    cdef bint short_gi, eifs
    cdef long long max_ampdu_bytes, max_ppdu_ns, slot_ns, sifs_ns, aifs_ns, resp_ns, ack_timeout_ns, eifs_extra_ns
    cdef double error_rate
    cdef Stream backoff_rng, error_rng
    cdef readonly long long now_ns
    cdef readonly long long exchanges, collisions, mpdus_sent
    # per station
    cdef long long* resume       # when its AIFS after the last busy period ends
    cdef int* counter            # backoff slots left
    cdef int* drawn              # slots drawn at its last backoff (for the log)
    cdef int* cw
    cdef int* mpdu_bytes
    cdef int* qhead
    cdef int* qlen
    cdef int* qretries           # ring of cap MPDUs per station: transmissions so far
    cdef int* n_agg              # MPDUs in this round's aggregate
    cdef long long* ppdu_end
    cdef char* tx
    cdef long long* delivered
    cdef long long* delivered_bytes
    cdef long long* dropped
    cdef object log_rows
    cdef long long[:, ::1] log
    cdef Py_ssize_t log_len

    cdef void draw_backoff(self, int i) noexcept
    cdef long long aggregate(self, int i) noexcept
    cdef int settle(self, int i, int outcome) noexcept
    cdef void round(self) noexcept
    cdef void log_row(self, int i, long long start, long long end, int ok, int outcome, int drawn,
                      int cw) noexcept
