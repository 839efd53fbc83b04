"""The cells a claim reads, for the claim engine (simulator/report/claim_engine.py): a verdict row's
scope, numbers and `$variable` substitution in a decide block, table rows matched to a cell spec, named
trace statistics as cells, and the values a part's `for:` variables take."""
from __future__ import annotations

import ast
import itertools
import math
import operator
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from simulator.report.claim_functions import STATISTICS, Missing, headline_of_values

CELL_KEYS = ("study", "metric", "algorithm")     # besides parameters: every other key filters a column
NUMERICAL_ZERO = 1e-9                             # |mean| and sd at most this: a floating-point zero


# --------------------------------------------------------------------------- scopes (verdict rows)

@dataclass(frozen=True)
class Scope:
    """One verdict row of a claim: the paper's variant (its table filter and algorithm names) and, for
    a claim decided at each value of a parameter the paper left open, that value."""
    paper: str
    name: str                        # the scorecard's `variant`
    where: dict                      # columns every cell of this row is filtered on
    aliases: dict = field(default_factory=dict)   # the paper's algorithm name -> the name that ran
    note: str = ""                   # what the notes say of the setting
    row_note: str = ""               # appended to the scorecard row's one-sentence note
    constants: dict = field(default_factory=dict)
    sets: dict = field(default_factory=dict)
    unavailable: str = ""            # why this row cannot be decided at all (no runs for it)


# --------------------------------------------------------------------------- values and expressions

_OPS = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.Div: operator.truediv,
        ast.USub: operator.neg}


def number(value, names: dict) -> float:
    """A number of the spec: a literal, or an arithmetic expression of constants and variables
    ("0.85 * bdp_pkts")."""
    if isinstance(value, (int, float)):
        return float(value)

    def ev(node):
        if isinstance(node, ast.Constant) and isinstance(node.value, (int, float)):
            return float(node.value)
        if isinstance(node, ast.Name) and node.id in names:
            return float(names[node.id])
        if isinstance(node, ast.BinOp) and type(node.op) in _OPS:
            return _OPS[type(node.op)](ev(node.left), ev(node.right))
        if isinstance(node, ast.UnaryOp) and type(node.op) in _OPS:
            return _OPS[type(node.op)](ev(node.operand))
        raise ValueError(f"not a number or an expression of {sorted(names)}: {value!r}")
    return ev(ast.parse(str(value), mode="eval").body)


def substitute(value, env: dict):
    """`$name` strings replaced by the variable's value, recursively through lists and dicts."""
    if isinstance(value, str) and value.startswith("$") and value[1:] in env:
        return env[value[1:]]
    if isinstance(value, dict):
        return {k: substitute(v, env) for k, v in value.items()}
    if isinstance(value, list):
        return [substitute(v, env) for v in value]
    return value


def at_point(spec: dict) -> dict:
    """A cell spec with its `at:` configuration (a mapping of study and parameters) merged in."""
    if "at" not in spec:
        return spec
    return {**{k: v for k, v in spec.items() if k != "at"}, **spec["at"]}


# --------------------------------------------------------------------------- table cells

def _matches(col: pd.Series, v) -> pd.Series:
    """Column equal to a spec value: numbers numerically, null as missing or infinite, else as text."""
    if v is None:
        num = pd.to_numeric(col, errors="coerce")
        return num.isna() | np.isinf(num)
    if isinstance(v, bool):
        return col.astype(str).str.lower().isin(["true", "1", "1.0"]) == v
    if isinstance(v, (int, float)):
        num = pd.to_numeric(col, errors="coerce")
        return pd.Series(np.isclose(num, float(v)), index=col.index) & num.notna()
    return col.astype(str) == str(v)


def rows_where(table: pd.DataFrame, spec: dict) -> pd.DataFrame | None:
    """The rows matching every key of spec; None when the table lacks a column the spec names."""
    if table is None or table.empty:
        return None
    mask = pd.Series(True, index=table.index)
    for k, v in spec.items():
        if k not in table:
            return None
        mask &= _matches(table[k], v)
    return table[mask]


def describe(spec: dict) -> str:
    """A cell in words for notes: 'mm1_lambda lambda=5 published_tahoe throughput'."""
    params = " ".join(f"{k}={_fmt_value(v)}" for k, v in spec.items() if k not in CELL_KEYS + ("statistic", "of"))
    what = _fmt_value(spec.get("statistic", spec.get("metric", ""))) + (f" {spec['of']}" if "of" in spec else "")
    return " ".join(x for x in (spec.get("study", ""), params, spec.get("algorithm", ""), what) if x)


def _fmt_value(v) -> str:
    if isinstance(v, list):
        return "/".join(_fmt_value(x) for x in v)
    return f"{v:g}" if isinstance(v, float) else str(v)


