"""The one engine that decides every claim (reference/<paper>/claims.yaml, joined by simulator/claims_files.py) from its `decide:` block.

A claim's `decide:` block is data (reference/claims.yaml's header documents every key): the cells it
reads (study, metric, algorithm, parameters), the comparisons it makes between them (`parts`), the
headline row of its scorecard row and the paper's number. The engine turns the parts into
comparisons of the one rule (simulator/report/claim_rule.py) and decides the claim once per verdict
row (scope: a model variant of the paper, and for some claims each value of a parameter the paper
left open). Trace statistics, closed-form references and the context sentences of a note are named
functions (simulator/report/claim_functions.py, each paper's in its folder); the spec names them, the engine calls them. The cells
themselves (table rows, scopes, `for:` values) are resolved by simulator/report/claim_cells.py.

Part kinds (each part may repeat over `for:` variables, a cartesian product):
  order      [A, ">"|"<", B]          A above (below) B; `scale: k` compares with k x B
  extreme    {target, among, lowest}  target below (above) each other algorithm of `among`
  threshold  [A, ">"|"<", value]      A above (below) a number (one-sample test)
  within     [A, low, high]           low < A < high (two one-sided tests)
  near       [A, value, rel]          within (1 - rel) x value .. (1 + rel) x value
  trend      {param, from, to, rising}  A at `to` above (below) A at `from`; min/max = the table's ends
  reference  {function, tolerance}    every row of the cell filter within a tolerance of a named function
`only_where_nonzero: <metric>` (order, extreme, trend) leaves out an instance where neither side has a
nonzero value of that metric (a loss comparison where nothing was dropped cannot be made); a part all
of whose instances are left out makes the claim not_testable, unless another part is reversed.

`for:` domains: a list, a set name, {values_of: param, ...} (see `domain`), or {points: [params],
where:, defaults:} = every distinct configuration of those parameters the tables hold (see `points`);
a cell `at: $var` takes its study and parameters from such a configuration.
A headline {..., at_largest: cell} is the headline cell at the table point where `cell` is largest
(and nonzero).
A context entry is a name or {name: {args}} (keyword arguments of the named function).
"""
from __future__ import annotations

import math
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np
import pandas as pd

from simulator import claims_files
from simulator.report import claim_reasons, claim_rule as rule, metric_thresholds
from simulator.report.claim_cells import (  # noqa: F401  (Scope, Cells: the engine's vocabulary, re-exported)
    Cells, Scope, _between, _fmt_value, _plain, _scaled, _sets, _zero, at_point, describe, domain, expand, number,
    rows_where, stat, substitute)
from simulator.report.claim_functions import CONTEXTS, HEADLINES, REFERENCES, Missing
from simulator.report.verdicts import decision_rows

# --------------------------------------------------------------------------- a claim's comparisons

class Gathered:
    """The comparisons of one claim and scope, part by part, and what could not be compared."""

    def __init__(self):
        self.parts: list[str] = []
        self.comparisons: list[rule.Comparison] = []
        self.missing: list[str] = []          # cells the claim needs and lacks
        self.no_drops: list[str] = []         # parts with nothing to compare
        self.skipped: list[str] = []          # instances left out: neither side nonzero
        self.steps: list[tuple[str, list[rule.Comparison]]] = []   # trend steps (noted, not scored)

    def decide(self, not_testable: str = "") -> tuple[rule.Decision, str]:
        """The Decision under the rule and the note listing every comparison and what was left out;
        `self.tested` keeps the comparisons that could be made, decided alone (for a not_testable claim too)."""
        tested = self.tested = rule.decide(self.comparisons)
        reason = not_testable
        if not reason and self.missing:
            missing = list(dict.fromkeys(self.missing))
            more = f" and {len(missing) - 6} more" if len(missing) > 6 else ""
            reason = "missing results: " + ", ".join(missing[:6]) + more
        elif not reason and self.no_drops and tested.verdict != "contradicted":
            reason = ("both sides are 0 (for a loss: nothing was dropped) in every comparison of "
                      + ", ".join(t for t in self.no_drops if t) + ", so it cannot be tested")
        decision = rule.decide(self.comparisons, not_testable=reason) if reason else tested
        note = ("Parts: " + "; ".join(self.parts) + ". ") if self.parts else ""
        if reason:
            note += f"Not testable: {reason.rstrip('.')}. "
            if self.comparisons:
                note += f"The comparisons that could be made (alone: {tested.verdict}): {tested.note}."
        else:
            note += tested.note + "."
            if self.no_drops:
                note += (" Contradicted by the comparisons above although a part has nothing to compare: "
                         + "; ".join(self.no_drops) + ".")
        if self.skipped:
            note += " Left out, 0 on both sides: " + "; ".join(self.skipped) + "."
        for label, steps in self.steps:
            against = [c for c in rule.holm(steps) if c.reversed]
            note += (f" {label} (steps, not scored; Holm over its steps): "
                     + ("significantly the other way at " + "; ".join(c.describe() for c in against)
                        if against else "no step significantly the other way") + ".")
        return decision, note.strip()


