"""Which MCS each wireless link sends at, and how often its MPDUs arrive there: a fixed MCS (rate_control:
fixed) or Minstrel-HT-like rate control (rate_control: minstrel), and MPDU errors from the SNR (error_model:
snr, wifi_phy.log_bit_success: ns-3's NIST model).

Minstrel, as Linux's minstrel_ht and ns-3's MinstrelHtWifiManager keep it, reduced to one MCS group (the
channel's width, streams and guard interval, MCS 0 to `mcs`): per link and MCS it counts MPDUs sent and
received; every rate_update_ms it folds each count's success ratio into an average (rate_ewma_pct of the
old value) and picks the MCS of the highest expected throughput (probability, capped at 90% and 0 below 10%,
over the time one MPDU takes in an aggregate of the link's average length, the PPDU's overhead shared) and
the most reliable one (the fastest of those above 75%, else the likeliest).  One PPDU in every 16 + 2 x (average A-MPDU length) is a sample, at the next MCS of the
link's sample table (a random order drawn at the start) that would be faster than the best one if it never
failed; after a PPDU that got no block ACK, the
next goes at the most reliable MCS (the retry chain's last step).  A link starts at MCS 0 and climbs by
samples.  Simplifications against minstrel_ht: one group (no stream-count or guard-interval groups), a
sample is a full A-MPDU, no retry chain inside one PPDU (an A-MPDU has one rate).
"""
from libc.math cimport expm1
from libc.stdlib cimport calloc, free

from simulator.core.rng cimport Stream
from simulator.net import wifi_phy

SAMPLE_MPDU = 1500 + wifi_phy.MAC_OVERHEAD_BYTES


