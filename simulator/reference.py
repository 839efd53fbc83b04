"""The papers' published numbers and claims, tracked in the repository's reference/ folder.

Layout of a reference folder (config key `reference_dir`, default `reference`):

    claims.yaml                     the claims the scorecard checks
    mm1/jackson_mm1_tables.csv      Tables V-XIII of the M/M/1 paper (108 numbers)
    qtcol/qtcolfair_results.csv     the QtColFair authors' numbers (105 rows)
    mininet/poster_numbers.csv      every number the Mininet poster states (settings, one result)
    ns2/paper_numbers.csv           numbers the NS-2 paper states in its text
    testbed/paper_numbers.csv       numbers the testbed report states in its text
    ns2_sim/                        NS-2 2.35's own runs of the NS-2 chapter's grid points (records, not
                                    the paper's numbers: simulator/validation/ns2_records.py)

`check_reference_dir` validates all eight when the workflow starts, before any job: a missing,
truncated or malformed file raises ReferenceDataError naming the file, the row (file line) and what
was expected. Each README in the folder names the source of its numbers.
"""

from __future__ import annotations

import csv
import math
import re
from pathlib import Path

import yaml

from simulator.reference_errors import ReferenceDataError
from simulator.safe_yaml import load_own

MM1_TABLES = "mm1/jackson_mm1_tables.csv"
QTCOL_RESULTS = "qtcol/qtcolfair_results.csv"
MININET_NUMBERS = "mininet/poster_numbers.csv"
MININET_COLUMNS = ["kind", "algorithm", "metric", "value", "unit", "where", "quote"]
NS2_RECORDS = "ns2_sim"
CLAIMS = "claims.yaml"
def paper_numbers_files() -> dict:
    """paper -> the numbers it states in its text that its chapter draws beside ours (catalogue.yaml
    `paper_numbers`; simulator/report/paper_values.py)."""
    from simulator import paper_catalogue
    return {p.id: p.paper_numbers for p in paper_catalogue.load().papers.values() if p.paper_numbers}
PAPER_NUMBER_COLUMNS = ["source", "study", "metric", "algorithm", "where", "low", "high", "unit", "words"]
PAPER_NUMBER_WHERE = re.compile(r"^[a-z_]+(=|>)[A-Za-z0-9_.]+$")   # 'queue=fq', 'flows>1'; ';' joins several

MM1_COLUMNS = ["table", "metric", "unit", "sweep", "x", "algorithm", "value", "fixed"]
# table -> (metric, unit, sweep, sweep values); every table has one row per algorithm and value
MM1_TABLE_LAYOUT = {
    "V": ("throughput", "packets_per_s", "lambda", (5, 10, 15)),
    "VI": ("avg_delay", "s", "lambda", (5, 10, 15)),
    "VII": ("loss_rate", "percent", "lambda", (5, 10, 15)),
    "VIII": ("throughput", "packets_per_s", "K", (1, 5, 10)),
    "IX": ("avg_delay", "s", "K", (1, 5, 10)),
    "X": ("loss_rate", "percent", "K", (1, 5, 10)),
    "XI": ("throughput", "packets_per_s", "N", (50, 300, 1000)),
    "XII": ("avg_delay", "s", "N", (50, 300, 1000)),
    "XIII": ("loss_rate", "percent", "N", (50, 300, 1000)),
}
MM1_ALGORITHMS = ("none", "tahoe", "reno", "cubic")
MM1_FIXED_KEYS = {"lambda", "mu", "K", "theta", "N"}

QTCOL_COLUMNS = ["scenario", "algorithm", "alpha", "flows", "buffer_bdp", "duration_s", "metric", "value", "unit"]
QTCOL_ROWS = 105  # 87 recomputed from the authors' result files + 18 stated in the paper's text
QTCOL_SCENARIOS = ("single_static", "multiflow", "buffer_sweep", "bandwidth_change")
QTCOL_ALGORITHMS = ("cubic", "bbr", "qtcol", "qtcolfair")
QTCOL_UNITS = {"goodput": "Mbps", "median_rtt": "ms", "median_inflight": "packets", "plr": "ratio", "jain": "index",
               # ranges and steady values the paper states in its text (Sections 5.2 and 5.3)
               "inflight_low": "packets", "inflight_high": "packets", "inflight_steady": "packets",
               "rtt_low": "ms", "rtt_high": "ms", "rtt_steady": "ms"}

