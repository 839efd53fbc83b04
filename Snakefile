# Reproducible-paper pipeline for TCP congestion-control studies.
#   snakemake --cores all                        # every table, figure and the HTML report
#   snakemake --cores all --config profile=paper # 100 seeds per grid point
#   snakemake --cores all tables                 # simulations and tables only
# config/config.yaml says which studies run; config/studies/*.yaml define their grids.

configfile: "config/config.yaml"


include: "workflow/rules/common.smk"
include: "workflow/rules/simulate.smk"
include: "workflow/rules/aggregate.smk"
include: "workflow/rules/report.smk"


rule all:
    input:
        get_study_tables(),
        get_trace_tables(),
        "results/scorecard.csv",
        "results/book/_build/html/index.html",
