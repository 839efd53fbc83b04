from simulator.core.rng cimport Stream


cdef class LinkRates:
    cdef readonly int n_rates, n_links, top_mcs
    cdef readonly bint snr_errors, minstrel
    cdef int* dbps                # per MCS: data bits per symbol (0: not a valid rate here)
    cdef int* encoders
    cdef long long* mpdu_ns       # per MCS: airtime of a 1500-byte packet's MPDU inside an aggregate
    cdef long long overhead_ns    # per PPDU: AIFS, mean backoff, preamble, SIFS, block ACK
    cdef double* log_success      # per link and MCS: log(1 - pe) per bit (error_model: snr)
    cdef int* best                # per link: the fixed MCS, or Minstrel's highest-throughput one
    cdef int* maxprob             # per link: Minstrel's most reliable MCS
    cdef char* fallback           # per link: its last PPDU got no block ACK
    cdef int* since_sample
    cdef int* sample_order        # per link: Minstrel's sample table, a random order of the MCSs
    cdef int* sample_pos
    cdef double* avg_len          # per link: MPDUs per PPDU, averaged
    cdef long long* next_update
    cdef int* attempts            # per link and MCS, since the last update
    cdef int* successes
    cdef double* prob             # per link and MCS: averaged success probability (-1: never tried)
    cdef readonly long long update_ns, samples
    cdef double ewma
    cdef Stream rng

    cdef int pick(self, int link, long long now) except -1
    cdef double error(self, int link, int mcs, int mpdu_bytes) noexcept
    cdef int report(self, int link, int mcs, int sent, int ok) except -1
    cdef double _throughput(self, int link, int m) noexcept
    cdef bint _more_reliable(self, int link, int m, int q) noexcept
    cdef int _update(self, int link) except -1
    cdef bint _could_beat(self, int link, int m, double bar) noexcept
    cdef int _sample(self, int link) except -2