CLAIM_KEYS = {"id", "paper", "claim", "stated_in", "studies", "metrics", "decide"}
CLAIM_OPTIONAL_KEYS = {"trace", "source"}
# whose statement a claim is: the paper's (the default) or our own check (counted apart on every page)
CLAIM_SOURCES = ("paper", "ours")
CLAIM_ID = re.compile(r"^[a-z0-9]+-[0-9]+$")


# --------------------------------------------------------------------------- helpers
def _finite(text: str) -> float | None:
    try:
        v = float(text)
    except (TypeError, ValueError):
        return None
    return v if math.isfinite(v) else None


def _read_csv(path: Path, columns: list[str]) -> list[tuple[int, dict]]:
    """[(file line, row)] of a CSV with exactly `columns`; every row must have every field."""
    if not path.is_file():
        raise ReferenceDataError(f"{path}: reference file not found; expected a CSV with columns {', '.join(columns)}"
                                 " (see reference/README.md, or set config key reference_dir)")
    try:
        with path.open(newline="") as f:
            lines = list(csv.reader(f))
    except (OSError, UnicodeDecodeError, csv.Error) as e:
        raise ReferenceDataError(f"{path}: cannot read the reference file: {e}") from None
    if not lines or lines[0] != columns:
        got = ", ".join(lines[0]) if lines else "an empty file"
        raise ReferenceDataError(f"{path}: line 1: expected the header {', '.join(columns)}; got {got}")
    rows = []
    for lineno, fields in enumerate(lines[1:], start=2):
        if not fields:
            continue
        if len(fields) != len(columns):
            raise ReferenceDataError(f"{path}: line {lineno}: {len(fields)} fields; expected {len(columns)} "
                                     f"({', '.join(columns)}): the file may be truncated")
        rows.append((lineno, dict(zip(columns, fields))))
    return rows


def _expect(path, lineno, column, value, allowed) -> None:
    if value not in allowed:
        raise ReferenceDataError(f"{path}: line {lineno}: {column} {value!r} is not allowed; "
                                 f"allowed values: {', '.join(map(str, allowed))}")


def _number(path, lineno, column, text, optional=False) -> float | None:
    if optional and text == "":
        return None
    v = _finite(text)
    if v is None:
        raise ReferenceDataError(f"{path}: line {lineno}: {column} {text!r} is not a number; expected a finite number"
                                 + (" or an empty field" if optional else ""))
    return v


def _read_yaml(path: Path, what: str):
    if not path.is_file():
        raise ReferenceDataError(f"{path}: reference file not found; expected the {what} (see reference/README.md)")
    try:
        return load_own(path.read_text())
    except (OSError, UnicodeDecodeError, yaml.YAMLError) as e:
        raise ReferenceDataError(f"{path}: not valid YAML: {' '.join(str(e).split())}") from None


