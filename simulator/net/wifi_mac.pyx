"""The 802.11 DCF/EDCA medium: stations contend for one channel with binary exponential backoff,
send A-MPDUs answered by a block ACK (or single MPDUs answered by an ACK), collide when their
backoff counters run out in the same slot, and retry to the retry limit.

Time is integer nanoseconds, so every duration below is exact and runs are bit-identical.  The
medium moves from one transmission to the next (a round): the earliest backoff expiry starts it,
its outcome sets when each station's AIFS ends again.  Per IEEE 802.11-2016 10.22.2.4 (EDCA), at
every slot boundary from the end of AIFS a station either decrements its counter or, at zero,
transmits; so a station interrupted by another's transmission has also counted the slot at which
that transmission began (the busy period counts as one slot, as in Bianchi's model).  Stations are
saturated: each always has MPDUs of msdu_bytes queued; MPDUs that fail stay at the head of its
queue and go out again inside the next aggregate.  Per-station state lives in C arrays allocated
once; a round allocates nothing.
"""
from libc.stdlib cimport calloc, free

import numpy as np

from simulator.core.rng cimport Stream
from simulator.net.wifi_airtime cimport add_subframe, ppdu_ns
from simulator.core.seeding import run_key
from simulator.net import wifi_phy

cdef enum:
    SUCCESS = 0       # block ACK / ACK received: at least one MPDU arrived
    COLLISION = 1     # two or more stations transmitted in the same slot
    ERRORED = 2       # alone on the air, but every MPDU was in error: ACK timeout

cdef int MAC_OVERHEAD = wifi_phy.MAC_OVERHEAD_BYTES   # a C copy: settle runs every round

LOG_COLUMNS = ("start_ns", "ppdu_end_ns", "exchange_end_ns", "station", "backoff_slots", "cw",
               "mpdus", "mpdus_ok", "outcome")
OUTCOMES = ("success", "collision", "errored")


def mpdu_bytes(int msdu_bytes):
    """One IP packet as an MPDU: + LLC/SNAP 8, QoS data header 26, FCS 4."""
    return msdu_bytes + wifi_phy.MAC_OVERHEAD_BYTES


def ampdu_bytes(mpdus):
    """A-MPDU length of MPDUs of the given sizes (bytes): delimiters, padding but the last."""
    cdef long long total = 0
    for m in mpdus:
        total = add_subframe(total, m)
    return total


def _mode(cfg):
    return wifi_phy.phy_mode(cfg["standard"], cfg["channel_mhz"], cfg["spatial_streams"], cfg["mcs"],
                             cfg["guard_interval_ns"])


def ppdu_us(cfg, long long psdu_bytes):
    """Duration of an HT/VHT PPDU carrying psdu_bytes at cfg's rate, us."""
    m = _mode(cfg)
    return ppdu_ns(psdu_bytes, m.dbps, m.encoders, m.preamble_us, m.guard_ns == 400) / 1000


def ack_us(cfg):
    return wifi_phy.non_ht_us(wifi_phy.ACK_BYTES, cfg["control_rate_mbps"])


def block_ack_us(cfg):
    return wifi_phy.non_ht_us(wifi_phy.BLOCK_ACK_BYTES, cfg["control_rate_mbps"])


def tcp_ack_us(cfg, int ip_bytes=52):
    """Airtime of a TCP ACK sent alone (no backoff): its PPDU + SIFS + the MAC's ACK, us.  VHT
    sends every MPDU in an A-MPDU (a 4-byte delimiter even for one)."""
    psdu = mpdu_bytes(ip_bytes) + (4 if cfg["standard"] == "ac" else 0)
    return ppdu_us(cfg, psdu) + wifi_phy.SIFS_US + ack_us(cfg)


