"""Parameter helpers of workflow/rules/report.smk (kept out of the rule file for --lint)."""

import json
import shlex


def papermill_params(**kw):
    """params function for `papermill -y`: JSON is YAML, so lists of table files pass intact.
    Each keyword maps to a function (input, output) -> value; a None value is left out (the notebook keeps
    its default, and a notebook that does not declare the parameter is not handed it)."""
    def params(wildcards, input, output):
        values = {k: f(input, output) for k, f in kw.items()}
        return json.dumps({k: v for k, v in values.items() if v is not None})
    return params


def qt_scorecard_args(input):
    """Shell arguments adding the QtColFair paper's rows to the scorecard (none if no qtcol study runs)."""
    if not list(input.qt_tables):
        return ""
    quote = lambda xs: " ".join(shlex.quote(str(x)) for x in xs)  # noqa: E731
    return (f"--qt-tables {quote(input.qt_tables)} --qt-traces {quote(input.qt_traces)}"
            f" --qt-reference {shlex.quote(str(input.qt_reference))}")