# --------------------------------------------------------------------------- the four files
def check_mm1_tables(path) -> list[dict]:
    """Rows of the M/M/1 paper's Tables V-XIII: exactly one per table, algorithm and sweep value."""
    path = Path(path)
    rows = _read_csv(path, MM1_COLUMNS)
    seen = {}
    for lineno, r in rows:
        _expect(path, lineno, "table", r["table"], list(MM1_TABLE_LAYOUT))
        metric, unit, sweep, xs = MM1_TABLE_LAYOUT[r["table"]]
        for column, want in (("metric", metric), ("unit", unit), ("sweep", sweep)):
            _expect(path, lineno, column, r[column], [want])
        x = _number(path, lineno, "x", r["x"])
        _expect(path, lineno, "x", x, xs)
        _expect(path, lineno, "algorithm", r["algorithm"], MM1_ALGORITHMS)
        _number(path, lineno, "value", r["value"])
        fixed = dict(part.split("=", 1) for part in r["fixed"].split(";") if "=" in part)
        if set(fixed) != MM1_FIXED_KEYS - {sweep} or any(_finite(v) is None for v in fixed.values()):
            raise ReferenceDataError(f"{path}: line {lineno}: fixed {r['fixed']!r}; expected name=number for each of "
                                     f"{', '.join(sorted(MM1_FIXED_KEYS - {sweep}))}, joined by ';'")
        key = (r["table"], r["algorithm"], x)
        if key in seen:
            raise ReferenceDataError(f"{path}: line {lineno}: Table {key[0]} {key[1]} {sweep}={x:g} "
                                     f"repeats line {seen[key]}; expected each number once")
        seen[key] = lineno
    expected = {(t, a, x) for t, (_, _, _, xs) in MM1_TABLE_LAYOUT.items() for a in MM1_ALGORITHMS for x in xs}
    missing = sorted(expected - set(seen), key=lambda k: (list(MM1_TABLE_LAYOUT).index(k[0]), k[1], k[2]))
    if missing:
        t, a, x = missing[0]
        raise ReferenceDataError(f"{path}: {len(seen)} of {len(expected)} numbers; missing {len(missing)}, "
                                 f"first Table {t} {a} {MM1_TABLE_LAYOUT[t][2]}={x:g}: the file may be truncated")
    return [r for _, r in rows]


def check_qtcol_results(path) -> list[dict]:
    """Rows of the QtColFair authors' numbers: known scenario, algorithm, metric and unit; finite numbers."""
    path = Path(path)
    rows = _read_csv(path, QTCOL_COLUMNS)
    for lineno, r in rows:
        _expect(path, lineno, "scenario", r["scenario"], QTCOL_SCENARIOS)
        _expect(path, lineno, "algorithm", r["algorithm"], QTCOL_ALGORITHMS)
        _expect(path, lineno, "metric", r["metric"], list(QTCOL_UNITS))
        _expect(path, lineno, "unit", r["unit"], [QTCOL_UNITS[r["metric"]]])
        _number(path, lineno, "alpha", r["alpha"], optional=r["algorithm"] in ("cubic", "bbr"))
        for column in ("flows", "buffer_bdp", "duration_s", "value"):
            _number(path, lineno, column, r[column])
    if len(rows) != QTCOL_ROWS:
        raise ReferenceDataError(f"{path}: {len(rows)} rows; expected {QTCOL_ROWS} (see qtcol/README.md): "
                                 "the file may be truncated")
    return [r for _, r in rows]


def check_mininet_numbers(path) -> list[dict]:
    """Rows of the Mininet poster's numbers: a known kind, a finite value, a unit and where it is stated."""
    path = Path(path)
    rows = _read_csv(path, MININET_COLUMNS)
    for lineno, r in rows:
        _expect(path, lineno, "kind", r["kind"], ["setting", "result"])
        _number(path, lineno, "value", r["value"])
        for column in ("metric", "unit", "where"):
            if not r[column].strip():
                raise ReferenceDataError(f"{path}: line {lineno}: column {column} is empty")
    return [r for _, r in rows]
def check_paper_numbers(path, studies) -> list[dict]:
    """Rows of a paper's stated numbers: a known study, conditions 'name=value' or 'name>number' joined
    by ';', finite low <= high, and a source, unit and the paper's words."""
    path = Path(path)
    rows = _read_csv(path, PAPER_NUMBER_COLUMNS)
    for lineno, r in rows:
        _expect(path, lineno, "study", r["study"], sorted(studies))
        low, high = (_number(path, lineno, c, r[c]) for c in ("low", "high"))
        if low > high:
            raise ReferenceDataError(f"{path}: line {lineno}: low {low:g} above high {high:g}; expected low <= high")
        for cond in filter(None, r["where"].split(";")):
            if not PAPER_NUMBER_WHERE.match(cond):
                raise ReferenceDataError(f"{path}: line {lineno}: where {cond!r}; expected name=value or name>number")
        for column in ("source", "metric", "algorithm", "unit", "words"):
            if not r[column].strip():
                raise ReferenceDataError(f"{path}: line {lineno}: {column} is empty")
    if not rows:
        raise ReferenceDataError(f"{path}: no rows; expected the numbers the paper states (see its README)")
    return [dict(r, low=float(r["low"]), high=float(r["high"])) for _, r in rows]


