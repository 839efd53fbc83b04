"""Named functions that claims of reference/claims.yaml refer to, for what a table cell cannot say:

  STATISTICS  per-seed statistics of the traces ({statistic: name, ...} as a cell of a part): a list
              of one value per seed, compared by the one rule as a sample over seeds;
  REFERENCES  a reference value for a table row (`reference` parts: mm1-9's M/M/1/K closed forms);
  CONTEXTS    a sentence appended to a claim's note (numbers a reader checks the verdict against; never
              part of the verdict);
  HEADLINES   the cell of a claim's scorecard row when the results choose it ({choose: name} as the
              headline: e.g. the algorithm whose comparison is weakest); returns a cell spec.

One module per paper (simulator/report/papers/<paper>/claim_functions.py) registers its functions with the
decorators below; a function raises Missing
(naming what is absent) when the results it needs are not there.
"""
from __future__ import annotations

import importlib
import math

import numpy as np
import pandas as pd
from scipy import stats as _stats

from simulator import paper_catalogue

STATISTICS: dict = {}
REFERENCES: dict = {}
CONTEXTS: dict = {}
HEADLINES: dict = {}


class Missing(Exception):
    """Results a claim needs are absent (the claim is then not_testable, naming them)."""


def _registrar(registry: dict):
    """A decorator factory: @deco(name) files the function under `name` in `registry`."""
    def deco(name):
        def register(fn):
            registry[name] = fn
            return fn
        return register
    return deco


statistic = _registrar(STATISTICS)     # @statistic("name"): per-seed values from the traces
reference = _registrar(REFERENCES)     # @reference("name"): a reference value for a table row
context = _registrar(CONTEXTS)         # @context("name"): a sentence for the note
headline = _registrar(HEADLINES)       # @headline("name"): the cell the results choose as headline


def headline_of_values(values) -> pd.Series:
    """A table-like row of per-seed values: mean, sd, n, 95% CI and per-run range over seeds."""
    from simulator.report.claim_rule import sample
    xs = np.array([float(v) for v in values if not math.isnan(float(v))], dtype=float)
    s = sample(xs)
    n, mean, sd = s["n"], s["mean"], s["sd"]
    if n == 0:
        raise Missing("no seed with a value")
    half = _stats.t.ppf(0.975, n - 1) * sd / math.sqrt(n) if n > 1 else math.nan
    lo, hi = (np.percentile(xs, [2.5, 97.5]) if n > 1 else (math.nan, math.nan))
    return pd.Series({"mean": mean, "sd": sd, "n": n, "ci_low": mean - half, "ci_high": mean + half,
                      "run_p025": lo, "run_p975": hi})


for _paper in paper_catalogue.load().paper_ids():      # each paper's own: simulator/report/papers/<paper>/claim_functions.py
    _module = f"simulator.report.papers.{_paper}.claim_functions"
    try:
        importlib.import_module(_module)
    except ModuleNotFoundError as e:
        if e.name not in (_module, f"simulator.report.papers.{_paper}"):
            raise
