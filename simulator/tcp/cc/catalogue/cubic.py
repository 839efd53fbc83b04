"""CUBIC (RFC 9438): the window follows a cubic curve of the time since the last loss (C = 0.4,
beta = 0.7, fast convergence), never below the Reno-friendly window; HyStart leaves slow start
early on rising delay (ns-3's or Linux's variant, after the stack) where the stack has it (its
`hystart` detail, simulator/tcp/stacks.py)."""
NAME = "cubic"
DESCRIPTION = "cubic window growth since the last loss (RFC 9438), HyStart slow-start exit"
RECOVERY = "newreno"


def make(stack):
    from simulator.tcp.cc import cubic, hystart
    if stack.hystart:       # NS-2 has no HyStart variant of its own: it runs ns-3's
        return cubic.Cubic(hystart=hystart.make(variant="linux" if stack.name == "linux" else "ns3"))
    return cubic.Cubic(hystart=False)
