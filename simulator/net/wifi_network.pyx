"""An 802.11 channel inside the packet network (a model's `medium: wifi`): the wireless links of one
Wi-Fi network share it by EDCA, with the network's own queues and packets.  The timing rules are
those of the saturated medium that tests/test_wifi_mac.py pins (simulator/net/wifi_mac.pyx).

Contenders are the transmitting nodes: a station, or the access point for all of its wireless links
(one backoff per node, as one access category of mac80211 has).  A contender with a packet waiting
counts its backoff down in slots from the end of AIFS after the medium went idle; the earliest
expiry transmits, two expiring in the same slot collide.  It sends an A-MPDU to one receiver (chosen by
its TxQueues, simulator/net/wifi_txq.pyx): the MPDUs still awaiting a block ACK first, then new packets
from that link's queues (the discipline, or the driver queue below it), within the
block-ACK window (max_ampdu_mpdus MPDUs from the oldest unacknowledged one), the byte limit and the
PPDU time limit.  MPDUs received in error (a fixed rate per link) go out again in the next A-MPDU,
up to the retry limit, then are dropped.  The receiver passes MPDUs up in order (its block-ACK
reorder buffer): one received behind a missing one waits for it.  A contender whose queue empties
keeps counting while the medium is idle (post-backoff) and sends at once on a new packet if its count
has run out and the medium has been idle for AIFS; a packet arriving while the medium is busy and
the count is 0 draws a new backoff (IEEE 802.11-2016 10.22.2.2).

Times inside the channel are integer nanoseconds, as in wifi_mac.pyx, converted from and to the
network's seconds at its edges; the network's events reach it as link_done of its first link (an
event whose time no longer matches the channel's plan is stale and ignored).  Per-contender state is
in C arrays allocated once in set_wifi: nothing is allocated per frame.
"""
from libc.math cimport llround
from libc.stdlib cimport calloc, free

from simulator.core.rng cimport Stream
from simulator.net.links cimport Link
from simulator.net.network cimport Network, Packet
from simulator.net.wifi_airtime cimport add_subframe, ppdu_ns
from simulator.net.wifi_rate cimport LinkRates
from simulator.net.wifi_txq cimport TxQueues
from simulator.net import wifi_mac, wifi_phy

cdef enum:
    IDLE = 0          # no contender has a packet
    CONTENDING = 1    # a transmission starts at `when`
    ON_AIR = 2        # the PPDUs on the air end at `when`

cdef enum:
    AWAITING = 0      # in the block-ACK window, to be sent (again)
    SENDING = 1       # in the PPDU on the air
    RECEIVED = 2      # acknowledged, held until those before it are through
    DROPPED = 3       # at the retry limit

# the network's sizes are Ethernet frames; an MPDU carries the IP packet in 802.11 framing
cdef int ETH_HEADER = 14
cdef int MAC_OVERHEAD = wifi_phy.MAC_OVERHEAD_BYTES
# network params that only the saturated medium (wifi_mac.py) reads
SATURATED_ONLY = ("stations", "msdu_bytes")


