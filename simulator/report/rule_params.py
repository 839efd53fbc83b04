"""Parameter helpers of workflow/rules/report.smk (kept out of the rule file for --lint)."""

import json


def papermill_params(**kw):
    """params function for `papermill -y`: JSON is YAML, so lists of table files pass intact.
    Each keyword maps to a function (input, output) -> value; a None value is left out (the notebook keeps
    its default, and a notebook that does not declare the parameter is not handed it)."""
    def params(wildcards, input, output):
        values = {k: f(input, output) for k, f in kw.items()}
        return json.dumps({k: v for k, v in values.items() if v is not None})
    return params