class Part:
    """Evaluates one part of a claim's spec into comparisons."""

    def __init__(self, spec: dict, defaults: dict, cells: Cells, gathered: Gathered):
        self.spec, self.cells, self.g = spec, cells, gathered
        self.defaults = {**defaults, **spec.get("where", {})}
        self.tag = spec.get("tag", "")
        self.made = self.left_out = self.lacking = 0

    # -- cells
    def cell_spec(self, spec: dict, env: dict) -> dict:
        return at_point(substitute({**self.defaults, **(spec or {})}, env))

    def varying(self, spec: dict) -> dict:
        """The keys of a cell a label names: algorithm, metric or statistic, what the part's variables
        set and what the cell itself sets (fq against droptail); the claim's fixed parameters are in its
        `where`, not repeated in every label."""
        raw = {**self.defaults, **(spec or {})}
        return ({k for k, v in raw.items() if isinstance(v, str) and v.startswith("$")} | set(spec or {})
                | {"algorithm", "metric", "statistic"})

    def row(self, spec: dict, env: dict):
        """(row, label of the cell) of a cell spec; (None, label) and the cell noted as missing if absent."""
        raw = substitute({**self.defaults, **(spec or {})}, env)
        s = at_point(raw)
        keys = (self.varying(spec) - {"study"}) | set(raw.get("at") or {})   # a configuration's study and parameters vary
        lab = describe({k: v for k, v in self.cells.spec(s).items() if k in keys})
        try:
            return self.cells.get(s), lab, s
        except Missing as m:
            self.g.missing.append(f"{self.tag} {m}".strip())
            self.lacking += 1
            return None, lab, s

    def value(self, v, env: dict) -> float:
        return number(substitute(v, env), {**self.cells.scope.constants, **env})

    def add(self, c: rule.Comparison) -> None:
        self.g.comparisons.append(c)
        self.made += 1

    def skip_if_nothing(self, sa: dict, sb: dict, env: dict, what: str) -> bool:
        """True (and the instance noted as left out) when `only_where_nonzero` applies and neither side
        has a nonzero value of that metric."""
        metric = self.spec.get("only_where_nonzero")
        if not metric:
            return False
        metric = sa.get("metric") if metric is True else metric
        ra, rb = (self._quiet({**s, "metric": metric}) for s in (sa, sb))
        if ra is None or rb is None or not (_zero(ra) and _zero(rb)):
            return False
        self.g.skipped.append(f"{self.tag} {what} ({metric} 0 on both sides)".strip())
        self.left_out += 1
        return True

    def _quiet(self, spec: dict):
        try:
            return self.cells.get(spec)
        except Missing:
            return None

    def label(self, text: str) -> str:
        return f"{self.tag} {text}".strip()

    @staticmethod
    def measure(spec: dict) -> str | None:
        """The name whose declared resolution and practical threshold judge a cell: its statistic or metric."""
        name = spec.get("statistic", spec.get("metric"))
        return name if isinstance(name, str) else None

    # -- kinds
    def order(self, env: dict, a=None, b=None, op=None) -> None:
        a, op, b = (a, op, b) if a is not None else self.spec["order"]
        ra, la, sa = self.row(a, env)
        rb, lb, sb = self.row(b, env)
        lb = " ".join(w for w in lb.split() if w not in la.split() or w in (a or {}).values()) or lb
        if ra is None or rb is None:
            return
        if self.skip_if_nothing(sa, sb, env, f"{la} vs {lb}"):
            return
        k = self.value(self.spec.get("scale", 1), env)
        right = _scaled(rb, k) if k != 1 else stat(rb)
        scale = f"{k:g} x " if k != 1 else ""
        m = self.measure(sa)
        lab = self.label(f"{la} {rule.shown(ra['mean'], m)} {op} {scale}{lb} {rule.shown(rb['mean'], m)}")   # k x B's own mean
        self.add(rule.greater(stat(ra), right, lab, m) if op == ">" else rule.less(stat(ra), right, lab, m))

    def extreme(self, env: dict) -> None:
        e = substitute(self.spec["extreme"], env)
        target, op = e["target"], "<" if e.get("lowest", True) else ">"
        among = e["among"]
        for other in (_sets(among.lstrip("$"), self.cells) if isinstance(among, str) else among):
            if other != target:
                self.order(env, {"algorithm": target}, {"algorithm": other}, op)

    def threshold(self, env: dict) -> None:
        a, op, v = self.spec["threshold"]
        ra, la, sa = self.row(a, env)
        if ra is None:
            return
        x, m = self.value(v, env), self.measure(sa)
        lab = self.label(f"{la} {rule.shown(ra['mean'], m)} {op} {rule.shown(x, m)}")
        self.add(rule.above(stat(ra), x, lab, m) if op == ">" else rule.below(stat(ra), x, lab, m))

    def within(self, env: dict, a=None, lo=None, hi=None) -> None:
        a, lo, hi = (a, lo, hi) if a is not None else self.spec["within"]
        ra, la, sa = self.row(a, env)
        if ra is None:
            return
        m = self.measure(sa)
        for c in rule.within(stat(ra), self.value(lo, env), self.value(hi, env),
                             self.label(f"{la} {rule.shown(ra['mean'], m)}"), m):
            self.add(c)

    def near(self, env: dict) -> None:
        a, v, rel = self.spec["near"]
        x, r = self.value(v, env), self.value(rel, env)
        self.within(env, a, (1 - r) * x, (1 + r) * x)

    def trend(self, env: dict) -> None:
        t = substitute(self.spec["trend"], env)
        base = self.cell_spec(t.get("cell", {}), env)
        param = t["param"]
        xs = self.cells.values_of(param, {k: v for k, v in self.cells.spec(base).items() if k != param})
        lo = (xs or [None])[0] if t.get("from", "min") == "min" else t["from"]
        hi = (xs or [None])[-1] if t.get("to", "max") == "max" else t["to"]
        xs = [x for x in xs if _between(x, lo, hi)]
        rows = []
        for x in xs:
            r, _, _ = self.row({**base, param: x}, {})
            if r is not None:
                rows.append((x, r))
        base = {k: v for k, v in self.cells.spec(base).items() if k in self.varying(self.spec["trend"].get("cell", {}))}
        if len(rows) < 2 or not np.isclose(float(rows[0][0]), float(lo)) or not np.isclose(float(rows[-1][0]), float(hi)):
            if len(rows) < 2:
                self.g.missing.append(self.label(f"{describe(base)}: fewer than two values of {param}"))
                self.lacking += 1
            return
        if self.spec.get("only_where_nonzero") and all(_zero(r) for _, r in rows):
            self.g.skipped.append(self.label(f"{describe(base)}: 0 at every {param}"))
            self.left_out += 1
            return
        rising, m = t.get("rising", True), self.measure(self.cells.spec(self.cell_spec(t.get("cell", {}), env)))
        (x0, r0), (x1, r1) = rows[0], rows[-1]
        cmp = rule.greater if rising else rule.less
        word = "rises" if rising else "falls"
        series = ", ".join(f"{_fmt_value(x)}: {rule.shown(r['mean'], m, 3)}" for x, r in rows)
        self.add(cmp(stat(r1), stat(r0), self.label(
            f"{describe(base)} {word} from {param}={_fmt_value(x0)} to {_fmt_value(x1)} "
            f"({rule.shown(r0['mean'], m)} -> {rule.shown(r1['mean'], m)}; series {series})"), m))
        if t.get("steps") and len(rows) > 2:
            self.g.steps.append((self.label(f"{describe(base)} {word}"), [
                cmp(stat(rb), stat(ra), f"{_fmt_value(xa)} -> {_fmt_value(xb)}: {rule.shown(ra['mean'], m, 3)} -> "
                                        f"{rule.shown(rb['mean'], m, 3)}", m)
                for (xa, ra), (xb, rb) in zip(rows, rows[1:])]))

    def reference(self, env: dict) -> None:
        """Every table row of the cell filter (lists allowed) within a tolerance of a named function of
        the row (mm1-9: the M/M/1/K closed forms)."""
        spec = substitute(self.spec["reference"], env)
        fn, tol = REFERENCES[spec["function"]], spec.get("tolerance", {})
        filt = self.cell_spec({}, env)
        lists = {k: v for k, v in filt.items() if isinstance(v, list)}
        rows = rows_where(self.cells.tables, {k: v for k, v in filt.items() if k not in lists})
        if rows is not None:
            for k, vs in lists.items():
                rows = rows[rows[k].astype(str).isin([str(v) for v in vs])] if k in rows else rows.iloc[0:0]
        if rows is None or rows.empty:
            self.g.missing.append(self.label(f"rows of {describe(filt)}"))
            self.lacking += 1
            return
        for _, r in rows.iterrows():
            ref = fn(r)
            t = max(self.value(tol.get("rel", 0), env) * abs(ref), self.value(tol.get("abs", {}).get(r["metric"], 0), env))
            params = " ".join(f"{k}={_fmt_value(r[k])}" for k in spec.get("label", []) if k in r)
            for c in rule.within(stat(r), ref - t, ref + t, self.label(
                    f"{params} {r['metric']} {rule.shown(r['mean'], r['metric'])} (reference "
                    f"{rule.shown(ref, r['metric'])} ± {rule.shown(t, r['metric'], 3)})"), r["metric"]):
                self.add(c)

    def run(self) -> None:
        kinds = [k for k in KINDS if k in self.spec]
        if len(kinds) != 1:
            raise ValueError(f"a part needs exactly one of {', '.join(KINDS)}; got {kinds or 'none'}")
        for env in expand(self.spec.get("for", {}), self.cells, self.defaults):
            getattr(self, kinds[0])(env)
        self.close()

    def close(self) -> None:
        if self.made == 0 and self.left_out > 0:
            # named by what it compares (its text), not by its index alone: "part (c)" says nothing to a reader
            text = self.spec.get("text", "")
            self.g.no_drops.append(f"{self.tag} “{text}”".strip() if text else (self.tag or "(untagged)"))
        elif self.made == 0 and self.lacking == 0:
            self.g.missing.append(self.label("no table rows"))


