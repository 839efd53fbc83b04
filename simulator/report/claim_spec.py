"""Checks of a claim's `decide:` block (reference/claims.yaml) before any job runs.

Every key must be one the engine (simulator/report/claim_engine.py) knows; every study a cell reads
must be one of the claim's `studies`; every metric one its study's model reports; every algorithm
one the model runs (or a name the paper's variants alias, or a set of the paper); every statistic,
reference and context one registered in simulator/report/claim_functions.py. A mistake stops the
workflow with the claim id, the key and the allowed values.
"""
from __future__ import annotations

from simulator.report.claim_engine import KINDS
from simulator.report.claim_functions import CONTEXTS, HEADLINES, REFERENCES, STATISTICS

DECIDE_KEYS = {"where", "metric", "headline", "paper_value", "parts", "context", "not_testable", "per"}
PART_KEYS = {"tag", "text", "for", "where", "only_where_nonzero", "scale"} | set(KINDS)
PER_KEYS = {"param", "study", "above", "name", "note", "row_note", "none"}
DOMAIN_KEYS = ({"values_of", "where", "above", "in"}, {"points", "where", "defaults"})
OPS = (">", "<")


class ClaimSpecError(ValueError):
    """A claim's decide block names something the engine or the models do not know."""


def _allowed(where: str, key: str, value, allowed) -> None:
    if value not in allowed:
        raise ClaimSpecError(f"{where}: {key}: {value!r} is not allowed; allowed values: "
                             f"{', '.join(sorted(map(str, allowed)))}")


def _keys(where: str, mapping, allowed: set, what: str) -> None:
    if not isinstance(mapping, dict):
        raise ClaimSpecError(f"{where}: expected a mapping ({what}) with keys {', '.join(sorted(allowed))}")
    unknown = set(mapping) - allowed
    if unknown:
        raise ClaimSpecError(f"{where}: unknown key(s) {', '.join(sorted(unknown))}; allowed keys: "
                             f"{', '.join(sorted(allowed))}")


def _values(v, env: dict) -> list:
    """The values a spec value can take: a $variable's literal values, else the value itself."""
    if isinstance(v, str) and v.startswith("$") and v[1:] in env:
        return env[v[1:]]
    return v if isinstance(v, list) else [v]


class Checker:
    def __init__(self, claim: dict, scoring: dict, models_of: dict):
        from simulator import registry

        self.claim, self.where = claim, f"claim {claim['id']}: decide"
        self.models_of, self.registry = models_of, registry
        conf = scoring.get(claim["paper"], {})
        self.sets = set(conf.get("sets", {}))
        self.aliases = {a for v in conf.get("variants", []) for a in v.get("aliases", {})}

    def check(self) -> None:
        d = self.claim.get("decide")
        _keys(self.where, d, DECIDE_KEYS, "how the claim is decided")
        if d.get("per"):
            _keys(f"{self.where}.per", d["per"], PER_KEYS, "a parameter the claim is decided at each value of")
            _allowed(f"{self.where}.per", "study", d["per"].get("study"), self.claim["studies"])
        for entry in d.get("context", []):
            _allowed(self.where, "context", next(iter(entry)) if isinstance(entry, dict) else entry, CONTEXTS)
        defaults = d.get("where", {})
        head = d.get("headline") or {}
        if "choose" in head:
            _allowed(f"{self.where}.headline", "choose", head["choose"], HEADLINES)
        elif head and "farthest" not in head:
            head = {**defaults, **head}
            self.cell(f"{self.where}.headline", head, {})
            if "at_largest" in head:
                self.cell(f"{self.where}.headline.at_largest", {**defaults, **head["at_largest"]}, {}, placed=True)
        if not d.get("parts") and not d.get("not_testable"):
            raise ClaimSpecError(f"{self.where}: parts: expected a list of comparisons (kinds: {', '.join(KINDS)})")
        for i, part in enumerate(d.get("parts", [])):
            self.part(f"{self.where}.parts[{i}]", part, defaults)

    def part(self, where: str, part: dict, defaults: dict) -> None:
        _keys(where, part, PART_KEYS, "one comparison")
        kinds = [k for k in KINDS if k in part]
        if len(kinds) != 1:
            raise ClaimSpecError(f"{where}: expected exactly one comparison kind; allowed kinds: {', '.join(KINDS)}")
        env = {k: v for k, v in part.get("for", {}).items() if isinstance(v, list)}
        for k, v in part.get("for", {}).items():
            if isinstance(v, str):
                _allowed(f"{where}.for", k, v.lstrip("$"), self.sets)
            elif isinstance(v, dict):
                _keys(f"{where}.for.{k}", v, DOMAIN_KEYS[1] if "points" in v else DOMAIN_KEYS[0],
                      "the values a variable takes")
        base = {**defaults, **part.get("where", {})}
        kind, spec = kinds[0], part[kinds[0]]
        if kind in ("order", "threshold"):
            if not isinstance(spec, list) or len(spec) != 3:
                raise ClaimSpecError(f"{where}.{kind}: expected [cell, '>' or '<', {'cell' if kind == 'order' else 'number'}]")
            _allowed(f"{where}.{kind}", "operator", spec[1], OPS)
            cells = [spec[0], spec[2]] if kind == "order" else [spec[0]]
        elif kind in ("within", "near"):
            cells = [spec[0]]
        elif kind == "extreme":
            _keys(f"{where}.extreme", spec, {"target", "among", "lowest"}, "target and the algorithms it beats")
            among = spec["among"] if isinstance(spec["among"], list) else []
            cells = [{"algorithm": a} for a in [spec["target"], *among]]
        elif kind == "trend":
            _keys(f"{where}.trend", spec, {"cell", "param", "from", "to", "rising", "steps"}, "a trend over a sweep")
            cells = [spec.get("cell", {})]
        else:
            _keys(f"{where}.reference", spec, {"function", "tolerance", "label"}, "a named reference")
            _allowed(f"{where}.reference", "function", spec.get("function"), REFERENCES)
            cells = [{}]
        for c in cells:
            self.cell(f"{where}.{kind}", {**base, **(c or {})}, env)

    def cell(self, where: str, cell: dict, env: dict, placed: bool = False) -> None:
        if "statistic" in cell:
            _allowed(where, "statistic", cell["statistic"], STATISTICS)
            return
        # a cell placed at a configuration (`at:`, a headline's `at_largest`) may be in any study of the claim
        placed = (placed or "at" in cell or "at_largest" in cell) and "study" not in cell
        studies = self.claim["studies"] if placed else _values(cell.get("study"), env)
        for study in studies:
            if isinstance(study, str) and study.startswith("$"):
                continue
            _allowed(where, "study", study, self.claim["studies"])
            model = self.registry.model(self.models_of[study]) if study in self.models_of else None
            if model is None:
                continue
            for metric in (m for m in _values(cell.get("metric"), env) if not str(m).startswith("$")):
                for mm in (metric if isinstance(metric, list) else [metric]):
                    if not model.reports(mm, False):
                        raise ClaimSpecError(f"{where}: metric: {mm!r} is not reported by model {model.name} of study "
                                             f"{study}; allowed values: {', '.join(sorted(model.metrics))}")
            allowed = set(model.algorithms) | self.aliases
            for alg in (a for a in _values(cell.get("algorithm"), env) if not str(a).startswith("$")):
                _allowed(where, "algorithm", alg, allowed)


def check(claim: dict, scoring: dict, models_of: dict) -> None:
    """Raise ClaimSpecError naming the claim, key and allowed values when its decide block is wrong."""
    Checker(claim, scoring, models_of).check()
