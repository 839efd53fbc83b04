"""Snakemake entry point of rules aggregate, aggregate_with_traces and the suite's aggregate rules:
simulator/report/aggregate.py does the work. Errors go to the rule's log with their traceback."""
import sys
import traceback

from simulator.report.aggregate import main

with open(snakemake.log[0], "w") as log:  # noqa: F821  (injected by Snakemake)
    sys.stderr = log
    try:
        main(snakemake)  # noqa: F821
    except Exception:
        traceback.print_exc(file=log)
        raise