KINDS = ("order", "extreme", "threshold", "within", "near", "trend", "reference")


# --------------------------------------------------------------------------- deciding a claim

@dataclass(frozen=True)
class Decided:
    """A claim decided in one scope, with what fills its scorecard row."""
    decision: rule.Decision
    note: str
    metric: str
    headline: object = None          # the row (mean, ci_low, ...) that fills ours_mean etc.
    paper_value: float = math.nan
    tested: tuple = ()               # the comparisons that could be made (Holm-adjusted), even when not_testable


def decide(claim: dict, tables: pd.DataFrame, traces: pd.DataFrame | None, scope: Scope) -> Decided:
    """One claim (an entry of reference/claims.yaml) decided in one scope by its `decide:` block."""
    d = claim["decide"]
    defaults = d.get("where", {})
    metric = d.get("metric", defaults.get("metric", ""))
    cells = Cells(tables, traces, scope)
    if scope.unavailable:
        return Decided(rule.decide([], not_testable=scope.unavailable), scope.unavailable, metric)
    if (cells.tables is None or cells.tables.empty) and (cells.traces is None or cells.traces.empty):
        reason = f"no table rows of paper {scope.paper} with " + ", ".join(f"{k}={v}" for k, v in scope.where.items())
        return Decided(rule.decide([], not_testable=reason), reason, metric)
    g = Gathered()
    for p in d.get("parts", []):
        if p.get("text"):
            g.parts.append(f"{p.get('tag', '')} {p['text']}".strip())
        try:
            Part(p, defaults, cells, g).run()
        except Missing as m:            # a named statistic without the traces it needs
            g.missing.append(f"{p.get('tag', '')} {m}".strip())
    decision, note = g.decide(d.get("not_testable", ""))
    head = _headline(d.get("headline"), defaults, cells)
    for entry in d.get("context", []):
        name, args = next(iter(entry.items())) if isinstance(entry, dict) else (entry, {})
        try:
            note += " " + CONTEXTS[name](cells, scope, **(args or {})).strip()
        except Missing:
            pass
    paper_value = d.get("paper_value", math.nan)
    if isinstance(head, tuple):         # a reference part's farthest row: (row, reference value)
        head, paper_value = head
    return Decided(decision, note, _metric_text(metric, head), head,
                   float(paper_value) if paper_value is not None else math.nan, tuple(g.tested.comparisons))