cdef class LinkRates:
    """Rates of the links 0..n_links-1 of one channel, from its checked configuration `cfg`
    (wifi_phy.wifi_config) and the per-link SNR in dB (error_model: snr)."""

    def __cinit__(self, cfg, int n_links, key, snr_db=None):
        self.n_links = n_links
        self.n_rates = 10 if cfg["standard"] == "ac" else 8
        self.top_mcs = cfg["mcs"]
        self.snr_errors = cfg["error_model"] == "snr"
        self.minstrel = cfg["rate_control"] == "minstrel"
        self.update_ns = <long long>round(cfg["rate_update_ms"] * 1e6)
        self.ewma = cfg["rate_ewma_pct"] / 100.0
        self.rng = Stream(key, "wifi-rate-sampling")
        n, r = n_links, self.n_rates
        self.dbps = <int*>calloc(r, sizeof(int))
        self.encoders = <int*>calloc(r, sizeof(int))
        self.mpdu_ns = <long long*>calloc(r, sizeof(long long))
        self.log_success = <double*>calloc(n * r, sizeof(double))
        self.best = <int*>calloc(n, sizeof(int))
        self.maxprob = <int*>calloc(n, sizeof(int))
        self.fallback = <char*>calloc(n, sizeof(char))
        self.since_sample = <int*>calloc(n, sizeof(int))
        self.sample_order = <int*>calloc(n * r, sizeof(int))
        self.sample_pos = <int*>calloc(n, sizeof(int))
        self.avg_len = <double*>calloc(n, sizeof(double))
        self.next_update = <long long*>calloc(n, sizeof(long long))
        self.attempts = <int*>calloc(n * r, sizeof(int))
        self.successes = <int*>calloc(n * r, sizeof(int))
        self.prob = <double*>calloc(n * r, sizeof(double))
        if (self.dbps == NULL or self.encoders == NULL or self.mpdu_ns == NULL or self.log_success == NULL
                or self.best == NULL or self.maxprob == NULL or self.fallback == NULL or self.since_sample == NULL
                or self.sample_order == NULL or self.sample_pos == NULL
                or self.avg_len == NULL or self.next_update == NULL or self.attempts == NULL
                or self.successes == NULL or self.prob == NULL):
            raise MemoryError()
        self._set_rates(cfg)
        self._set_links(cfg, dict(snr_db or {}))

    def __dealloc__(self):
        free(self.dbps); free(self.encoders); free(self.mpdu_ns); free(self.log_success); free(self.best)
        free(self.maxprob); free(self.fallback); free(self.since_sample);
        free(self.sample_order); free(self.sample_pos); free(self.avg_len)
        free(self.next_update); free(self.attempts); free(self.successes); free(self.prob)

    def _set_rates(self, cfg):
        aifsn, cwmin, _ = wifi_phy.EDCA[cfg["access_category"]]
        for m in range(self.n_rates):
            try:
                mode = wifi_phy.phy_mode(cfg["standard"], cfg["channel_mhz"], cfg["spatial_streams"], m,
                                         cfg["guard_interval_ns"])
            except ValueError:
                continue                          # e.g. VHT MCS 9 at 20 MHz: Minstrel skips it
            self.dbps[m], self.encoders[m] = mode.dbps, mode.encoders
            # one more MPDU in a long aggregate: its bits over the rate (symbols of 4 us, or 3.6 with the short GI)
            self.mpdu_ns[m] = <long long>(8 * (SAMPLE_MPDU + 4) * 1000 / mode.rate_mbps)
        mode = wifi_phy.phy_mode(cfg["standard"], cfg["channel_mhz"], cfg["spatial_streams"], cfg["mcs"],
                                 cfg["guard_interval_ns"])
        self.overhead_ns = 1000 * (wifi_phy.SIFS_US + aifsn * wifi_phy.SLOT_US + cwmin * wifi_phy.SLOT_US // 2
                                   + mode.preamble_us + wifi_phy.SIFS_US
                                   + wifi_phy.non_ht_us(wifi_phy.BLOCK_ACK_BYTES, cfg["control_rate_mbps"]))

    def _set_links(self, cfg, snr_db):
        cdef int x, m, j, k
        for x in range(self.n_links):
            for m in range(self.n_rates):          # Fisher-Yates: each link its own sample table
                self.sample_order[x * self.n_rates + m] = m
            for m in range(self.n_rates - 1, 0, -1):
                j = <int>(self.rng.uniform() * (m + 1))
                k = self.sample_order[x * self.n_rates + m]
                self.sample_order[x * self.n_rates + m] = self.sample_order[x * self.n_rates + j]
                self.sample_order[x * self.n_rates + j] = k
            snr = float(snr_db.pop(x, cfg["snr_db"]))
            for m in range(self.n_rates):
                self.prob[x * self.n_rates + m] = -1.0
                if self.snr_errors and self.dbps[m]:
                    self.log_success[x * self.n_rates + m] = wifi_phy.log_bit_success(snr, m)
            self.best[x] = 0 if self.minstrel else cfg["mcs"]
            self.maxprob[x] = self.best[x]
            self.avg_len[x] = 1.0
            self.next_update[x] = self.update_ns
        if snr_db:
            raise ValueError(f"snr_db names links {sorted(snr_db)} that are not on the channel")

    # ------------------------------------------------------------------ per PPDU
    cdef int pick(self, int link, long long now) except -1:
        """The MCS of link's next PPDU, sent at `now`."""
        cdef int s
        if not self.minstrel:
            return self.best[link]
        while now >= self.next_update[link]:
            self._update(link)
            self.next_update[link] += self.update_ns
        if self.fallback[link]:
            return self.maxprob[link]
        self.since_sample[link] += 1
        if self.since_sample[link] >= 16 + 2 * <int>self.avg_len[link]:
            self.since_sample[link] = 0
            s = self._sample(link)
            if s >= 0:
                self.samples += 1
                return s
        return self.best[link]

    cdef double error(self, int link, int mcs, int mpdu_bytes) noexcept:
        """The probability that one MPDU of mpdu_bytes at mcs is received in error (error_model: snr)."""
        return -expm1(8.0 * mpdu_bytes * self.log_success[link * self.n_rates + mcs])

    cdef int report(self, int link, int mcs, int sent, int ok) except -1:
        """A PPDU's outcome: `ok` of its `sent` MPDUs arrived (0 when no block ACK came)."""
        if not self.minstrel or sent == 0:
            return 0
        self.attempts[link * self.n_rates + mcs] += sent
        self.successes[link * self.n_rates + mcs] += ok
        self.avg_len[link] = 0.9 * self.avg_len[link] + 0.1 * sent
        self.fallback[link] = ok == 0
        return 0

    # ------------------------------------------------------------------ Minstrel's table
    cdef double _throughput(self, int link, int m) noexcept:
        cdef double p = self.prob[link * self.n_rates + m]
        if p < 0.1:
            return 0.0
        return min(p, 0.9) / (self.overhead_ns / self.avg_len[link] + self.mpdu_ns[m])

    cdef bint _more_reliable(self, int link, int m, int q) noexcept:
        # minstrel_ht's max_prob_rate: of the MCSs above 75%, the fastest; below that, the likeliest
        cdef double pm = self.prob[link * self.n_rates + m], pq = self.prob[link * self.n_rates + q]
        if pm >= 0.75:
            return pq < 0.75 or self._throughput(link, m) > self._throughput(link, q)
        return pq < 0.75 and pm > pq

    cdef int _update(self, int link) except -1:
        cdef int m, i, b = self.best[link], q = self.maxprob[link]
        cdef double p
        for m in range(self.top_mcs + 1):
            i = link * self.n_rates + m
            if self.attempts[i]:
                p = self.successes[i] / <double>self.attempts[i]
                self.prob[i] = p if self.prob[i] < 0 else self.ewma * self.prob[i] + (1 - self.ewma) * p
                self.attempts[i] = self.successes[i] = 0
        for m in range(self.top_mcs + 1):
            i = link * self.n_rates + m
            if not self.dbps[m] or self.prob[i] < 0:
                continue
            if self._throughput(link, m) > self._throughput(link, b):
                b = m
            if self._more_reliable(link, m, q):
                q = m
        self.best[link], self.maxprob[link] = b, q
        return 0

    cdef bint _could_beat(self, int link, int m, double bar) noexcept:
        return self.dbps[m] and m != self.best[link] and 0.9 / (self.overhead_ns / self.avg_len[link] + self.mpdu_ns[m]) > bar

    cdef int _sample(self, int link) except -2:
        """The next MCS of the link's sample table that would be faster than the best one at no loss, or
        -1 if there is none (Minstrel walks its table, so every faster rate is tried within one round)."""
        cdef int i, m
        cdef double bar = self._throughput(link, self.best[link])
        for i in range(self.n_rates):
            m = self.sample_order[link * self.n_rates + self.sample_pos[link]]
            self.sample_pos[link] = (self.sample_pos[link] + 1) % self.n_rates
            if m <= self.top_mcs and self._could_beat(link, m, bar):
                return m
        return -1

    # ------------------------------------------------------------------ for tests and reports
    def table(self, int link):
        """{mcs: averaged success probability} of the MCSs a link has tried."""
        return {m: self.prob[link * self.n_rates + m] for m in range(self.n_rates)
                if self.prob[link * self.n_rates + m] >= 0}

    def current(self, int link):
        return self.best[link]

    def py_pick(self, int link, long long now_ns):
        """pick() for tests: the MCS of the link's next PPDU at now_ns."""
        return self.pick(link, now_ns)

    def py_report(self, int link, int mcs, int sent, int ok):
        """report() for tests: a PPDU at mcs with `ok` of `sent` MPDUs received."""
        self.report(link, mcs, sent, ok)

    def py_error(self, int link, int mcs, int mpdu_bytes):
        return self.error(link, mcs, mpdu_bytes)