def check_papers(catalogue_file=None) -> dict:
    """{paper id: catalogue entry}: the papers claims may name (catalogue.yaml, checked)."""
    from simulator import paper_catalogue
    try:
        return dict(paper_catalogue.load(catalogue_file).papers)
    except paper_catalogue.CatalogueError as e:
        raise ReferenceDataError(str(e)) from None


def check_claims(path, papers, studies, thresholds_beside=None) -> list[dict]:
    """Claims with id, paper (a paper of catalogue.yaml), claim, stated_in, studies (existing study names), metrics."""
    path = Path(path)
    doc = _read_yaml(path, "list of claims")
    if not isinstance(doc, dict) or not isinstance(doc.get("claims"), list):
        raise ReferenceDataError(f"{path}: expected a mapping with a list `claims:`")
    seen = set()
    for i, c in enumerate(doc["claims"]):
        where = f"{path}: claims[{i}]"
        if not isinstance(c, dict):
            raise ReferenceDataError(f"{where}: expected a mapping with keys {', '.join(sorted(CLAIM_KEYS))}")
        cid = c.get("id")
        if not isinstance(cid, str) or not CLAIM_ID.match(cid):
            raise ReferenceDataError(f"{where}.id: {cid!r}; expected an id such as 'mm1-1' (paper prefix, '-', number)")
        where = f"{path}: claim {cid}"
        if cid in seen:
            raise ReferenceDataError(f"{where}: the id is used twice; expected each id once")
        seen.add(cid)
        _check_claim_keys(where, c, papers, studies)
        if isinstance(studies, dict):
            _check_decide(path, c, doc.get("scoring", {}), studies)
    _check_thresholds(thresholds_beside or path, doc["claims"])
    return doc["claims"]


def _check_all_claims(claims_file, papers, studies) -> list[dict]:
    """check_claims of reference_dir/claims.yaml and of each paper's own claims file; an id used in two files
    is refused like one used twice in one."""
    from simulator import claims_files

    claims, where = check_claims(claims_file, papers, studies), {}
    for path in claims_files.paper_files(claims_file):
        claims_here = check_claims(path, papers, studies, thresholds_beside=claims_file)   # the folder's thresholds
        for c in claims_here:
            if any(c["id"] == other["id"] for other in claims):
                raise ReferenceDataError(f"{path}: claim {c['id']}: the id is also used in {where.get(c['id'], claims_file)}; "
                                         "expected each id once")
            where[c["id"]] = path
        claims += claims_here
    return claims


def _check_thresholds(claims_path, claims) -> None:
    """Every metric or statistic a claim reads has a declared resolution and practical threshold."""
    from simulator.report import metric_thresholds

    path = metric_thresholds.path_beside(claims_path)
    try:
        metric_thresholds.check(claims, metric_thresholds.load(path), path)
    except metric_thresholds.ThresholdError as e:
        raise ReferenceDataError(str(e)) from None


def _check_reasons(root, claims, studies) -> None:
    """claim_reasons.yaml names existing claims and studies, with known keys and kinds."""
    from simulator.report import claim_reasons

    try:
        for path in claim_reasons.files(root):
            claim_reasons.check(path, {c["id"] for c in claims}, studies)
    except ValueError as e:
        raise ReferenceDataError(str(e)) from None


def _check_decide(path, claim, scoring, models_of) -> None:
    """The claim's decide block names only what the engine and the models know (claim_spec)."""
    from simulator.report import claim_spec

    try:
        claim_spec.check(claim, scoring, models_of)
    except claim_spec.ClaimSpecError as e:
        raise ReferenceDataError(f"{path}: {e}") from None