class Cells:
    """Resolves cell specs of one scope to table rows (or per-seed samples of named statistics)."""

    def __init__(self, tables: pd.DataFrame, traces: pd.DataFrame | None, scope: Scope):
        self.scope = scope
        self.unscoped = tables           # every row given: a context may set the scope's rows against others
        self.tables = rows_where(tables, scope.where) if tables is not None and not tables.empty else tables
        self.traces = None
        if traces is not None and not traces.empty:
            self.traces = rows_where(traces, {k: v for k, v in scope.where.items() if k in traces}) 

    def spec(self, spec: dict) -> dict:
        """The cell spec with the scope's algorithm names (the paper's 'tahoe' ran as published_tahoe)."""
        s = dict(spec)
        if "algorithm" in s:
            s["algorithm"] = self.scope.aliases.get(s["algorithm"], s["algorithm"])
        return s

    def get(self, spec: dict):
        """The row (mean, sd, n, ...) of a cell spec, or raises Missing naming the cell."""
        s = self.spec(spec)
        if "statistic" in s:
            args = {k: v for k, v in s.items() if k != "statistic"}
            values = STATISTICS[s["statistic"]](self.traces, **args)
            return headline_of_values(values)
        rows = rows_where(self.tables, s)
        if rows is None or rows.empty:
            raise Missing(describe(s))
        if len(rows) > 1:
            raise ValueError(f"{len(rows)} table rows match {describe(s)}: the claim must name every parameter "
                             "that tells them apart")
        return rows.iloc[0]

    def values_of(self, param: str, spec: dict) -> list:
        """The sorted distinct values of `param` among the rows matching spec (a sweep's values)."""
        rows = rows_where(self.tables, self.spec(spec))
        if rows is None or param not in rows:
            return []
        vals = rows[param].dropna().unique().tolist()
        return sorted(vals, key=lambda v: (not isinstance(v, (int, float)), v))


def stat(row) -> dict:
    """mean, sd, n of a row for the rule; a floating-point zero counts as exactly 0 (sd 0)."""
    m, n = float(row["mean"]), int(row["n"])
    sd = float(row["sd"]) if not pd.isna(row["sd"]) else math.nan
    if abs(m) <= NUMERICAL_ZERO and (math.isnan(sd) or sd <= NUMERICAL_ZERO):
        return {"mean": 0.0, "sd": 0.0 if n > 1 else math.nan, "n": n}
    return {"mean": m, "sd": sd, "n": n}


def _scaled(row, k: float) -> dict:
    s = stat(row)
    return {"mean": k * s["mean"], "sd": k * s["sd"], "n": s["n"]}


def _zero(row) -> bool:
    return stat(row)["mean"] == 0.0


def _between(x, lo, hi) -> bool:
    try:
        return float(lo) <= float(x) <= float(hi)
    except (TypeError, ValueError):
        return True




def expand(variables: dict, cells: Cells, defaults: dict):
    """Every combination of the `for:` variables, in the order declared (cartesian product). A
    variable's values: a list, a set name of the paper, or {values_of: param, [where]: {...},
    [above]: x, [in]: [...]} (the values the tables hold)."""
    names, domains = [], []
    for name, dom in variables.items():
        names.append(name)
        domains.append(domain(dom, cells, defaults))
    for combo in itertools.product(*domains):
        yield dict(zip(names, combo))


def domain(dom, cells: Cells, defaults: dict) -> list:
    if isinstance(dom, str):
        return _sets(dom.lstrip("$"), cells)
    if isinstance(dom, list):
        return dom
    if "points" in dom:
        return points(dom, cells, defaults)
    base = {k: v for k, v in {**defaults, **dom.get("where", {})}.items() if k != dom["values_of"]}
    vals = cells.values_of(dom["values_of"], base)
    if "above" in dom:
        vals = [v for v in vals if float(v) > float(dom["above"])]
    if "in" in dom:
        vals = [v for v in vals if any(np.isclose(float(v), float(w)) for w in dom["in"])]
    return vals


def points(dom: dict, cells: Cells, defaults: dict) -> list[dict]:
    """{points: [params], [where]: {...}, [defaults]: {param: value}}: every distinct configuration of
    `params` among the rows matching `where`, as a mapping of the study and the parameters its rows
    hold. A parameter a study does not hold (null) counts as its `defaults` value, so a configuration
    several studies ran is taken once, from the first study by name (unless `study` is one of `params`)."""
    keys = list(dom["points"])
    base = {k: v for k, v in {**defaults, **dom.get("where", {})}.items()
            if k not in keys and not (isinstance(v, str) and v.startswith("$"))}
    rows = rows_where(cells.tables, cells.spec(base))
    if rows is None or rows.empty:
        return []
    keys = [k for k in keys if k in rows]
    cols = list(dict.fromkeys(["study", *keys])) if "study" in rows else keys
    fill = dom.get("defaults", {})
    seen, out = set(), []
    for _, r in rows[cols].drop_duplicates().sort_values(cols).iterrows():
        point = {k: _plain(r[k]) for k in cols if pd.notna(r[k])}
        ident = tuple(_ident(point.get(k, fill.get(k))) for k in keys)
        if ident not in seen:
            seen.add(ident)
            out.append(point)
    return out


def _plain(v):
    """A table value as a plain Python number or string (numpy scalars do not match as numbers)."""
    return v.item() if isinstance(v, np.generic) else v


def _ident(v):
    """A parameter value as points compare it: 3 and 3.0 alike, text as text."""
    try:
        return float(v)
    except (TypeError, ValueError):
        return str(v)


def _sets(name: str, cells: Cells) -> list:
    """A named set of the paper: a list, or {present: true, except: [...]} = the algorithms present in
    this scope's rows (in the paper's naming), without the exceptions."""
    s = cells.scope.sets[name]
    if isinstance(s, list):
        return s
    back = {v: k for k, v in cells.scope.aliases.items()}
    present = sorted(cells.tables["algorithm"].unique(), key=lambda a: (back.get(a, a), a)) \
        if cells.tables is not None and not cells.tables.empty else []
    return [back.get(a, a) for a in present if back.get(a, a) not in s.get("except", [])]
