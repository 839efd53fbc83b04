"""Input and parameter helpers of workflow/rules/report.smk (kept out of the rule file for --lint)."""

import json
from pathlib import Path

from snakemake.exceptions import WorkflowError


def reference_table(reference_dir):
    """Input function: the paper's published numbers; a clear error if reference_dir lacks them."""

    def get(wildcards):
        path = Path(reference_dir) / "jackson_mm1_tables.csv"
        if not path.exists():
            raise WorkflowError(
                f"reference table {path} not found: the report compares with the paper's numbers in "
                f"jackson_mm1_tables.csv. Set config key reference_dir (now {str(reference_dir)!r}, default "
                "'../shared/reference', relative to the repository root), e.g. "
                "--config reference_dir=/abs/path/to/shared/reference"
            )
        return str(path)

    return get


def papermill_params(**kw):
    """params function for `papermill -y`: JSON is YAML, so lists of table files pass intact.
    Each keyword maps to a function (input, output) -> value."""
    return lambda wildcards, input, output: json.dumps({k: f(input, output) for k, f in kw.items()})
