"""CUBIC (RFC 9438): the window follows a cubic curve of the time since the last loss (C = 0.4,
beta = 0.7, fast convergence), never below the Reno-friendly window; HyStart leaves slow start
early on rising delay (ns-3's or Linux's variant, after the stack) where the stack has it."""
from simulator.params import Param

NAME = "cubic"
DESCRIPTION = "cubic window growth since the last loss (RFC 9438), HyStart slow-start exit"
RECOVERY = "newreno"
PARAMS = (Param('hystart', schema={'type': 'boolean'}, default=True, help="CUBIC's HyStart (on in Linux and ns-3)"),)


def make(stack):
    from simulator.tcp.cc import cubic, hystart
    if stack.name in ("ns3", "linux") and stack.hystart:
        return cubic.Cubic(hystart=hystart.make(variant=stack.name))
    return cubic.Cubic(hystart=False)
