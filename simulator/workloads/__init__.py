"""Open-loop workloads: flows that arrive during a run, their sizes drawn from a declared distribution.

A size distribution is an inverse CDF (`ppf`: a uniform draw -> bytes): an empirical CDF shipped here
(websearch.cdf, datamining.cdf: each file names its source) or a user's file of `bytes fraction`
lines, a Pareto or a lognormal of a given mean (both capped at max_bytes), or a fixed size.  A class's
Poisson arrival rate follows from the offered load: load x link rate / mean bits a flow puts on the
wire (its packets rounded up to whole MSS-sized segments, headers included).
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from statistics import NormalDist

import numpy as np

HERE = Path(__file__).parent
SHIPPED = {"websearch": HERE / "websearch.cdf", "datamining": HERE / "datamining.cdf"}
KINDS = ("websearch", "datamining", "cdf_file", "pareto", "lognormal", "fixed")
GRID = 1 << 20           # uniform midpoints over which a distribution's mean packets per flow is computed


@lru_cache(maxsize=32)
def read_cdf(path) -> tuple[np.ndarray, np.ndarray]:
    """(bytes, cumulative fraction) of a CDF file: `bytes fraction` per line, # comments; fractions rise
    from 0 to 1 (a last value of 100 reads as percent), sizes do not fall. ValueError naming the file."""
    rows = []
    for n, line in enumerate(Path(path).read_text().splitlines(), 1):
        line = line.split("#", 1)[0].strip()
        if line:
            parts = line.split()
            try:
                rows.append((float(parts[0]), float(parts[1])))
            except (ValueError, IndexError):
                raise ValueError(f"{path}:{n}: {line!r} is not 'bytes fraction'") from None
    if len(rows) < 2:
        raise ValueError(f"{path}: a size CDF needs at least two 'bytes fraction' lines")
    size, frac = np.array(rows).T
    if frac[-1] == 100:
        frac = frac / 100
    if np.any(np.diff(size) < 0) or np.any(np.diff(frac) < 0) or frac[0] < 0 or frac[-1] != 1 or size[0] < 0:
        raise ValueError(f"{path}: sizes must not fall, fractions must rise from >= 0 to exactly 1")
    return size, frac


@dataclass(frozen=True)
class SizeDistribution:
    """Flow sizes in bytes: `kind` (KINDS) and its numbers."""
    kind: str
    mean_bytes: float = 0.0       # pareto, lognormal: the uncapped distribution's mean; fixed: the size
    shape: float = 1.2            # pareto: tail index (> 1)
    sigma: float = 1.0            # lognormal: sd of the log
    max_bytes: float = 1e9        # pareto, lognormal: sizes above are cut to this
    path: str = ""                # cdf_file: the file

    def ppf(self, u):
        """Bytes at cumulative fraction(s) u in [0, 1) (array or float), at least 1."""
        u = np.asarray(u, dtype=float)
        if self.kind in SHIPPED or self.kind == "cdf_file":
            size, frac = read_cdf(str(SHIPPED.get(self.kind, self.path)))
            x = np.interp(u, frac, size)      # read once per process (lru_cache)
        elif self.kind == "pareto":
            scale = self.mean_bytes * (self.shape - 1) / self.shape
            x = np.minimum(scale / (1.0 - u) ** (1.0 / self.shape), self.max_bytes)
        elif self.kind == "lognormal":
            mu = math.log(self.mean_bytes) - self.sigma ** 2 / 2
            z = np.vectorize(NormalDist().inv_cdf)(np.clip(u, 1e-12, 1 - 1e-12))
            x = np.minimum(np.exp(mu + self.sigma * z), self.max_bytes)
        elif self.kind == "fixed":
            x = np.full_like(u, self.mean_bytes)
        else:
            raise ValueError(f"size distribution {self.kind!r}; allowed: {', '.join(KINDS)}")
        return np.maximum(x, 1.0)

    def packets(self, u: float, mss: int) -> int:
        """Segments of one flow drawn at u: its bytes over the MSS, rounded up."""
        return max(1, math.ceil(float(self.ppf(u)) / mss))

    def mean_packets(self, mss: int) -> float:
        """Mean segments per flow (sizes rounded up to whole segments), over GRID midpoints of u."""
        u = (np.arange(GRID) + 0.5) / GRID
        if self.kind == "lognormal":        # inv_cdf per point is slow: a coarser grid is as exact here
            u = (np.arange(GRID >> 6) + 0.5) / (GRID >> 6)
        return float(np.ceil(self.ppf(u) / mss).mean())


def arrival_rate(load: float, link_bps: float, sizes: SizeDistribution, mss: int, data_size: int) -> float:
    """Poisson arrivals per second that offer `load` (a fraction) of `link_bps` in wire bits."""
    return load * link_bps / (sizes.mean_packets(mss) * data_size * 8.0)
