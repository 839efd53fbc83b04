# Agreement with ns-3: every cell of the validation study (config key validation_study) in our dumbbell,
# compared with ns-3 3.44's records committed in reference/ns3/records.jsonl. The default build runs our
# side only (seconds); the optional target reruns ns-3 (hours on 2 cores; pip install -e ".[ns3]"):
#   snakemake --cores all validation     -> results/validation/ns3_records.jsonl and ns3_changes.txt
# which lists the records that differ from the committed ones (to commit them, copy ns3_records.jsonl and
# ns3_README.md over reference/ns3/records.jsonl and README.md).
# The study, records and input functions are in common.smk.
# Where NS-2 2.35 is installed (`ns`, Debian/Ubuntu package ns2), the same target also regenerates NS-2's
# records of the NS-2 chapter's grid points into results/validation/ns2_sim/ and prints which of them differ
# from the committed ones (reference/ns2_sim/, which the default build reads; it is never overwritten here:
# copy the regenerated folder over it on purpose, and say why in the commit).
import shutil

from simulator import study_files
from simulator.validation.ns2_scripts import STUDIES as NS2_STUDIES

NS2_RECORDS_NEW = "results/validation/ns2_sim"
NS2_CHANGES = "results/validation/ns2_sim_changes.txt"
NS2_RECORDS_REF = str(Path(config["reference_dir"]) / "ns2_sim")
NS2_CODE = ["simulator/validation/ns2_scripts.py", "simulator/validation/ns2_records.py",
            "simulator/scenarios/ns2_wired.py"]


rule validation_ours:
    # our side, shared over VALIDATION_PARTS jobs: each run takes a fraction of a second
    input:
        study=VALIDATION_STUDY,
        code=VALIDATION_CODE,
    output:
        "results/validation/ours/part~{part}.jsonl",
    wildcard_constraints:
        part=r"\d+",
    params:
        python=PYTHON,
        parts=VALIDATION_PARTS,
        simulator_version=simulator.__version__,
        run_format=RUN_FORMAT,      # run files of another format rerun (simulator/run_records.py)
    log:
        "results/logs/validation/ours_part~{part}.log",
    conda:
        "../envs/simulate.yaml"
    shell:
        "{params.python:q} -m simulator.validation.ours_runs --study {input.study:q} --part {wildcards.part}"
        " --of {params.parts} --out {output:q} > {log:q} 2>&1"


rule ns2_records:
    # NS-2 is deterministic: one run per grid point and seed, about half a second each
    input:
        studies=[str(study_files.find("config/studies", s)) for s in NS2_STUDIES],   # in the NS-2 paper's folder
        code=NS2_CODE,
    output:
        directory(NS2_RECORDS_NEW),
    threads: 2          # snakemake caps it at --cores; a fixed number keeps --unlock and SLURM runs working
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
        ours=expand("results/validation/ours/part~{part}.jsonl", part=range(1, VALIDATION_PARTS + 1)),
        ns3=NS3_RECORDS,
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
        "{params.python:q} -m simulator.validation.agreement --runs {input.ours:q} {input.ns3:q}"
        " --out {output:q} > {log:q} 2>&1"


rule validation:
    # Convenience target: rerun ns-3 on every cell (and NS-2 on the NS-2 chapter's points where `ns` is
    # installed) and say which committed records that changes.
    input:
        "results/validation/ns3_changes.txt",
        "results/validation/ns3_qtcol_changes.txt",
        "results/validation/ns3_wifi_records.jsonl",
        [NS2_CHANGES] if shutil.which("ns") else [],


rule validation_ns3_records:
    input:
        runs=get_validation_ns3_runs,
        committed=NS3_RECORDS,
    output:
        records="results/validation/ns3_records.jsonl",
        changes="results/validation/ns3_changes.txt",
        readme="results/validation/ns3_README.md",
    params:
        python=PYTHON,
        study=VALIDATION_STUDY,
    log:
        "results/logs/validation/ns3_records.log",
    conda:
        "../envs/validation.yaml"
    shell:
        "{params.python:q} -m simulator.validation.ns3_reference --runs {input.runs:q} --out {output.records:q}"
        " --committed {input.committed:q} --changes {output.changes:q} --readme {output.readme:q}"
        " --study {params.study:q} > {log:q} 2>&1; cat {output.changes:q} >&2"