def _metric_text(text: str, head) -> str:
    """The scorecard row's metric; {column} placeholders name the headline row's values (which cell
    its numbers are, e.g. one the results chose), left out with what follows when there is no row."""
    if "{" not in text:
        return text
    if head is None:
        return text.split("{")[0].rstrip(": ")
    return text.format_map({k: _fmt_value(v) for k, v in head.items()})


def _headline(spec, defaults: dict, cells: Cells):
    """The row of the headline cell (None when absent); {farthest: metric} = the row of that metric
    farthest (relatively) from its reference, with the reference (mm1-9); {choose: name} = the cell a
    named function picks from the results (tb-1: the algorithm whose comparison is weakest)."""
    if not spec:
        return None
    if "choose" in spec:
        try:
            return cells.get({**defaults, **HEADLINES[spec["choose"]](cells, cells.scope)})
        except Missing:
            return None
    if "farthest" in spec:
        ref = REFERENCES[spec["function"]]
        rows = rows_where(cells.tables, {**{k: v for k, v in defaults.items() if not isinstance(v, list)},
                                         "metric": spec["farthest"]})
        if rows is None or rows.empty:
            return None
        refs = rows.apply(ref, axis=1)
        err = (rows["mean"] - refs).abs() / refs.abs().clip(lower=1e-12)
        i = err.idxmax()
        return rows.loc[i], float(refs.loc[i])
    if "at_largest" in spec:
        spec = _at_largest(spec, defaults, cells)
        if spec is None:
            return None
    try:
        return cells.get({**defaults, **spec})
    except Missing:
        return None


