"""The M/M/1 paper's published CUBIC, as its code runs (simulator/tcp/cc/published.pyx, read in
book/published_code.md): beta 0.2 and its own rules, not RFC 9438; only in the M/M/1 model's
as_published variant."""
from simulator.tcp.cc.catalogue._published import declare

NAME, DESCRIPTION, SACK, make = declare("cubic", "the M/M/1 paper's published CUBIC code")
