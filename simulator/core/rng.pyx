"""Named, seeded random streams.

Each stream is a numpy PCG64 whose seed derives from (run key, stream name), so the draws a
component sees never depend on what other components draw.  The C path reads doubles straight
from the bit generator; `python_stream` gives the same numbers to the interpreted model.
"""
from cpython.pycapsule cimport PyCapsule_GetPointer

import numpy as np

from simulator.core.seeding import stream_seed


cdef class Stream:
    def __cinit__(self, run_key, str name, bitgen=None):
        self.name = name
        self._bitgen = np.random.PCG64(stream_seed(run_key, name)) if bitgen is None else bitgen
        capsule = self._bitgen.capsule
        self._rng = <bitgen_t*>PyCapsule_GetPointer(capsule, "BitGenerator")

    def draw_uniform(self):
        return self.uniform()

    def draw_exponential(self, double rate):
        return self.exponential(rate)


def legacy_stream(int seed=42):
    """numpy's legacy global stream (RandomState(seed): MT19937 with legacy seeding), as the M/M/1
    paper's code used it; exponential draws then follow numpy's legacy formula."""
    return Stream("legacy", "legacy", np.random.RandomState(seed)._bit_generator)
