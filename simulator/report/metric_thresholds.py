"""Each metric's declared resolution (closer values are a tie) and practical threshold (a smaller
difference is negligible), read from reference/metric_thresholds.yaml (its header gives the reasons),
and the check that every metric or statistic a claim reads has an entry."""
from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

from simulator.safe_yaml import load_own

FILE = "metric_thresholds.yaml"
KEYS = {"unit", "resolution", "practical", "why"}
OPTIONAL = {"shown"}            # the unit the book prints the metric in, when not the tables' unit
SHOWN = {"%": 100.0}            # allowed `shown` units and their factor from the tables' share of 1
PRACTICAL_KEYS = {"abs", "rel"}


class ThresholdError(ValueError):
    """The thresholds file is malformed or lacks a metric a claim reads."""


@dataclass(frozen=True)
class Threshold:
    resolution: float = 0.0     # |a - b| at or below it: a tie
    abs: float = 0.0            # practical threshold in the metric's unit
    rel: float = 0.0            # practical threshold relative to the larger side
    shown: str = ""             # the unit the book prints the metric in ("%": a share of 1 times 100)

    @property
    def scale(self) -> float:
        """The factor from the tables' unit to the one the book prints (100 for a share shown in %)."""
        return SHOWN.get(self.shown, 1.0)

    def practical(self, a: float, b: float) -> float:
        """The smallest difference between a and b that matters."""
        return max(self.abs, self.rel * max(abs(a), abs(b)))


NONE = Threshold()              # no declaration: every difference counts (suite ranks, agreement tests)


def _number(path, name: str, key: str, v) -> float:
    if isinstance(v, bool) or not isinstance(v, (int, float)) or math.isnan(v) or v < 0:
        raise ThresholdError(f"{path}: {name}: {key}: expected a number >= 0, got {v!r}")
    return float(v)


def parse(doc, path) -> dict[str, Threshold]:
    """{name: Threshold} of a thresholds file's mapping; a clear error naming file, metric and key."""
    if not isinstance(doc, dict):
        raise ThresholdError(f"{path}: expected a mapping of metric names to {{{', '.join(sorted(KEYS))}}}")
    out = {}
    for name, e in doc.items():
        if not isinstance(e, dict) or not KEYS <= set(e) <= KEYS | OPTIONAL:
            got = sorted(e) if isinstance(e, dict) else e
            raise ThresholdError(f"{path}: {name}: expected the keys {', '.join(sorted(KEYS))} (and optionally "
                                 f"{', '.join(sorted(OPTIONAL))}); got {got}")
        if e.get("shown", "") not in ("", *SHOWN):
            raise ThresholdError(f"{path}: {name}: shown: expected one of {', '.join(SHOWN)}; got {e['shown']!r}")
        p = e["practical"]
        if not isinstance(p, dict) or not p or set(p) - PRACTICAL_KEYS:
            raise ThresholdError(f"{path}: {name}: practical: expected a mapping with abs and/or rel; got {p!r}")
        t = Threshold(_number(path, name, "resolution", e["resolution"]),
                      _number(path, name, "practical.abs", p.get("abs", 0.0)),
                      _number(path, name, "practical.rel", p.get("rel", 0.0)), e.get("shown", ""))
        if t.abs and t.abs < t.resolution:
            raise ThresholdError(f"{path}: {name}: practical.abs {t.abs:g} is below the resolution {t.resolution:g}")
        out[str(name)] = t
    return out


REPOSITORY = Path(__file__).resolve().parents[2] / "reference" / FILE


def path_beside(claims_path) -> Path:
    """The thresholds file beside a claims file (a user's reference folder), else the repository's."""
    beside = Path(claims_path).parent / FILE
    return beside if beside.exists() else REPOSITORY


def load(path) -> dict[str, Threshold]:
    path = Path(path)
    if not path.exists():
        raise ThresholdError(f"{path}: missing; every metric a claim reads needs a resolution and a practical threshold there")
    return parse(load_own(path.read_text()), path)


def names_read(claim: dict) -> set[str]:
    """The metrics (the claim's `metrics`) and named statistics its decide block reads."""
    found = set(claim.get("metrics", []))

    def walk(x):
        if isinstance(x, dict):
            if isinstance(x.get("statistic"), str):
                found.add(x["statistic"])
            for v in x.values():
                walk(v)
        elif isinstance(x, list):
            for v in x:
                walk(v)
    walk(claim.get("decide", {}))
    return found


def check(claims: list, thresholds: dict, path) -> None:
    """Refuse claims reading a metric or statistic without an entry, naming the file, metric and claim."""
    for c in claims:
        for name in sorted(names_read(c) - set(thresholds)):
            raise ThresholdError(f"{path}: no entry for metric {name!r} (read by claim {c.get('id')}); every metric "
                                 f"or statistic a claim reads needs unit, resolution, practical and why")