cdef class WifiMedium:
    """`stations` saturated stations on one channel; cfg is checked by wifi_phy.wifi_config."""

    def __cinit__(self, params, int seed=0, Py_ssize_t log_capacity=0):
        cfg = wifi_phy.wifi_config(dict(params))
        if (cfg["error_model"] != "fixed" or cfg["rate_control"] != "fixed" or cfg["airtime_fairness"]
                or cfg["driver_queue_pkts"]):
            raise ValueError(f"{wifi_phy.PARAMS_FILE.name}: error_model: {cfg['error_model']}, rate_control: "
                             f"{cfg['rate_control']}, airtime_fairness: {cfg['airtime_fairness']}, driver_queue_pkts: "
                             f"{cfg['driver_queue_pkts']}: the saturated medium sends every MPDU at one MCS with one "
                             f"error rate from saturated stations without queues; allowed: fixed, fixed, false, 0, or "
                             f"the packet network's channel (WifiNetwork)")
        mode = _mode(cfg)
        aifsn, self.cwmin, self.cwmax = wifi_phy.EDCA[cfg["access_category"]]
        self.n = cfg["stations"]
        self.max_mpdus = cfg["max_ampdu_mpdus"]
        self.cap = self.max_mpdus
        self.dbps, self.encoders, self.preamble_us = mode.dbps, mode.encoders, mode.preamble_us
        self.short_gi = mode.guard_ns == 400
        self.vht = cfg["standard"] == "ac"
        self.retry_limit = cfg["retry_limit"]
        self.max_ampdu_bytes = cfg["max_ampdu_bytes"]
        self.max_ppdu_ns = <long long>round(cfg["max_ppdu_us"] * 1000)
        self.slot_ns = wifi_phy.SLOT_US * 1000
        self.sifs_ns = wifi_phy.SIFS_US * 1000
        self.aifs_ns = (wifi_phy.SIFS_US + aifsn * wifi_phy.SLOT_US) * 1000
        self.resp_ns = 1000 * (ack_us(cfg) if self.max_mpdus == 1 else block_ack_us(cfg))
        # ACKTimeout (10.3.2.9): SIFS + slot + aRxPHYStartDelay
        self.ack_timeout_ns = self.sifs_ns + self.slot_ns + <long long>round(cfg["rx_phy_start_delay_us"] * 1000)
        # EIFS - DIFS (10.3.2.3.7): SIFS + an ACK at the lowest basic rate, 6 Mbit/s
        self.eifs_extra_ns = self.sifs_ns + 1000 * wifi_phy.non_ht_us(wifi_phy.ACK_BYTES, 6)
        self.eifs = cfg["eifs"]
        self.error_rate = cfg["mpdu_error_rate"]
        key = run_key(wifi_phy.key_params(cfg), seed)
        self.backoff_rng = Stream(key, "wifi_backoff")
        self.error_rng = Stream(key, "wifi_mpdu_errors")
        n, cap = self.n, self.cap
        self.resume = <long long*>calloc(n, sizeof(long long))
        self.ppdu_end = <long long*>calloc(n, sizeof(long long))
        self.delivered = <long long*>calloc(n, sizeof(long long))
        self.delivered_bytes = <long long*>calloc(n, sizeof(long long))
        self.dropped = <long long*>calloc(n, sizeof(long long))
        self.counter = <int*>calloc(n, sizeof(int))
        self.drawn = <int*>calloc(n, sizeof(int))
        self.cw = <int*>calloc(n, sizeof(int))
        self.mpdu_bytes = <int*>calloc(n, sizeof(int))
        self.qhead = <int*>calloc(n, sizeof(int))
        self.qlen = <int*>calloc(n, sizeof(int))
        self.n_agg = <int*>calloc(n, sizeof(int))
        self.qretries = <int*>calloc(n * cap, sizeof(int))
        self.tx = <char*>calloc(n, sizeof(char))
        if (self.resume == NULL or self.ppdu_end == NULL or self.delivered == NULL or self.delivered_bytes == NULL
                or self.dropped == NULL or self.counter == NULL or self.drawn == NULL or self.cw == NULL
                or self.mpdu_bytes == NULL or self.qhead == NULL or self.qlen == NULL or self.n_agg == NULL
                or self.qretries == NULL or self.tx == NULL):
            raise MemoryError()
        for i in range(n):
            self.mpdu_bytes[i] = mpdu_bytes(cfg["msdu_bytes"])
            self.qlen[i] = cap            # saturated: the queue is always full
            self.cw[i] = self.cwmin
            self.resume[i] = self.aifs_ns  # the medium was idle before time 0
            self.draw_backoff(i)
        self.log_rows = np.zeros((log_capacity, len(LOG_COLUMNS)), dtype=np.int64)
        self.log = self.log_rows

    def __dealloc__(self):
        free(self.resume); free(self.ppdu_end); free(self.delivered); free(self.delivered_bytes)
        free(self.dropped); free(self.counter); free(self.drawn); free(self.cw); free(self.mpdu_bytes)
        free(self.qhead); free(self.qlen); free(self.n_agg); free(self.qretries); free(self.tx)

    cdef void draw_backoff(self, int i) noexcept:
        # uniform in [0, CW] (10.22.2.2)
        self.counter[i] = <int>(self.backoff_rng.uniform() * (self.cw[i] + 1))
        self.drawn[i] = self.counter[i]

    cdef long long aggregate(self, int i) noexcept:
        """MPDUs from the head of station i's queue that fit the limits (at least one); returns the
        PPDU duration, ns, and sets n_agg[i]."""
        cdef long long length = 0, nxt, dur = 0, d
        cdef int k = 0, m = self.mpdu_bytes[i]
        if self.max_mpdus == 1:
            self.n_agg[i] = 1
            # VHT sends a single MPDU as an S-MPDU (with its delimiter), HT as a plain MPDU
            return ppdu_ns(m + 4 * self.vht, self.dbps, self.encoders, self.preamble_us, self.short_gi)
        while k < self.max_mpdus and k < self.qlen[i]:
            nxt = add_subframe(length, m)
            d = ppdu_ns(nxt, self.dbps, self.encoders, self.preamble_us, self.short_gi)
            if k > 0 and (nxt > self.max_ampdu_bytes or d > self.max_ppdu_ns):
                break
            length, dur, k = nxt, d, k + 1
        self.n_agg[i] = k
        return dur

    cdef int settle(self, int i, int outcome) noexcept:
        """Station i's MPDUs after its transmission: delivered ones leave the queue, failed ones stay at
        its head (one more transmission each) unless at the retry limit; CW doubles on a failed
        exchange, resets on success or a drop (10.22.2.2); a new backoff follows."""
        cdef int k, n = self.n_agg[i], ok = 0, dropped = 0, keep = 0, pos, base = i * self.cap
        cdef int head = self.qhead[i]
        for k in range(n):
            pos = base + (head + k) % self.cap
            if outcome == SUCCESS and (self.error_rate == 0.0 or self.error_rng.uniform() >= self.error_rate):
                ok += 1
                continue
            self.qretries[pos] += 1
            if self.qretries[pos] >= self.retry_limit:
                dropped += 1
                continue
            # keep it: compact the kept MPDUs, in order, just before the untouched rest
            self.qretries[base + (head + keep) % self.cap] = self.qretries[pos]
            keep += 1
        # the kept MPDUs move to the front of the untouched part of the queue
        for k in range(keep - 1, -1, -1):
            self.qretries[base + (head + n - keep + k) % self.cap] = self.qretries[base + (head + k) % self.cap]
        self.qhead[i] = (head + n - keep) % self.cap
        self.qlen[i] -= n - keep
        self.delivered[i] += ok
        self.delivered_bytes[i] += ok * (self.mpdu_bytes[i] - MAC_OVERHEAD)
        self.dropped[i] += dropped
        self.mpdus_sent += n
        if ok == 0:
            outcome = ERRORED         # no MPDU arrived: no block ACK comes back
        if outcome == SUCCESS or dropped > 0:
            self.cw[i] = self.cwmin
        else:
            self.cw[i] = min(2 * self.cw[i] + 1, self.cwmax)
        # saturated: new MPDUs refill the queue behind the kept ones
        while self.qlen[i] < self.cap:
            self.qretries[base + (self.qhead[i] + self.qlen[i]) % self.cap] = 0
            self.qlen[i] += 1
        self.draw_backoff(i)
        return ok

    cdef void round(self) noexcept:
        """One transmission: the earliest backoff expiry, who transmits then, and the outcome."""
        cdef int i, ntx = 0, winner = -1, ok, drawn, cw
        cdef long long t = 0, e, busy_end = 0, end, own
        cdef bint first = True
        for i in range(self.n):
            e = self.resume[i] + self.counter[i] * self.slot_ns
            if first or e < t:
                t, first = e, False
        for i in range(self.n):
            self.tx[i] = self.resume[i] + self.counter[i] * self.slot_ns == t
            if self.tx[i]:
                ntx += 1
                winner = i
                self.ppdu_end[i] = t + self.aggregate(i)
                busy_end = max(busy_end, self.ppdu_end[i])
            elif self.resume[i] <= t:
                # the boundaries resume, resume + slot, ..., up to t each took one slot off
                self.counter[i] -= (t - self.resume[i]) // self.slot_ns + 1
        self.exchanges += 1
        if ntx == 1:
            drawn, cw = self.drawn[winner], self.cw[winner]
            ok = self.settle(winner, SUCCESS)
            end = busy_end + self.sifs_ns + self.resp_ns
            for i in range(self.n):
                # bystanders decoded the frame: its NAV covers SIFS + the (block) ACK
                self.resume[i] = end + self.aifs_ns
            if ok == 0:
                end = busy_end + self.ack_timeout_ns
                self.resume[winner] = end + self.aifs_ns
            self.log_row(winner, t, end, ok, SUCCESS if ok else ERRORED, drawn, cw)
            self.now_ns = end
            return
        self.collisions += 1
        for i in range(self.n):
            if self.tx[i]:
                drawn, cw = self.drawn[i], self.cw[i]
                own = max(self.ppdu_end[i] + self.ack_timeout_ns, busy_end)
                self.settle(i, COLLISION)
                self.resume[i] = own + self.aifs_ns
                self.log_row(i, t, own, 0, COLLISION, drawn, cw)
            elif self.eifs:
                self.resume[i] = busy_end + self.eifs_extra_ns + self.aifs_ns
            else:
                self.resume[i] = busy_end + self.ack_timeout_ns + self.aifs_ns
        self.now_ns = busy_end + self.ack_timeout_ns

    cdef void log_row(self, int i, long long start, long long end, int ok, int outcome, int drawn,
                      int cw) noexcept:
        # one row of the log (tests read it), while there is room
        cdef Py_ssize_t row = self.log_len
        if row >= self.log.shape[0]:
            return
        self.log[row, 0] = start
        self.log[row, 1] = self.ppdu_end[i]
        self.log[row, 2] = end
        self.log[row, 3] = i
        self.log[row, 4] = drawn
        self.log[row, 5] = cw
        self.log[row, 6] = self.n_agg[i]
        self.log[row, 7] = ok
        self.log[row, 8] = outcome
        self.log_len += 1

    def set_backoff(self, int station, int slots):
        """Set a station's remaining backoff (tests pin the timing with it)."""
        if not 0 <= station < self.n or slots < 0:
            raise ValueError(f"set_backoff: station must be in 0..{self.n - 1} and slots >= 0, got {station}, {slots}")
        self.counter[station] = slots
        self.drawn[station] = slots

    def step(self):
        """One transmission (or collision)."""
        self.round()

    def run(self, double until_s):
        """Transmissions until the medium's clock passes until_s seconds."""
        cdef long long until = <long long>(until_s * 1e9)
        while self.now_ns < until:
            self.round()

    @property
    def log_table(self):
        """The logged transmissions: one row per station per PPDU, columns LOG_COLUMNS."""
        return self.log_rows[:self.log_len].copy()

    @property
    def delivered_mpdus(self):
        return np.array([self.delivered[i] for i in range(self.n)], dtype=np.int64)

    @property
    def delivered_payload_bytes(self):
        return np.array([self.delivered_bytes[i] for i in range(self.n)], dtype=np.int64)

    @property
    def dropped_mpdus(self):
        return np.array([self.dropped[i] for i in range(self.n)], dtype=np.int64)

    @property
    def contention_windows(self):
        return [self.cw[i] for i in range(self.n)]
