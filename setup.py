"""Build the Cython extensions of the simulator (metadata lives in pyproject.toml)."""
from pathlib import Path

import numpy
from Cython.Build import cythonize
from setuptools import Extension, setup

ROOT = Path(__file__).parent


def extensions():
    exts = []
    for pyx in sorted(ROOT.glob("simulator/**/*.pyx")):
        rel = pyx.relative_to(ROOT).with_suffix("")
        exts.append(Extension(".".join(rel.parts), [str(pyx.relative_to(ROOT))],
                              include_dirs=[numpy.get_include()],
                              extra_compile_args=["-O2"]))
    return exts


setup(ext_modules=cythonize(
    extensions(),
    language_level=3,
    nthreads=2,
    compiler_directives={"boundscheck": False, "wraparound": False, "cdivision": True,
                         "initializedcheck": False},
))