def _check_claim_keys(where, c, papers, studies) -> None:
    missing, unknown = CLAIM_KEYS - set(c), set(c) - CLAIM_KEYS - CLAIM_OPTIONAL_KEYS
    if missing:
        raise ReferenceDataError(f"{where}: missing key(s) {', '.join(sorted(missing))}; every claim has "
                                 f"{', '.join(sorted(CLAIM_KEYS))}")
    if unknown:
        raise ReferenceDataError(f"{where}: unknown key(s) {', '.join(sorted(unknown))}; allowed keys: "
                                 f"{', '.join(sorted(CLAIM_KEYS | CLAIM_OPTIONAL_KEYS))}")
    _expect_claim(where, "paper", c["paper"], sorted(papers))
    for key in ("claim", "stated_in"):
        if not isinstance(c[key], str) or not c[key].strip():
            raise ReferenceDataError(f"{where}: {key}: expected non-empty text")
    for key in ("studies", "metrics"):
        if not isinstance(c[key], list) or not c[key] or not all(isinstance(v, str) and v for v in c[key]):
            raise ReferenceDataError(f"{where}: {key}: expected a non-empty list of names")
    for study in c["studies"]:
        _expect_claim(where, "studies", study, sorted(studies))
    if "trace" in c and not isinstance(c["trace"], bool):
        raise ReferenceDataError(f"{where}: trace: expected true or false")
    if "source" in c and c["source"] not in CLAIM_SOURCES:
        raise ReferenceDataError(f"{where}: source: {c['source']!r}; allowed values: {', '.join(CLAIM_SOURCES)}")
    if isinstance(studies, dict):
        _check_claim_metrics(where, c, studies)


def _check_claim_metrics(where, c, models_of) -> None:
    """Each metric a claim reads is one its studies' models report (a trace column too for trace: true)."""
    from simulator import registry

    models = [registry.model(models_of[s]) for s in c["studies"]]
    traces = bool(c.get("trace"))
    for metric in c["metrics"]:
        if not any(m.reports(metric, traces) for m in models):
            allowed = sorted({x for m in models for x in m.metrics + (m.trace if traces else ())})
            raise ReferenceDataError(f"{where}: metrics: {metric!r} is not reported by model "
                                     f"{', '.join(sorted({m.name for m in models}))} of its studies; allowed values: "
                                     f"{', '.join(allowed)}")


def _expect_claim(where, key, value, allowed) -> None:
    if value not in allowed:
        raise ReferenceDataError(f"{where}: {key}: {value!r} is not allowed; allowed values: {', '.join(allowed)}")


def check_reference_dir(reference_dir, studies) -> dict:
    """Validate every file of a reference folder; {name: parsed content}. `studies`: the study names claims may
    use, or {study name: model name}, and then each claim's metrics are checked against what the models report."""
    root = Path(reference_dir)
    if not root.is_dir():
        raise ReferenceDataError(f"{root}: reference folder not found; it holds the papers' numbers and claims "
                                 "(the repository's reference/; config key reference_dir)")
    papers = check_papers()
    claims = _check_all_claims(root / CLAIMS, papers, studies)
    _check_reasons(root, claims, studies)
    return {
        "papers": papers,
        "claims": claims,
        "mm1_tables": check_mm1_tables(root / MM1_TABLES),
        "qtcol_results": check_qtcol_results(root / QTCOL_RESULTS),
        "mininet_numbers": check_mininet_numbers(root / MININET_NUMBERS),
        "paper_numbers": {p: check_paper_numbers(root / f, studies) for p, f in paper_numbers_files().items()},
        "ns2_sim": _check_ns2_records(root / NS2_RECORDS),
    }


def _check_ns2_records(folder) -> dict:
    """NS-2 2.35's committed records: every file as its manifest and each record's sha256 say."""
    from simulator.validation.ns2_records import check_dir
    return check_dir(folder, parse=False)


def claims_of(reference_dir, paper) -> dict:
    """{claim id: claim} of one paper, in file order (the file is assumed checked)."""
    from simulator import claims_files
    doc = claims_files.read(Path(reference_dir) / CLAIMS)
    return {c["id"]: c for c in doc["claims"] if c["paper"] == paper}
