"""BBR v1 (Cardwell et al. 2016) as ns-3.41's TcpBbr runs it (itself a port of Linux tcp_bbr v1).

Units: packets, packets/s and seconds.  The algorithm owns cwnd and pacing rate: the sender calls
cong_control(s, rs) on every ACK that delivers data, in any recovery state, and cong_control
assigns s.cwnd and s.pacing_rate.  Order per ACK, as ns-3's CongControl:
UpdateBtlBw (round counting, max filter) -> CheckCyclePhase -> CheckFullPipe -> CheckDrain ->
UpdateRTprop -> CheckProbeRTT -> set pacing rate -> set cwnd.

* States and gains: STARTUP pacing and cwnd gain high_gain = 2.89 (ns-3's value of 2/ln2);
  DRAIN pacing 1/high_gain, cwnd high_gain; PROBE_BW cwnd gain 2, pacing gain cycling through
  [1.25, 0.75, 1, 1, 1, 1, 1, 1]; PROBE_RTT gains 1 and cwnd at most 4 packets.
* PROBE_BW start phase: cycle_start=-1 (default) draws like Linux, cycle_index = 7 - U{0..6},
  then advances one phase, so the first phase is one of {2,...,7,0} and never the 0.75 phase.
  The draw comes from a splitmix64 stream seeded by the `seed` parameter (ns-3 uses its own
  UniformRandomVariable, stream 4, with 6 choices, which also never starts in phase 2).
  cycle_start=k in 0..7 fixes the first phase at k (k=0: deterministic 1.25 phase first).
  A phase lasts more than one rtprop; the 1.25 phase also waits for loss or
  prior_in_flight >= inflight(1.25); the 0.75 phase ends early once prior_in_flight <= inflight(1).
* Round counting: a round starts when rs.prior_delivered >= next_round_delivered, which is then
  set to s.delivered.  An ACK without a valid rate sample (rs.delivery_rate <= 0) ends no round
  and feeds no filter (Linux clears round_start first; ns-3 leaves the stale flag - we follow
  Linux here).
* Max filter: windowed maximum of rs.delivery_rate over bw_window = 10 rounds (Kathleen Nichols'
  three-sample running max, Linux lib/minmax.c); app-limited samples enter only if they are not
  below the current max.  As in ns-3, the filter is seeded with cwnd / max(min_rtt, 1 ms)
  (min_rtt truncated to whole ms) at init and again when the first RTT is seen.
* rtprop: min RTT over rtprop_window = 10 s; a sample <= rtprop or an expired filter replaces
  it.  RTT source: use_srtt=False (the catalogue's choice) takes rs.rtt, the latest raw sample, as
  Linux does and as ns-3 does since 3.43 (TcpBbr reads tcb->m_lastRtt, which TcpSocketBase::EstimateRtt
  sets to the RTT of the last ACKed segment; before 3.43 it was the smoothed estimate); use_srtt=True
  (the default here) takes s.srtt, as ns-3.41 did.
* Full pipe: at a round start with a non-app-limited sample, bw >= 1.25 full_bw resets the count;
  otherwise after 3 such rounds the pipe is full -> DRAIN, and ssthresh = inflight(1).
  DRAIN -> PROBE_BW when in_flight <= inflight(1).
* PROBE_RTT: entered when rtprop expired (and not restarting from idle); cwnd saved; once
  in_flight <= 4 the exit time is max(now + 200 ms, end of the next round); on exit rtprop_stamp =
  now, cwnd = max(saved, cwnd), back to PROBE_BW if the pipe is full else STARTUP.
* inflight(gain) = gain * btl_bw * rtprop + 3 * send_quantum (send_quantum = 1 packet, ns-3's
  value), +2 packets in PROBE_BW phase 0 (ns-3/Linux); initial cwnd while no rtprop is known.
  cwnd: with a full pipe cwnd = min(cwnd + acked, target), else cwnd += acked while cwnd < target
  or fewer than initial_cwnd packets were delivered; then cwnd >= 4 (min_pipe_cwnd).
  ACK aggregation compensation (ns-3's extra_acked) is not modelled.
* Pacing: rate = gain * btl_bw * (1 - pacing_margin), pacing_margin = 0.01 as in Linux and ns-3
  (pacing_margin=0 gives gain * btl_bw exactly); before the pipe is full the rate only rises.
* Loss: set_state(RECOVERY) saves cwnd, sets cwnd = in_flight + max(last ACK's delivered, 1) and
  starts packet conservation; in recovery each ACK does cwnd = max(cwnd - losses, 1) and, during
  the first round, cwnd = max(cwnd, in_flight + acked) and nothing else.  set_state(LOSS) saves
  cwnd and marks a round start.  cwnd_event(COMPLETE_CWR) ends conservation and restores
  cwnd = max(saved, cwnd).  ssthresh(s) saves cwnd (ns-3's GetSsThresh calls SaveCwnd) and
  returns the current cwnd (the value is unused by BBR).  Assumes the sender calls set_state
  while s.cwnd is still the pre-loss window, as the sender contract says.
"""
from libc.math cimport INFINITY, floor