cdef class WifiNetwork(Network):
    """A Network (simulator/net/network.pyx) whose wireless links share one 802.11 channel (set_wifi)."""
    cdef int n_cont, win, retry_limit, cwmin, cwmax, dbps, encoders, preamble_us
    cdef bint short_gi, vht, eifs
    cdef long long max_ampdu_bytes, max_ppdu_ns, slot_ns, sifs_ns, aifs_ns, resp_ns, ack_timeout_ns
    cdef long long eifs_extra_ns, when, busy_until
    cdef int state, ev_link
    cdef Stream backoff_rng, error_rng
    cdef readonly LinkRates rates     # each link's MCS and, with error_model: snr, its MPDU errors
    cdef int* ppdu_mcs            # per contender: the MCS of its PPDU
    cdef readonly TxQueues txq    # each link's queues and which link a contender serves next
    cdef readonly long long exchanges, collisions, mpdus_sent, mac_drops
    cdef int* link_cont           # per network link: its contender, or -1 (not on the channel)
    cdef double* error_rate       # per network link: probability an MPDU is received in error
    # per contender: its backoff
    cdef long long* resume        # when its AIFS after the last busy period ends
    cdef long long* ready         # when it last got a packet with nothing else to send
    cdef int* counter             # backoff slots left, as of resume
    cdef int* cw
    cdef long long* ppdu_end
    cdef char* tx
    # per contender: its block-ACK window, a ring of `win` slots, all to the link wlink[c]
    cdef int* wlink
    cdef int* whead
    cdef int* wlen
    cdef int* wpid
    cdef char* wstate

    def __dealloc__(self):
        free(self.link_cont); free(self.error_rate)
        free(self.resume); free(self.ready); free(self.counter); free(self.cw); free(self.ppdu_end)
        free(self.tx); free(self.wlink); free(self.whead); free(self.wlen); free(self.wpid); free(self.wstate)
        free(self.ppdu_mcs)

    def set_wifi(self, links, owners, params, key, error_rates=None, snr_db=None):
        """The network links `links` share one channel; owners[i] names the node that transmits on
        links[i] (a node's links share its backoff); params: simulator/net/wifi.params.yaml's keys
        but `stations` and `msdu_bytes`; error_rates: {link: MPDU error probability}, else the
        params' mpdu_error_rate for every link; snr_db: {link: dB}, else the params' snr_db (error_model:
        snr).  Set before packets use the links."""
        links, owners = list(links), list(owners)
        bad = sorted(set(params) & set(SATURATED_ONLY))
        if bad:
            raise ValueError(f"{wifi_phy.PARAMS_FILE.name}: key(s) {bad} describe the saturated medium only; "
                             f"a network's channel carries its own packets")
        if self.link_cont != NULL:
            raise ValueError("this network already has a Wi-Fi channel")
        if not links or len(links) != len(owners) or len(set(links)) != len(links) \
                or any(not 0 <= x < self.n_links for x in links):
            raise ValueError(f"a Wi-Fi channel needs distinct links (0..{self.n_links - 1}), one owner each; "
                             f"got links {links}, owners {owners}")
        for x in links:
            if self.links[x].busy or self.links[x].count or self.impaired[x] & 8:
                raise ValueError(f"link {x}: set the Wi-Fi channel before packets use it, on links of no other medium")
        cfg = wifi_phy.wifi_config(dict(params))
        self._set_timing(cfg)
        names = list(dict.fromkeys(owners))
        self.n_cont = len(names)
        self._allocate()
        for x in range(self.n_links):
            self.link_cont[x] = -1
        rates = dict(error_rates or {})
        for x, name in zip(links, owners):
            self.link_cont[x] = names.index(name)
            self.error_rate[x] = float(rates.pop(x, cfg["mpdu_error_rate"]))
            if not 0.0 <= self.error_rate[x] < 1.0:
                raise ValueError(f"link {x}: MPDU error rate must be in [0, 1), got {self.error_rate[x]}")
            self.impaired[x] |= 8            # never lazy (Links.plan): the channel times it
        if rates:
            raise ValueError(f"error_rates names links {sorted(rates)} that are not on the channel {links}")
        self.rates = LinkRates(cfg, self.n_links, key, snr_db)
        self.txq = TxQueues(self, self.n_links, links, [names.index(o) for o in owners], self.n_cont,
                            cfg["airtime_fairness"], <long long>round(cfg["airtime_quantum_us"] * 1000),
                            cfg["driver_queue_pkts"])
        self.ev_link = links[0]
        self.backoff_rng = Stream(key, "wifi-backoff")
        self.error_rng = Stream(key, "wifi-mpdu-errors")
        for c in range(self.n_cont):
            self.cw[c] = self.cwmin
            self.resume[c] = self.aifs_ns      # the medium was idle before time 0
            self._draw_backoff(c)
        return names

    def _set_timing(self, cfg):
        mode = wifi_phy.phy_mode(cfg["standard"], cfg["channel_mhz"], cfg["spatial_streams"], cfg["mcs"],
                                 cfg["guard_interval_ns"])
        aifsn, self.cwmin, self.cwmax = wifi_phy.EDCA[cfg["access_category"]]
        self.win = cfg["max_ampdu_mpdus"]
        self.dbps, self.encoders, self.preamble_us = mode.dbps, mode.encoders, mode.preamble_us
        self.short_gi = mode.guard_ns == 400
        self.vht = cfg["standard"] == "ac"
        self.retry_limit = cfg["retry_limit"]
        self.max_ampdu_bytes = cfg["max_ampdu_bytes"]
        self.max_ppdu_ns = <long long>round(cfg["max_ppdu_us"] * 1000)
        self.slot_ns = wifi_phy.SLOT_US * 1000
        self.sifs_ns = wifi_phy.SIFS_US * 1000
        self.aifs_ns = (wifi_phy.SIFS_US + aifsn * wifi_phy.SLOT_US) * 1000
        self.resp_ns = <long long>round(1000 * (wifi_mac.ack_us(cfg) if self.win == 1 else wifi_mac.block_ack_us(cfg)))
        self.ack_timeout_ns = self.sifs_ns + self.slot_ns + <long long>round(cfg["rx_phy_start_delay_us"] * 1000)
        self.eifs_extra_ns = self.sifs_ns + 1000 * wifi_phy.non_ht_us(wifi_phy.ACK_BYTES, 6)
        self.eifs = cfg["eifs"]

    def _allocate(self):
        n, w = self.n_cont, self.win
        self.link_cont = <int*>calloc(self.n_links, sizeof(int))
        self.error_rate = <double*>calloc(self.n_links, sizeof(double))
        self.resume = <long long*>calloc(n, sizeof(long long))
        self.ready = <long long*>calloc(n, sizeof(long long))
        self.counter = <int*>calloc(n, sizeof(int))
        self.cw = <int*>calloc(n, sizeof(int))
        self.ppdu_end = <long long*>calloc(n, sizeof(long long))
        self.tx = <char*>calloc(n, sizeof(char))
        self.wlink = <int*>calloc(n, sizeof(int))
        self.whead = <int*>calloc(n, sizeof(int))
        self.wlen = <int*>calloc(n, sizeof(int))
        self.wpid = <int*>calloc(n * w, sizeof(int))
        self.wstate = <char*>calloc(n * w, sizeof(char))
        self.ppdu_mcs = <int*>calloc(n, sizeof(int))
        if (self.link_cont == NULL or self.error_rate == NULL or self.resume == NULL or self.ready == NULL or self.counter == NULL
                or self.cw == NULL or self.ppdu_end == NULL or self.tx == NULL or self.wlink == NULL
                or self.whead == NULL or self.wlen == NULL or self.wpid == NULL or self.wstate == NULL
                or self.ppdu_mcs == NULL):
            raise MemoryError()

    # ------------------------------------------------------------------ the network's hooks
    cdef int _enqueue(self, int link, int pid, double now) except -2:
        """A packet reaches a link's waiting room; on the channel, it waits for its node's turn."""
        cdef int c
        cdef bint idle
        if self.link_cont == NULL or self.link_cont[link] < 0:
            return Network._enqueue(self, link, pid, now)
        c = self.link_cont[link]
        idle = not self._has_work(c)
        if not self._wait(link, pid):
            return 0
        self.txq.refill(link)                    # into the driver queue if it has room
        if idle:
            self._wake(c, llround(now * 1e9))
        return 1

    cdef int link_done(self, int link, double now) except -1:
        cdef long long t
        if self.link_cont == NULL or self.link_cont[link] < 0:
            return Network.link_done(self, link, now)
        t = llround(now * 1e9)
        if t != self.when:
            return 0                             # stale: planned before a packet changed the plan
        if self.state == CONTENDING:
            self._contend(t)
        elif self.state == ON_AIR:
            self._end_ppdus(t)
        return 0

    # ------------------------------------------------------------------ queues and contention
    cdef bint _has_work(self, int c) except -1:
        return self.wlen[c] > 0 or self.txq.has_packets(c)

    cdef int _wake(self, int c, long long t) except -1:
        """Contender c, with nothing to send before, has a packet at t."""
        cdef long long e
        self.ready[c] = t
        if self.counter[c] == 0 and (self.state == ON_AIR or t < self.busy_until):
            self._draw_backoff(c)                # the medium is busy: back off first
        if self.state == ON_AIR:
            return 0                             # the PPDUs' end plans the next transmission
        e = self._expiry(c)
        if self.state == IDLE or e < self.when:
            self._plan(CONTENDING, e)
        return 0

    cdef inline long long _expiry(self, int c) noexcept:
        # its count runs out at a slot boundary; one that ran out while it had nothing sends on its packet
        return max(self.resume[c] + self.counter[c] * self.slot_ns, self.ready[c])

    cdef int _plan(self, int state, long long t) except -1:
        self.state = state
        self.when = t
        # t came from the network's time rounded to ns: never before it in seconds
        self.events.push(max(t * 1e-9, self.events.now), self.ev_done, self.ev_link)
        return 0

    cdef int _plan_next(self) except -1:
        """The earliest expiry among contenders with something to send, or IDLE."""
        cdef int c
        cdef long long e, best = 0
        cdef bint any_work = False
        for c in range(self.n_cont):
            if self._has_work(c):
                e = self._expiry(c)
                if not any_work or e < best:
                    best, any_work = e, True
        if any_work:
            return self._plan(CONTENDING, best)
        self.state = IDLE
        return 0

    cdef int _contend(self, long long t) except -1:
        """The backoff of one or more contenders runs out at t: they transmit; the others count the slots."""
        cdef int c
        cdef bint any_tx = False
        cdef long long busy_end = t
        for c in range(self.n_cont):
            self.tx[c] = self._has_work(c) and self._expiry(c) == t
            if self.tx[c]:
                self.ppdu_end[c] = t + self._build_ampdu(c, t)
                self.txq.charge(self.wlink[c], self.ppdu_end[c] - t)
                if self.wlen[c] == 0:                # an AQM dropped all it had (a guard): nothing to send
                    self.tx[c] = 0
                    continue
                any_tx = True
                busy_end = max(busy_end, self.ppdu_end[c])
        if not any_tx:
            return self._plan_next()
        for c in range(self.n_cont):
            if not self.tx[c] and self.resume[c] <= t:
                # the boundaries resume, resume + slot, ..., up to t each took one slot off
                self.counter[c] -= min(self.counter[c], <int>((t - self.resume[c]) // self.slot_ns + 1))
        self.exchanges += 1
        return self._plan(ON_AIR, busy_end)

    cdef int _end_ppdus(self, long long t) except -1:
        """The PPDUs on the air end at t: one alone is answered by a (block) ACK, several collided."""
        cdef int c, ntx = 0, winner = -1, ok
        cdef long long end
        for c in range(self.n_cont):
            if self.tx[c]:
                ntx += 1
                winner = c
        if ntx == 1:
            ok = self._settle(winner, True, t)
            end = t + self.sifs_ns + self.resp_ns
            self.busy_until = end
            for c in range(self.n_cont):
                self.resume[c] = end + self.aifs_ns      # bystanders: the frame's NAV covers the answer
            if ok == 0:
                self.resume[winner] = t + self.ack_timeout_ns + self.aifs_ns
        else:
            self.collisions += 1
            self.busy_until = t
            for c in range(self.n_cont):
                if self.tx[c]:
                    self._settle(c, False, t)
                    self.resume[c] = max(self.ppdu_end[c] + self.ack_timeout_ns, t) + self.aifs_ns
                elif self.eifs:
                    self.resume[c] = t + self.eifs_extra_ns + self.aifs_ns
                else:
                    self.resume[c] = t + self.ack_timeout_ns + self.aifs_ns
        for c in range(self.n_cont):
            self.tx[c] = 0
        return self._plan_next()

    # ------------------------------------------------------------------ aggregates
    cdef inline int _mpdu(self, int pid) noexcept:
        return self.pkts[pid].size - ETH_HEADER + MAC_OVERHEAD

    cdef long long _airtime(self, long long length, int mpdus) noexcept:
        if self.win == 1:       # no aggregation: VHT still sends an S-MPDU (with its delimiter)
            return ppdu_ns(length + 4 * self.vht, self.dbps, self.encoders, self.preamble_us, self.short_gi)
        return ppdu_ns(length, self.dbps, self.encoders, self.preamble_us, self.short_gi)

    cdef bint _fits(self, long long length, int mpdus) noexcept:
        return mpdus == 1 or (length <= self.max_ampdu_bytes and self._airtime(length, mpdus) <= self.max_ppdu_ns)

    cdef long long _build_ampdu(self, int c, long long t) except -1:
        """Contender c's PPDU at t: window MPDUs to send again, then new packets while the window and the
        limits allow, at the link's MCS; returns its duration, ns."""
        cdef int j, slot, pid, link, mpdus = 0, base = c * self.win
        cdef long long length = 0, nxt
        if self.wlen[c] == 0:
            self.wlink[c] = self.txq.pick(c)
        self.ppdu_mcs[c] = self.rates.pick(self.wlink[c], t)
        self.dbps = self.rates.dbps[self.ppdu_mcs[c]]
        self.encoders = self.rates.encoders[self.ppdu_mcs[c]]
        for j in range(self.wlen[c]):
            slot = base + (self.whead[c] + j) % self.win
            if self.wstate[slot] != AWAITING:
                continue
            nxt = length + self._mpdu(self.wpid[slot]) if self.win == 1 else add_subframe(length, self._mpdu(self.wpid[slot]))
            if not self._fits(nxt, mpdus + 1):
                return self._airtime(length, mpdus)
            self.wstate[slot] = SENDING
            length, mpdus = nxt, mpdus + 1
        while self.wlen[c] < self.win and self.txq.backlog(self.wlink[c]):
            pid = self.txq.take(self.wlink[c])
            if pid < 0:      # an AQM dropped what that link had left (not CoDel: it keeps a flow's last packet)
                link = self.txq.pick(c) if self.wlen[c] == 0 else -1
                if link < 0:
                    break
                self.wlink[c] = link                 # another of c's links has packets: its turn
                continue
            nxt = length + self._mpdu(pid) if self.win == 1 else add_subframe(length, self._mpdu(pid))
            if not self._fits(nxt, mpdus + 1):
                self.txq.hold(self.wlink[c], pid)    # the next A-MPDU to this link takes it first
                break
            slot = base + (self.whead[c] + self.wlen[c]) % self.win
            self.wpid[slot] = pid
            self.wlen[c] += 1
            self.wstate[slot] = SENDING
            length, mpdus = nxt, mpdus + 1
        self.mpdus_sent += mpdus
        return self._airtime(length, mpdus)

    cdef int _settle(self, int c, bint answered, long long t) except -1:
        """The outcome of c's PPDU at t: each MPDU received (unless in error) or to be sent again, or
        dropped at the retry limit; in-order ones go up; CW doubles when none arrived, else resets."""
        cdef int j, slot, pid, ok = 0, dropped = 0, sent = 0, base = c * self.win
        cdef double err = self.error_rate[self.wlink[c]]
        for j in range(self.wlen[c]):
            slot = base + (self.whead[c] + j) % self.win
            if self.wstate[slot] != SENDING:
                continue
            sent += 1
            if self.rates.snr_errors:
                err = self.rates.error(self.wlink[c], self.ppdu_mcs[c], self._mpdu(self.wpid[slot]))
            if answered and (err == 0.0 or self.error_rng.uniform() >= err):
                self.wstate[slot] = RECEIVED
                ok += 1
                continue
            pid = self.wpid[slot]
            self.pkts[pid].retries += 1
            if self.pkts[pid].retries >= self.retry_limit:
                self.wstate[slot] = DROPPED
                dropped += 1
            else:
                self.wstate[slot] = AWAITING
        self.rates.report(self.wlink[c], self.ppdu_mcs[c], sent, ok)
        self._release(c, t * 1e-9)
        if ok or dropped:
            self.cw[c] = self.cwmin
        else:
            self.cw[c] = min(2 * self.cw[c] + 1, self.cwmax)
        self._draw_backoff(c)
        return ok

    cdef int _release(self, int c, double now) except -1:
        """MPDUs at the head of c's window that are through leave it: received ones travel on, dropped
        ones are lost (the model hears of them when they would have arrived)."""
        cdef int slot, pid, link = self.wlink[c]
        while self.wlen[c]:
            slot = c * self.win + self.whead[c]
            pid = self.wpid[slot]
            if self.wstate[slot] == RECEIVED:
                self._depart(link, pid, now)
            elif self.wstate[slot] == DROPPED:
                self.mac_drops += 1
                self.pkts[pid].hop = -2
                self._propagate(link, pid, now + self.links[link].delay, now)
            else:
                break
            self.whead[c] = (self.whead[c] + 1) % self.win
            self.wlen[c] -= 1
        return 0

    cdef void _draw_backoff(self, int c) noexcept:
        # uniform in [0, CW] (10.22.2.2)
        self.counter[c] = <int>(self.backoff_rng.uniform() * (self.cw[c] + 1))

    def set_backoff(self, int contender, int slots):
        """Set a contender's remaining backoff (tests pin the timing with it); contenders are numbered
        in the order set_wifi's owners first name them."""
        if not 0 <= contender < self.n_cont or slots < 0:
            raise ValueError(f"set_backoff: contender must be in 0..{self.n_cont - 1} and slots >= 0, "
                             f"got {contender}, {slots}")
        self.counter[contender] = slots

    def link_airtime(self, int link):
        """PPDU time sent on a network link so far, s."""
        return self.txq.airtime[link] * 1e-9

    def contention_windows(self):
        return [self.cw[c] for c in range(self.n_cont)]
