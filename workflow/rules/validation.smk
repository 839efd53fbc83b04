# Optional target, never part of `all`: every cell of the validation study run in our dumbbell and in
# ns-3 3.44 (pip install -e ".[ns3]"), then one agreement table.
#   snakemake --cores all validation     -> results/validation/ns3_agreement.csv
# The "Agreement with ns-3" chapter reads that table when it exists (workflow/rules/report.smk); the
# study, table and input function are in common.smk.
# Where NS-2 2.35 is installed (`ns`, Debian/Ubuntu package ns2), the same target also regenerates NS-2's
# records of the NS-2 chapter's grid points into results/validation/ns2_sim/ and prints which of them differ
# from the committed ones (reference/ns2_sim/, which the default build reads; it is never overwritten here:
# copy the regenerated folder over it on purpose, and say why in the commit).
import shutil

from simulator.validation.ns2_scripts import STUDIES as NS2_STUDIES

NS2_RECORDS_NEW = "results/validation/ns2_sim"
NS2_CHANGES = "results/validation/ns2_sim_changes.txt"
NS2_RECORDS_REF = str(Path(config["reference_dir"]) / "ns2_sim")
NS2_CODE = ["simulator/validation/ns2_scripts.py", "simulator/validation/ns2_records.py",
            "simulator/scenarios/ns2_wired.py"]


rule validation:
    input:
        VALIDATION_TABLE,
        [NS2_CHANGES] if shutil.which("ns") else [],


rule ns2_records:
    # NS-2 is deterministic: one run per grid point and seed, about half a second each
    input:
        studies=[f"config/studies/{s}.yaml" for s in NS2_STUDIES],
        code=NS2_CODE,
    output:
        directory(NS2_RECORDS_NEW),
    threads: workflow.cores
    params:
        python=PYTHON,
    log:
        "results/logs/validation/ns2_records.log",
    conda:
        "../envs/validation.yaml"
    shell:
        "{params.python:q} -m simulator.validation.ns2_records run --studies {input.studies:q}"
        " --out {output:q} --jobs {threads} > {log:q} 2>&1"


rule ns2_changes:
    input:
        new=NS2_RECORDS_NEW,
        ref=NS2_RECORDS_REF,
    output:
        NS2_CHANGES,
    params:
        python=PYTHON,
    log:
        "results/logs/validation/ns2_changes.log",
    conda:
        "../envs/validation.yaml"
    shell:
        "{params.python:q} -m simulator.validation.ns2_records compare --new {input.new:q} --ref {input.ref:q}"
        " --report {output:q} 2> {log:q}"


rule validation_table:
    input:
        runs=get_validation_runs,
        code=VALIDATION_CODE,
    output:
        VALIDATION_TABLE,
    params:
        python=PYTHON,
    log:
        "results/logs/validation/table.log",
    conda:
        "../envs/validation.yaml"
    shell:
        "{params.python:q} -m simulator.validation.agreement --runs {input.runs:q} --out {output:q} > {log:q} 2>&1"


rule validation_cell:
    # one cell, one seed, one simulator; ns-3 keeps global state, so each run is a process of its own
    input:
        study=VALIDATION_STUDY,
        code=VALIDATION_CODE,
    output:
        "results/validation/runs/{cell}/seed~{seed}/{side}.json",
    wildcard_constraints:
        cell=r"[^/~]+~[^/]+(/[^/~]+~[^/]+)*",
        seed=r"\d+",
        side="ours|ns3",
    resources:
        mem_mb=lambda wildcards: 1000 if wildcards.side == "ns3" else 200,   # ns-3: about 0.7 GB
    params:
        python=PYTHON,
    log:
        "results/logs/validation/{cell}/seed~{seed}/{side}.log",
    conda:
        "../envs/validation.yaml"
    shell:
        "{params.python:q} -m simulator.validation.run_cell --study {input.study:q} --cell {wildcards.cell:q}"
        " --seed {wildcards.seed} --side {wildcards.side} --out {output:q} > {log:q} 2>&1"