from simulator.tcp.cc.base cimport (AckSample, CA_EVENT_COMPLETE_CWR, CA_EVENT_TX_START,
                                    CA_LOSS, CA_RECOVERY, CongestionControl, TcpState)
from simulator.tcp.cc.options import with_defaults

STARTUP, DRAIN, PROBE_BW, PROBE_RTT = BBR_STARTUP, BBR_DRAIN, BBR_PROBE_BW, BBR_PROBE_RTT
MODE_NAMES = ("STARTUP", "DRAIN", "PROBE_BW", "PROBE_RTT")
PACING_GAIN_CYCLE = (1.25, 0.75, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0)
cdef double[8] _CYCLE = [1.25, 0.75, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0]
cdef int CYCLE_LEN = 8
cdef int CYCLE_RAND = 7          # Linux bbr_cycle_rand

DEFAULTS = {"high_gain": 2.89, "bw_window": 10, "rtprop_window": 10.0,
            "probe_rtt_duration": 0.2, "pacing_margin": 0.01, "use_srtt": True,
            "cycle_start": -1, "seed": 0}


def check_params(double high_gain, long bw_window, double rtprop_window, double probe_rtt_duration,
                 double pacing_margin, int cycle_start):
    """The one place parameters are range-checked."""
    if not 1.0 < high_gain <= 10.0:
        raise ValueError(f"bbr high_gain must be in (1, 10] (default 2.89), got {high_gain}")
    if not 1 <= bw_window <= 1000:
        raise ValueError(f"bbr bw_window must be 1..1000 rounds (default 10), got {bw_window}")
    if not 0.0 < rtprop_window < INFINITY:
        raise ValueError(f"bbr rtprop_window must be > 0 s (default 10), got {rtprop_window}")
    if not 0.0 <= probe_rtt_duration < INFINITY:
        raise ValueError(f"bbr probe_rtt_duration must be >= 0 s (default 0.2), got {probe_rtt_duration}")
    if not 0.0 <= pacing_margin < 1.0:
        raise ValueError(f"bbr pacing_margin must be in [0, 1) (default 0.01), got {pacing_margin}")
    if not -1 <= cycle_start <= 7:
        raise ValueError(f"bbr cycle_start must be -1 (random) or a phase 0..7, got {cycle_start}")


cdef inline unsigned long long _splitmix64(unsigned long long* state) noexcept:
    cdef unsigned long long z
    state[0] += 0x9E3779B97F4A7C15ULL
    z = state[0]
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL
    return z ^ (z >> 31)


