# Reproducible-paper pipeline for TCP congestion-control studies.
#   snakemake --cores all                        # every table, figure and the HTML report
#   snakemake --cores all --config profile=paper # 100 seeds per grid point
#   snakemake --cores all tables                 # simulations and tables only
#   snakemake --cores all suite                  # the standard evaluation suite alone (the default run has it too)
#   snakemake --cores all validation             # optional: rerun ns-3 on the validation cells (pip install -e ".[ns3]")
# config/config.yaml says which studies run; config/studies/*.yaml define their grids.

from snakemake.exceptions import WorkflowError
from simulator.workflow_config import config_file_error

# A broken config/config.yaml gets a message naming the file (snakemake's own would not).
if error := config_file_error("config/config.yaml"):
    raise WorkflowError(error)


configfile: "config/config.yaml"


include: "workflow/rules/common.smk"
include: "workflow/rules/simulate.smk"
include: "workflow/rules/aggregate.smk"
include: "workflow/rules/report.smk"
include: "workflow/rules/suite.smk"
include: "workflow/rules/validation.smk"


rule all:
    input:
        get_study_tables(),
        get_trace_tables(),
        "results/scorecard.csv",
        SUITE_RANKINGS,                          # the standard evaluation suite (workflow/rules/suite.smk)
        VALIDATION_TABLE,                        # our side of the ns-3 cells (workflow/rules/validation.smk)
        "results/book/_build/html/index.html",
        "results/book_check.json",
