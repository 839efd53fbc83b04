"""QtColFair (the QtColFair paper): QtCol with a fairness rule that lets flows with a larger
window yield to newcomers, measured over a window of minimum-RTT samples (simulator/tcp/cc/qtcol.pyx)."""
from simulator.tcp.cc.catalogue.qtcol import ALPHA

NAME = "qtcolfair"
DESCRIPTION = "QtCol with the paper's fairness rule between competing flows"
RECOVERY = "newreno"
PARAMS = (ALPHA,)


def make(stack):
    from simulator.tcp.cc import qtcol
    return qtcol.make(alpha=float(stack.alpha), fair=True)