cdef class Bbr(CongestionControl):
    def __init__(self, double high_gain=2.89, long bw_window=10, double rtprop_window=10.0,
                 double probe_rtt_duration=0.2, double pacing_margin=0.01, bint use_srtt=True,
                 int cycle_start=-1, unsigned long long seed=0):
        check_params(high_gain, bw_window, rtprop_window, probe_rtt_duration, pacing_margin,
                     cycle_start)
        self.name = "bbr"
        self.owns_cwnd = True
        self.high_gain = high_gain
        self.bw_window = bw_window
        self.rtprop_window = rtprop_window
        self.probe_rtt_duration = probe_rtt_duration
        self.pacing_margin = pacing_margin
        self.use_srtt = use_srtt
        self.cycle_start = cycle_start
        self.rng_state = seed
        self.min_pipe_cwnd = 4.0
        self.send_quantum = 1.0
        self.rtprop = INFINITY
        self.mode = BBR_STARTUP
        self.pacing_gain = high_gain
        self.cwnd_gain = high_gain

    # ---------------------------------------------------------------- max-bandwidth filter
    cpdef double btl_bw(self):
        return self.bw_v[0]

    cpdef void bw_filter_reset(self, double rate, long long t):
        cdef int i
        for i in range(3):
            self.bw_v[i] = rate
            self.bw_t[i] = t

    cpdef void bw_filter_update(self, double rate, long long t):
        """Running max over the last bw_window rounds (Linux minmax_running_max)."""
        cdef long long win = self.bw_window, dt
        if rate >= self.bw_v[0] or t - self.bw_t[2] > win:
            self.bw_filter_reset(rate, t)
            return
        if rate >= self.bw_v[1]:
            self.bw_v[2] = self.bw_v[1] = rate
            self.bw_t[2] = self.bw_t[1] = t
        elif rate >= self.bw_v[2]:
            self.bw_v[2] = rate
            self.bw_t[2] = t
        dt = t - self.bw_t[0]
        if dt > win:
            self.bw_v[0] = self.bw_v[1]; self.bw_t[0] = self.bw_t[1]
            self.bw_v[1] = self.bw_v[2]; self.bw_t[1] = self.bw_t[2]
            self.bw_v[2] = rate; self.bw_t[2] = t
            if t - self.bw_t[0] > win:
                self.bw_v[0] = self.bw_v[1]; self.bw_t[0] = self.bw_t[1]
                self.bw_v[1] = self.bw_v[2]; self.bw_t[1] = self.bw_t[2]
                self.bw_v[2] = rate; self.bw_t[2] = t
        elif self.bw_t[1] == self.bw_t[0] and dt * 4 > win:
            self.bw_v[2] = self.bw_v[1] = rate
            self.bw_t[2] = self.bw_t[1] = t
        elif self.bw_t[2] == self.bw_t[1] and dt * 2 > win:
            self.bw_v[2] = rate
            self.bw_t[2] = t

    # ---------------------------------------------------------------- helpers
    cdef int _random_below(self, int n):
        return <int>(_splitmix64(&self.rng_state) % <unsigned long long>n)

    cpdef double inflight(self, double gain):
        """ns-3 InFlight(gain): gain * BDP + 3 quanta (+2 in PROBE_BW phase 0), packets."""
        cdef double r
        if self.rtprop == INFINITY:
            return self.initial_cwnd
        r = gain * self.bw_v[0] * self.rtprop + 3.0 * self.send_quantum
        if self.mode == BBR_PROBE_BW and self.cycle_index == 0:
            r += 2.0
        return r

    cdef void _init_pacing_rate(self, TcpState s):
        cdef double rtt, nominal
        if s.min_rtt > 0:
            rtt = max(floor(s.min_rtt * 1000.0), 1.0) / 1000.0
            self.has_seen_rtt = True
        else:
            rtt = 0.001
        nominal = s.cwnd / rtt
        s.pacing_rate = self.pacing_gain * nominal
        self.bw_filter_reset(nominal, 0)

    cdef void _set_pacing_rate(self, TcpState s, double gain):
        cdef double rate = gain * self.bw_v[0] * (1.0 - self.pacing_margin)
        if not self.has_seen_rtt and s.min_rtt > 0:
            self._init_pacing_rate(s)
        if self.full_pipe or rate > s.pacing_rate:
            s.pacing_rate = rate

    cdef void _enter_startup(self):
        self.mode = BBR_STARTUP
        self.pacing_gain = self.high_gain
        self.cwnd_gain = self.high_gain

    cdef void _enter_drain(self):
        self.mode = BBR_DRAIN
        self.pacing_gain = 1.0 / self.high_gain
        self.cwnd_gain = self.high_gain

    cdef void _enter_probe_bw(self, double now):
        self.mode = BBR_PROBE_BW
        self.pacing_gain = 1.0
        self.cwnd_gain = 2.0
        if self.cycle_start < 0:
            self.cycle_index = CYCLE_LEN - 1 - self._random_below(CYCLE_RAND)
        else:
            self.cycle_index = (self.cycle_start + CYCLE_LEN - 1) % CYCLE_LEN
        self._advance_cycle_phase(now)

    cdef void _advance_cycle_phase(self, double now):
        self.cycle_stamp = now
        self.cycle_index = (self.cycle_index + 1) % CYCLE_LEN
        self.pacing_gain = _CYCLE[self.cycle_index]

    cdef bint _is_next_cycle_phase(self, TcpState s, AckSample rs):
        cdef bint full_length = (s.now - self.cycle_stamp) > self.rtprop
        if self.pacing_gain == 1.0:
            return full_length
        if self.pacing_gain > 1.0:
            return full_length and (rs.losses > 0
                                    or rs.prior_in_flight >= self.inflight(self.pacing_gain))
        return full_length or rs.prior_in_flight <= self.inflight(1.0)

    cdef void _enter_probe_rtt(self):
        self.mode = BBR_PROBE_RTT
        self.pacing_gain = 1.0
        self.cwnd_gain = 1.0

    cdef void _save_cwnd(self, TcpState s):
        if s.ca_state != CA_RECOVERY and self.mode != BBR_PROBE_RTT:
            self.prior_cwnd = s.cwnd
        else:
            self.prior_cwnd = max(self.prior_cwnd, s.cwnd)

    cdef void _restore_cwnd(self, TcpState s):
        s.cwnd = max(self.prior_cwnd, s.cwnd)

    cdef void _exit_probe_rtt(self, double now):
        if self.full_pipe:
            self._enter_probe_bw(now)
        else:
            self._enter_startup()

    cdef void _handle_probe_rtt(self, TcpState s):
        # (ns-3 also marks the connection app-limited here; the sender's rate estimator owns that)
        if self.probe_rtt_done_stamp < 0 and s.in_flight <= self.min_pipe_cwnd:
            self.probe_rtt_done_stamp = s.now + self.probe_rtt_duration
            self.probe_rtt_round_done = False
            self.next_round_delivered = self.delivered
        elif self.probe_rtt_done_stamp >= 0:
            if self.round_start:
                self.probe_rtt_round_done = True
            if self.probe_rtt_round_done and s.now > self.probe_rtt_done_stamp:
                self.rtprop_stamp = s.now
                self._restore_cwnd(s)
                self._exit_probe_rtt(s.now)

    cdef void _set_cwnd(self, TcpState s, AckSample rs):
        cdef long acked = rs.delivered
        if acked > 0:
            if s.ca_state == CA_RECOVERY:
                if rs.losses > 0:
                    s.cwnd = max(s.cwnd - rs.losses, 1.0)
                if self.packet_conservation:
                    s.cwnd = max(s.cwnd, <double>(s.in_flight + acked))
                    if self.mode == BBR_PROBE_RTT:
                        s.cwnd = min(s.cwnd, self.min_pipe_cwnd)
                    return
            self.target_cwnd = self.inflight(self.cwnd_gain)
            if self.full_pipe:
                s.cwnd = min(s.cwnd + acked, self.target_cwnd)
            elif s.cwnd < self.target_cwnd or self.delivered < self.initial_cwnd:
                s.cwnd = s.cwnd + acked
            s.cwnd = max(s.cwnd, self.min_pipe_cwnd)
        if self.mode == BBR_PROBE_RTT:
            s.cwnd = min(s.cwnd, self.min_pipe_cwnd)

    # ---------------------------------------------------------------- hooks
    cpdef void init(self, TcpState s):
        cdef double rtt = s.srtt if self.use_srtt else s.last_rtt
        self.rtprop = rtt if rtt > 0 else INFINITY
        self.rtprop_stamp = s.now
        self.rtprop_expired = False
        self.prior_cwnd = s.cwnd
        self.target_cwnd = s.cwnd
        self.initial_cwnd = s.cwnd
        self.next_round_delivered = 0
        self.round_start = False
        self.round_count = 0
        self.full_pipe = False
        self.full_bw = 0.0
        self.full_bw_count = 0
        self.packet_conservation = False
        self.idle_restart = False
        self.has_seen_rtt = False
        self.probe_rtt_done_stamp = -1.0
        self.probe_rtt_round_done = False
        self.cycle_index = 0
        self.cycle_stamp = s.now
        self.delivered = s.delivered
        self.last_acked_sacked = 0
        self._enter_startup()
        self._init_pacing_rate(s)

    cpdef void pkts_acked(self, TcpState s, AckSample sample):
        self.last_acked_sacked = sample.delivered

    cpdef void cong_control(self, TcpState s, AckSample rs):
        cdef double rate = rs.delivery_rate, bw, rtt
        self.delivered = s.delivered
        # UpdateBtlBw: round counting and the max filter
        self.round_start = False
        if rate > 0:
            if rs.prior_delivered >= self.next_round_delivered:
                self.next_round_delivered = s.delivered
                self.round_count += 1
                self.round_start = True
                self.packet_conservation = False
            if rate >= self.bw_v[0] or not rs.is_app_limited:
                self.bw_filter_update(rate, self.round_count)
        # CheckCyclePhase
        if self.mode == BBR_PROBE_BW and self._is_next_cycle_phase(s, rs):
            self._advance_cycle_phase(s.now)
        # CheckFullPipe
        if not self.full_pipe and self.round_start and not rs.is_app_limited:
            bw = self.bw_v[0]
            if bw >= self.full_bw * 1.25:
                self.full_bw = bw
                self.full_bw_count = 0
            else:
                self.full_bw_count += 1
                if self.full_bw_count >= 3:
                    self.full_pipe = True
        # CheckDrain
        if self.mode == BBR_STARTUP and self.full_pipe:
            self._enter_drain()
            s.ssthresh = self.inflight(1.0)
        if self.mode == BBR_DRAIN and s.in_flight <= self.inflight(1.0):
            self._enter_probe_bw(s.now)
        # UpdateRTprop
        rtt = s.srtt if self.use_srtt else rs.rtt
        self.rtprop_expired = s.now > self.rtprop_stamp + self.rtprop_window
        if rtt > 0 and (rtt <= self.rtprop or self.rtprop_expired):
            self.rtprop = rtt
            self.rtprop_stamp = s.now
        # CheckProbeRTT
        if self.mode != BBR_PROBE_RTT and self.rtprop_expired and not self.idle_restart:
            self._enter_probe_rtt()
            self._save_cwnd(s)
            self.probe_rtt_done_stamp = -1.0
        if self.mode == BBR_PROBE_RTT:
            self._handle_probe_rtt(s)
        if rs.delivered > 0:
            self.idle_restart = False
        # control parameters
        self._set_pacing_rate(s, self.pacing_gain)
        self._set_cwnd(s, rs)

    cpdef void set_state(self, TcpState s, int new_state):
        if new_state == CA_LOSS:
            self._save_cwnd(s)
            self.round_start = True
        elif new_state == CA_RECOVERY:
            self._save_cwnd(s)
            s.cwnd = <double>(s.in_flight + max(self.last_acked_sacked, 1))
            self.packet_conservation = True

    cpdef double ssthresh(self, TcpState s):
        if not self.packet_conservation:     # set_state(RECOVERY) may already have saved it
            self._save_cwnd(s)
        return s.cwnd

    cpdef void cwnd_event(self, TcpState s, int event):
        if event == CA_EVENT_COMPLETE_CWR:
            self.packet_conservation = False
            self._restore_cwnd(s)
        elif event == CA_EVENT_TX_START and s.app_limited:
            self.idle_restart = True
            if self.mode == BBR_PROBE_BW:
                self._set_pacing_rate(s, 1.0)
            elif self.mode == BBR_PROBE_RTT:
                if self.probe_rtt_round_done and s.now > self.probe_rtt_done_stamp >= 0:
                    self.rtprop_stamp = s.now
                    self._restore_cwnd(s)
                    self._exit_probe_rtt(s.now)

    @property
    def mode_name(self):
        return MODE_NAMES[self.mode]


def make(**params):
    """BBR v1 with the defaults in DEFAULTS."""
    p = with_defaults("bbr", DEFAULTS, params)
    if int(p["seed"]) < 0:
        raise ValueError(f"bbr seed must be a non-negative integer, got {p['seed']}")
    return Bbr(float(p["high_gain"]), int(p["bw_window"]), float(p["rtprop_window"]),
               float(p["probe_rtt_duration"]), float(p["pacing_margin"]), bool(p["use_srtt"]),
               int(p["cycle_start"]), int(p["seed"]))
