"""The M/M/1 paper's Tables V-XIII: the reference file of this paper and their check, named by its catalogue.yaml `reference_check`
(simulator/reference.py check_reference_dir runs it before any job)."""
from __future__ import annotations

from pathlib import Path

from simulator.reference_errors import ReferenceDataError
from simulator.reference_files import expect, finite, number, read_csv

MM1_TABLES = "mm1/jackson_mm1_tables.csv"
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


def check_mm1_tables(path) -> list[dict]:
    """Rows of the M/M/1 paper's Tables V-XIII: exactly one per table, algorithm and sweep value."""
    path = Path(path)
    rows = read_csv(path, MM1_COLUMNS)
    seen = {}
    for lineno, r in rows:
        expect(path, lineno, "table", r["table"], list(MM1_TABLE_LAYOUT))
        metric, unit, sweep, xs = MM1_TABLE_LAYOUT[r["table"]]
        for column, want in (("metric", metric), ("unit", unit), ("sweep", sweep)):
            expect(path, lineno, column, r[column], [want])
        x = number(path, lineno, "x", r["x"])
        expect(path, lineno, "x", x, xs)
        expect(path, lineno, "algorithm", r["algorithm"], MM1_ALGORITHMS)
        number(path, lineno, "value", r["value"])
        fixed = dict(part.split("=", 1) for part in r["fixed"].split(";") if "=" in part)
        if set(fixed) != MM1_FIXED_KEYS - {sweep} or any(finite(v) is None for v in fixed.values()):
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


def check(root) -> dict:
    """{"mm1_tables": rows} of reference_dir/mm1/jackson_mm1_tables.csv."""
    return {"mm1_tables": check_mm1_tables(Path(root) / MM1_TABLES)}
