"""The M/M/1 paper's published CUBIC, as its code runs (simulator/tcp/cc/published.pyx, read in
book/published_code.md): beta 0.2 and its own rules, not RFC 9438; only in the M/M/1 model's
as_published variant."""
NAME = "published_cubic"
DESCRIPTION = "the M/M/1 paper's published CUBIC code"
SACK = False


def make(stack):
    from simulator.tcp.cc.published import PublishedCubic
    return PublishedCubic()
