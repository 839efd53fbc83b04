"""QtCol (the QtColFair paper's base algorithm): Reno-style growth while the RTT is below
alpha x base RTT; above it, the window backs off towards the queue target (rules and reference
lines in simulator/tcp/cc/qtcol.pyx)."""
from simulator.params import Param

NAME = "qtcol"
DESCRIPTION = "delay-targeting: hold the RTT near alpha x base RTT"
RECOVERY = "newreno"
ALPHA = Param('alpha', schema={'type': 'number', 'exclusiveMinimum': 1, 'maximum': 10}, default=1.2,
              help='QtCol/QtColFair target RTT / base RTT (1.1-1.5 in the paper)')
PARAMS = (ALPHA,)


def make(stack):
    from simulator.tcp.cc import qtcol
    return qtcol.make(alpha=float(stack.alpha), fair=False)
