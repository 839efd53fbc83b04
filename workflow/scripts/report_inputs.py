"""Input and parameter helpers of workflow/rules/report.smk (kept out of the rule file for --lint)."""

import json
import shlex
from pathlib import Path

from snakemake.exceptions import WorkflowError


def reference_table(reference_dir, name="jackson_mm1_tables.csv"):
    """Input function: a paper's published numbers (file `name`); a clear error if reference_dir lacks them."""

    def get(wildcards):
        path = Path(reference_dir) / name
        if not path.exists():
            raise WorkflowError(
                f"reference table {path} not found: the report compares with the paper's numbers in "
                f"{name}. Set config key reference_dir (now {str(reference_dir)!r}, default "
                "'../shared/reference', relative to the repository root), e.g. "
                "--config reference_dir=/abs/path/to/shared/reference"
            )
        return str(path)

    return get


def papermill_params(**kw):
    """params function for `papermill -y`: JSON is YAML, so lists of table files pass intact.
    Each keyword maps to a function (input, output) -> value."""
    return lambda wildcards, input, output: json.dumps({k: f(input, output) for k, f in kw.items()})


def qt_scorecard_args(input):
    """Shell arguments adding the QtColFair paper's rows to the scorecard (none if no qtcol study runs)."""
    if not list(input.qt_tables):
        return ""
    quote = lambda xs: " ".join(shlex.quote(str(x)) for x in xs)  # noqa: E731
    return (f"--qt-tables {quote(input.qt_tables)} --qt-traces {quote(input.qt_traces)}"
            f" --qt-reference {shlex.quote(str(input.qt_reference))}")