# columns of a table row that are not parameters of its point
STAT_COLUMNS = {"metric", "algorithm", "point", "mean", "sd", "n", "ci_low", "ci_high", "run_p025", "run_p975",
                "run_min", "run_max"}


def _at_largest(spec: dict, defaults: dict, cells: Cells) -> dict | None:
    """The headline spec placed at the table point (study and parameters) where the cell `at_largest`
    has its largest mean (the first such row); None when no row has that cell with a nonzero mean
    (a point "where Reno loses most" does not exist where nothing is lost)."""
    rows = rows_where(cells.tables, cells.spec({**{k: v for k, v in defaults.items() if not isinstance(v, list)},
                                                **spec["at_largest"]}))
    if rows is not None:
        rows = rows[[not _zero(r) for _, r in rows.iterrows()]]
    if rows is None or rows.empty:
        return None
    best = rows.loc[pd.to_numeric(rows["mean"]).idxmax()]
    point = {k: _plain(v) for k, v in best.items() if k not in STAT_COLUMNS and pd.notna(v)}
    return {**{k: v for k, v in spec.items() if k != "at_largest"}, **point}


def scopes(claim: dict, scoring: dict, tables: pd.DataFrame) -> list[Scope]:
    """The verdict rows of a claim: one per variant of its paper (scoring[paper]["variants"]), and with
    `per:` one per value of that parameter in that study (a parameter the paper left open)."""
    paper = claim["paper"]
    conf = scoring.get(paper, {})
    variants = conf.get("variants") or [{"name": conf.get("variant", "")}]
    per = claim["decide"].get("per")
    out = []
    for v in variants:
        base = Scope(paper, v["name"], dict(v.get("where", {})), dict(v.get("aliases", {})), v.get("note", ""),
                     "", dict(conf.get("constants", {})), dict(conf.get("sets", {})))
        if not per:
            out.append(base)
            continue
        cells = Cells(tables, None, base)
        values = domain({"values_of": per["param"], "where": {"study": per["study"]},
                         **({"above": per["above"]} if "above" in per else {})}, cells, {})
        if not values:
            out.append(replace(base, unavailable=per.get("none", f"no runs of {per['study']} to decide it at").format(
                **{**base.where, "variant": v["name"], "study": per["study"]})))
        values = [int(x) if float(x).is_integer() else x for x in values]
        listed = {"values": ", ".join(_fmt_value(x) for x in values), "study": per["study"]}
        for x in values:
            name = per.get("name", "{variant}, {value}").format(variant=v["name"], value=x)
            out.append(replace(base, name=name, where={**base.where, per["param"]: x},
                               note=f"{base.note} {per.get('note', '').format(value=x, **listed)}".strip(),
                               row_note=per.get("row_note", "").format(value=x, **listed)))
    return out


