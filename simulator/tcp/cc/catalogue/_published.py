"""What the three catalogue entries of the M/M/1 paper's published code share: the published
controllers (simulator/tcp/cc/published.pyx, read in book/published_code.md) never run on a SACK
sender and take no study parameters; only the M/M/1 model's as_published variant runs them."""


def declare(algorithm: str, description: str):
    """(NAME, DESCRIPTION, SACK, make) of the published code's `algorithm` (tahoe, reno, cubic)."""
    def make(stack):
        from simulator.tcp.cc import published
        return getattr(published, f"Published{algorithm.capitalize()}")()
    return f"published_{algorithm}", description, False, make
