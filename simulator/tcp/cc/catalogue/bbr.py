"""BBR v1 (Cardwell et al. 2016; draft-cardwell-iccrg-bbr-congestion-control-00): paces at the
estimated bottleneck bandwidth (windowed max of delivery-rate samples) and caps inflight at
2 x BDP, with startup, drain, gain cycling (start phase drawn from the run's own stream) and
PROBE_RTT. It needs the SACK sender's delivery-rate samples and pacing, so it runs only on
stacks whose sender takes them."""
NAME = "bbr"
DESCRIPTION = "model-based: pace at the measured bottleneck rate, inflight near one BDP"
RECOVERY = None
NEEDS_RATE_SAMPLES = True


def make(stack):
    from simulator.core.rng import Stream
    from simulator.tcp.cc import bbr
    phase = int(Stream(stack.key, f"bbr-phase-{stack.flow}").draw_uniform() * 7)
    # the min-RTT filter takes the latest raw RTT sample under every stack: Linux's rs->rtt_us, and ns-3
    # since 3.43 (3be702f, "Fix BBR incorrect minRtt updates") m_lastRtt, the sample of the last ACKed segment
    return bbr.make(cycle_start=[0, 2, 3, 4, 5, 6, 7][phase], use_srtt=False)