# --------------------------------------------------------------------------- a paper's rows

_CLAIMS_FILE: list = []      # set by use_claims_file (the workflow's reference_dir); else the repository's


def use_claims_file(path) -> None:
    """Decide from this claims file (and the reasons and metric thresholds beside it) instead of the repository's."""
    _CLAIMS_FILE[:] = [Path(path)]
    rule.use_thresholds(metric_thresholds.path_beside(path))


def claims_file() -> Path:
    """The claims file in use: the one named by use_claims_file, else reference/claims.yaml of the repository."""
    return _CLAIMS_FILE[0] if _CLAIMS_FILE else Path(__file__).resolve().parents[2] / "reference" / "claims.yaml"


def load(path=None) -> dict:
    """The claims file as a mapping (claims, scoring)."""
    return claims_files.read(Path(path or claims_file()))


def paper_rows(paper: str, tables: pd.DataFrame, traces: pd.DataFrame | None, doc: dict | None = None,
               reasons: dict | None = None):
    """(scorecard rows, note rows) of every claim of `paper`, in claim order, one per scope; each note
    row carries the reason shown beside a verdict other than reproduced (claim_reasons)."""
    doc = doc or load()
    reasons = claim_reasons.load(claims_file().parent) if reasons is None else reasons
    rows, notes = [], []
    claims = [c for c in doc["claims"] if c["paper"] == paper]
    pairs = [(claim, scope) for claim in claims for scope in scopes(claim, doc.get("scoring", {}), tables)]
    if doc.get("scoring", {}).get(paper, {}).get("rows_by") == "variant":     # every claim of one variant, then the next
        names = [v["name"] for v in doc["scoring"][paper]["variants"]]
        pairs.sort(key=lambda cs: names.index(cs[1].name) if cs[1].name in names else len(names))
    for claim, scope in pairs:
            d = decide(claim, tables, traces, scope)
            row, note = decision_rows(paper, claim["id"], scope.name, d.decision, metric=d.metric,
                                      headline=d.headline, paper_value=d.paper_value)
            row["note"] = f"{row['note']} {scope.row_note}".strip()
            note["note"] = f"{scope.note} {d.note}".strip()
            note["why"] = claim_reasons.why(reasons, claim["id"], scope.name, d.decision.verdict, d.decision.note,
                                            row["n_seeds"])
            rows.append(row)
            notes.append(note)
    return rows, notes


def decide_by_id(cid: str, tables: pd.DataFrame | None = None, traces: pd.DataFrame | None = None,
                 variant: str | None = None, doc: dict | None = None) -> Decided:
    """Claim `cid` decided in the scope named `variant` (default: the claim's only scope)."""
    doc = doc or load()
    spec = next(c for c in doc["claims"] if c["id"] == cid)
    tables = pd.DataFrame() if tables is None else tables
    found = scopes(spec, doc.get("scoring", {}), tables)
    if variant is not None:
        found = [s for s in found if s.name == variant]
    if len(found) != 1:
        raise ValueError(f"claim {cid}: {len(found)} scopes named {variant!r}; name one of its variants")
    return decide(spec, tables, traces, found[0])
