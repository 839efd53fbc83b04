"""Derive stream seeds from what a run *is* (its parameters and seed index), never from job order.

The run key is the canonical JSON of the model parameters (trace options excluded) plus the seed
index; identical parameters give identical numbers in whichever study they appear.
"""
import hashlib
import json
import math

import numpy as np

# options that change what is recorded, not what is simulated
_NOT_IN_KEY = {"trace", "trace_interval"}


def _canonical(value):
    if isinstance(value, float) and value.is_integer():
        return int(value)          # 10 and 10.0 are the same run
    if isinstance(value, float) and math.isinf(value):
        return "inf"
    return value


def run_key(params: dict, seed: int) -> str:
    clean = {k: _canonical(v) for k, v in sorted(params.items()) if k not in _NOT_IN_KEY}
    return json.dumps({"params": clean, "seed": int(seed)}, sort_keys=True, separators=(",", ":"))


# How many seeded streams this process has made: a run that makes none cannot depend on its seed
# index (every random number of every model comes from a stream seeded here), so a seed batch may
# reuse its first record for the other seeds (simulator/cli.py batch_records).
_streams_made = 0


def streams_made() -> int:
    return _streams_made


def stream_seed(key: str, name: str) -> np.random.SeedSequence:
    global _streams_made
    _streams_made += 1
    digest = hashlib.sha256(f"{key}|{name}".encode()).digest()
    words = [int.from_bytes(digest[i:i + 4], "little") for i in range(0, 32, 4)]
    return np.random.SeedSequence(words)


def python_stream(key: str, name: str):
    """The interpreted twin of core.rng.Stream: same PCG64, same doubles."""
    bitgen = np.random.PCG64(stream_seed(key, name))

    def uniform():
        return (int(bitgen.random_raw()) >> 11) * (1.0 / 9007199254740992.0)

    def exponential(rate):
        return -math.log(1.0 - uniform()) / rate

    return uniform, exponential
