"""The M/M/1 paper's published Tahoe, as its code runs (simulator/tcp/cc/published.pyx, read in
book/published_code.md): its own window rules, not RFC Tahoe; only in the M/M/1 model's
as_published variant."""
from simulator.tcp.cc.catalogue._published import declare

NAME, DESCRIPTION, SACK, make = declare("tahoe", "the M/M/1 paper's published Tahoe code")