rule ns3_qtcol_records:
    # QtColFair's BBR at 1 BDP rerun in ns-3 and compared with reference/ns3_qtcol/records.jsonl
    input:
        runs=get_ns3_qtcol_runs,
        committed=str(Path(config["reference_dir"]) / NS3_QTCOL_RECORDS),
    output:
        records="results/validation/ns3_qtcol_records.jsonl",
        changes="results/validation/ns3_qtcol_changes.txt",
    params:
        python=PYTHON,
    log:
        "results/logs/validation/ns3_qtcol_records.log",
    conda:
        "../envs/validation.yaml"
    shell:
        "{params.python:q} -m simulator.validation.ns3_reference --runs {input.runs:q} --out {output.records:q}"
        " --committed {input.committed:q} --changes {output.changes:q} > {log:q} 2>&1; cat {output.changes:q} >&2"


rule ns3_wifi_records:
    # the Wi-Fi saturation matrix rerun in ns-3 and sealed; compare it with reference/ns3_wifi/records.jsonl
    input:
        runs=get_ns3_wifi_runs,
    output:
        "results/validation/ns3_wifi_records.jsonl",
    params:
        python=PYTHON,
    log:
        "results/logs/validation/ns3_wifi_records.log",
    conda:
        "../envs/validation.yaml"
    shell:
        "{params.python:q} -m simulator.validation.ns3_wifi --seal {input.runs:q} --out {output:q} > {log:q} 2>&1"


rule ns3_wifi_cell:
    # one Wi-Fi cell in ns-3, a process of its own
    input:
        code=VALIDATION_CODE,
    output:
        "results/validation/ns3_wifi_runs/{cell}.json",
    wildcard_constraints:
        cell=r"[a-z0-9.-]+",
    resources:
        mem_mb=1000,
    params:
        python=PYTHON,
    log:
        "results/logs/validation/ns3_wifi/{cell}.log",
    conda:
        "../envs/validation.yaml"
    shell:
        "{params.python:q} -m simulator.validation.ns3_wifi --cell {wildcards.cell:q} --out {output:q} > {log:q} 2>&1"


rule ns3_qtcol_cell:
    # one seed of the BBR-at-1-BDP cell in ns-3, a process of its own
    input:
        study=NS3_QTCOL_STUDY,
        code=VALIDATION_CODE,
    output:
        "results/validation/ns3_qtcol_runs/{cell}/seed~{seed}/ns3.json",
    wildcard_constraints:
        cell=r"[^/~]+~[^/]+(/[^/~]+~[^/]+)*",
        seed=r"\d+",
    resources:
        mem_mb=1000,
    params:
        python=PYTHON,
    log:
        "results/logs/validation/ns3_qtcol/{cell}/seed~{seed}.log",
    conda:
        "../envs/validation.yaml"
    shell:
        "{params.python:q} -m simulator.validation.run_cell --study {input.study:q} --cell {wildcards.cell:q}"
        " --seed {wildcards.seed} --side ns3 --out {output:q} > {log:q} 2>&1"


rule validation_ns3_cell:
    # one cell, one seed in ns-3; ns-3 keeps global state, so each run is a process of its own
    input:
        study=VALIDATION_STUDY,
        code=VALIDATION_CODE,
    output:
        "results/validation/ns3_runs/{cell}/seed~{seed}/ns3.json",
    wildcard_constraints:
        cell=r"[^/~]+~[^/]+(/[^/~]+~[^/]+)*",
        seed=r"\d+",
    resources:
        mem_mb=1000,       # about 0.7 GB a process
    params:
        python=PYTHON,
    log:
        "results/logs/validation/{cell}/seed~{seed}/ns3.log",
    conda:
        "../envs/validation.yaml"
    shell:
        "{params.python:q} -m simulator.validation.run_cell --study {input.study:q} --cell {wildcards.cell:q}"
        " --seed {wildcards.seed} --side ns3 --out {output:q} > {log:q} 2>&1"
