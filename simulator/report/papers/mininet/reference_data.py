"""Every number the Mininet poster states: the reference file of this paper and its check, named by its catalogue.yaml `reference_check`
(simulator/reference.py check_reference_dir runs it before any job)."""
from __future__ import annotations

from pathlib import Path

from simulator.reference_errors import ReferenceDataError
from simulator.reference_files import expect, number, read_csv

MININET_NUMBERS = "mininet/poster_numbers.csv"
MININET_COLUMNS = ["kind", "algorithm", "metric", "value", "unit", "where", "quote"]


def check_mininet_numbers(path) -> list[dict]:
    """Rows of the Mininet poster's numbers: a known kind, a finite value, a unit and where it is stated."""
    path = Path(path)
    rows = read_csv(path, MININET_COLUMNS)
    for lineno, r in rows:
        expect(path, lineno, "kind", r["kind"], ["setting", "result"])
        number(path, lineno, "value", r["value"])
        for column in ("metric", "unit", "where"):
            if not r[column].strip():
                raise ReferenceDataError(f"{path}: line {lineno}: column {column} is empty")
    return [r for _, r in rows]


def check(root) -> dict:
    """{"mininet_numbers": rows} of reference_dir/mininet/poster_numbers.csv."""
    return {"mininet_numbers": check_mininet_numbers(Path(root) / MININET_NUMBERS)}
