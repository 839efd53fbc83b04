"""The M/M/1 paper's published Reno, as its code runs (simulator/tcp/cc/published.pyx, read in
book/published_code.md): its own window rules, not RFC Reno; only in the M/M/1 model's
as_published variant."""
NAME = "published_reno"
DESCRIPTION = "the M/M/1 paper's published Reno code"
SACK = False


def make(stack):
    from simulator.tcp.cc.published import PublishedReno
    return PublishedReno()
