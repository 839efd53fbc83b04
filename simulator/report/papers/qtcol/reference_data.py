"""The QtColFair authors' numbers: the reference file of this paper and its check, named by its catalogue.yaml `reference_check`
(simulator/reference.py check_reference_dir runs it before any job)."""
from __future__ import annotations

from pathlib import Path

from simulator.reference_errors import ReferenceDataError
from simulator.reference_files import expect, number, read_csv

QTCOL_RESULTS = "qtcol/qtcolfair_results.csv"
QTCOL_COLUMNS = ["scenario", "algorithm", "alpha", "flows", "buffer_bdp", "duration_s", "metric", "value", "unit"]
QTCOL_ROWS = 105  # 87 recomputed from the authors' result files + 18 stated in the paper's text
QTCOL_SCENARIOS = ("single_static", "multiflow", "buffer_sweep", "bandwidth_change")
QTCOL_ALGORITHMS = ("cubic", "bbr", "qtcol", "qtcolfair")
QTCOL_UNITS = {"goodput": "Mbps", "median_rtt": "ms", "median_inflight": "packets", "plr": "ratio", "jain": "index",
               # ranges and steady values the paper states in its text (Sections 5.2 and 5.3)
               "inflight_low": "packets", "inflight_high": "packets", "inflight_steady": "packets",
               "rtt_low": "ms", "rtt_high": "ms", "rtt_steady": "ms"}


def check_qtcol_results(path) -> list[dict]:
    """Rows of the QtColFair authors' numbers: known scenario, algorithm, metric and unit; finite numbers."""
    path = Path(path)
    rows = read_csv(path, QTCOL_COLUMNS)
    for lineno, r in rows:
        expect(path, lineno, "scenario", r["scenario"], QTCOL_SCENARIOS)
        expect(path, lineno, "algorithm", r["algorithm"], QTCOL_ALGORITHMS)
        expect(path, lineno, "metric", r["metric"], list(QTCOL_UNITS))
        expect(path, lineno, "unit", r["unit"], [QTCOL_UNITS[r["metric"]]])
        number(path, lineno, "alpha", r["alpha"], optional=r["algorithm"] in ("cubic", "bbr"))
        for column in ("flows", "buffer_bdp", "duration_s", "value"):
            number(path, lineno, column, r[column])
    if len(rows) != QTCOL_ROWS:
        raise ReferenceDataError(f"{path}: {len(rows)} rows; expected {QTCOL_ROWS} (see qtcol/README.md): "
                                 "the file may be truncated")
    return [r for _, r in rows]


def check(root) -> dict:
    """{"qtcol_results": rows} of reference_dir/qtcol/qtcolfair_results.csv."""
    return {"qtcol_results": check_qtcol_results(Path(root) / QTCOL_RESULTS)}
