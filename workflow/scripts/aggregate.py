"""Snakemake entry point of rules aggregate, aggregate_with_traces and the suite's aggregate rules:
simulator/report/aggregate.py does the work (rule verify_runs has checked the run files before). A failure goes
to the rule's log with its traceback and to the console as one line naming the log."""
import sys
import traceback

from simulator.report.aggregate import main

console = sys.stderr
log_path = snakemake.log[0]  # noqa: F821  (injected by Snakemake)
with open(log_path, "w") as log:
    sys.stderr = log
    try:
        main(snakemake)  # noqa: F821
    except Exception as e:
        traceback.print_exc(file=log)
        failure = f"{type(e).__name__}: {e}"
    else:
        failure = None
    finally:
        sys.stderr = console     # before the log closes: Python's own last words need a stream ("lost sys.stderr")
if failure:
    print(f"{failure} (traceback in {log_path})", file=console)
    sys.exit(1)
