# Report stage: scorecard, papermill notebooks, Jupyter Book.
# Everything here reads tables (results/tables, results/traces) and never feeds back into them:
# editing a notebook, a book page or the scorecard reruns only these rules, never a simulation.
import shlex

from simulator import claims_files
from simulator.reference import CLAIMS
from simulator.report import claim_reasons
from simulator.report.chapter_studies import unclaimed
from simulator.report.study_page import declaration_files
from simulator.report.rule_params import papermill_params

# the report package: a change to it reruns the report rules, never a simulation (aggregate.py is the
# aggregate rule's code, workflow/rules/aggregate.smk; browser_check.py only rule book_check's)
REPORT_LIBS = sorted(str(p) for p in Path("simulator/report").rglob("*.py")
                     if p.name not in ("aggregate.py", "browser_check.py"))

# reference data (tracked in reference/, checked in common.smk before any job)
CLAIMS_FILE = str(Path(config["reference_dir"]) / CLAIMS)
# ... and the papers' own claims files beside it (reference_dir/<paper>/claims.yaml): an edit reruns the claims
CLAIM_FILES = [str(p) for p in claims_files.files(CLAIMS_FILE)]
# why a claim did not reproduce (optional in a reference folder of one's own): its edits rerun the claims
CLAIM_REASONS = [str(p) for p in claim_reasons.files(config["reference_dir"])]
# each metric's resolution and practical threshold (the repository's when a reference folder has none): its edits rerun the claims
METRIC_THRESHOLDS = [str(p) for p in [Path(config["reference_dir"]) / "metric_thresholds.yaml"] if p.exists()]
# evidence rows other checks write for the first page's trust table (simulator/report/trust.py EVIDENCE_COLUMNS)
TRUST_EVIDENCE = []
# Paper chapters of the book, in reading order; a chapter is built only if one of its studies is enabled.
PAPER_CHAPTERS = [p for p in CATALOGUE.papers if get_study_tables(p)]
CHAPTERS = PAPER_CHAPTERS + [c for c in ("textbook",) if get_study_tables(c)]


# papers with checks of their own on the trust table (catalogue.yaml `evidence`)
EVIDENCE_PAPERS = [p for p in PAPER_CHAPTERS if CATALOGUE.papers[p].evidence]
# the paper's own simulator's records (catalogue.yaml `own_tool_records`): its verdict decides a row's fault
OWN_TOOL_RECORDS = sorted(f for p in PAPER_CHAPTERS if CATALOGUE.papers[p].own_tool_records
                          for f in paper_reference_files(p) if Path(f).parent.name == CATALOGUE.papers[p].own_tool_records)
# enabled studies no chapter reads (a user's own sweep; simulator/report/chapter_studies.py): a generated
# page each, under "Your studies"
STUDY_PAGES = unclaimed({name: s.paper for name, s in STUDIES.items()})


rule claims:
    # a paper's published numbers and claims against our runs (its catalogue.yaml `claims` module)
    input:
        tables=lambda w: get_study_tables(w.paper),
        traces=lambda w: get_trace_tables(w.paper),
        reference=lambda w: paper_reference_files(w.paper),
        code=REPORT_LIBS,
        claims_file=CLAIMS_FILE,
        claim_files=CLAIM_FILES,
        reasons=CLAIM_REASONS,
        thresholds=METRIC_THRESHOLDS,
    output:
        claims="results/claims/{paper}.csv",
        notes="results/claims/{paper}_notes.csv",
    wildcard_constraints:
        paper="|".join(PAPER_CHAPTERS) or "(?!)",
    params:
        python=PYTHON,
        module=lambda w: CATALOGUE.papers[w.paper].claims,
        reference_dir=lambda w, input: str(Path(input.claims_file).parent),
    log:
        "results/logs/report/claims_{paper}.log",
    conda:
        "../envs/report.yaml"
    shell:
        "{params.python} -m {params.module} --tables {input.tables:q}"
        " --traces {input.traces:q} --reference-dir {params.reference_dir:q} --claims-file {input.claims_file:q}"
        " --out {output.claims:q} --notes {output.notes:q} > {log:q} 2>&1"


rule scorecard:
    input:
        claims=[f"results/claims/{p}.csv" for p in PAPER_CHAPTERS],           # in the catalogue's order
        claim_notes=[f"results/claims/{p}_notes.csv" for p in PAPER_CHAPTERS],
        claims_file=CLAIMS_FILE,
        claim_files=CLAIM_FILES,
        reasons=CLAIM_REASONS,
        thresholds=METRIC_THRESHOLDS,
        own_tool_records=OWN_TOOL_RECORDS,
        code=REPORT_LIBS,
    output:
        scorecard="results/scorecard.csv",
        notes="results/scorecard_notes.csv",
    params:
        python=PYTHON,
        own_tool=lambda wildcards, input: (f"--own-tool-reference {shlex.quote(str(Path(input.own_tool_records[0]).parent.parent))}"
                                           f" --studies-dir {shlex.quote(str(STUDY_DIR))}" if input.own_tool_records else ""),
    log:
        "results/logs/report/scorecard.log",
    conda:
        "../envs/report.yaml"
    shell:
        "{params.python} -m simulator.report.scorecard --claims {input.claims:q} --claim-notes {input.claim_notes:q}"
        " --claims-file {input.claims_file:q} {params.own_tool}"
        " --out {output.scorecard:q} --notes {output.notes:q} > {log:q} 2>&1"


rule notebook_paper:
    # any paper's chapter: its notebook with its tables, traces, scorecard rows and reference files
    input:
        notebook=lambda w: CATALOGUE.papers[w.chapter].notebook_file,
        tables=lambda w: get_study_tables(w.chapter),
        traces=lambda w: get_trace_tables(w.chapter),
        scorecard="results/scorecard.csv",
        scorecard_notes="results/scorecard_notes.csv",
        claims_file=CLAIMS_FILE,
        claim_files=CLAIM_FILES,
        reference=lambda w: paper_reference_files(w.chapter),
        code=REPORT_LIBS,
    output:
        notebook="results/notebooks/{chapter}.ipynb",
        figures=directory("results/figures/{chapter}"),
        downloads=directory("results/downloads/{chapter}"),
    wildcard_constraints:
        chapter="|".join(PAPER_CHAPTERS) or "(?!)",
    priority: lambda w: CATALOGUE.papers[w.chapter].priority
    params:
        y=papermill_params(
            table_files=lambda i, o: list(i.tables),
            trace_files=lambda i, o: list(i.traces),
            scorecard=lambda i, o: i.scorecard,
            scorecard_notes=lambda i, o: i.scorecard_notes,
            claims_file=lambda i, o: i.claims_file,
            **generic_chapter_params(),
            reference_dir=lambda i, o: str(Path(config["reference_dir"]) / Path(o.downloads).name),
            figures_dir=lambda i, o: o.figures,
            downloads_dir=lambda i, o: o.downloads,
            downloads_url=lambda i, o: f"_static/downloads/{Path(o.downloads).name}",
        ),
        python=PYTHON,
    log:
        "results/logs/report/notebook_{chapter}.log",
    conda:
        "../envs/report.yaml"
    shell:
        "{params.python} -m papermill {input.notebook:q} {output.notebook:q} -k python3 -y {params.y:q}"
        " --no-progress-bar > {log:q} 2>&1"


rule notebook_textbook:
    # "Against closed-form models": study textbook_loss against Mathis, Padhye, RFC 9438 and the link rate,
    # and the M/M/1 paper's mm1_analytic study against the M/M/1/K closed forms (when enabled)
    input:
        notebook="notebooks/textbook.ipynb",
        tables=get_study_tables("textbook"),
        mm1_tables=[f"results/tables/{s}.csv" for s in CATALOGUE.chapters["textbook"].also_reads if s in STUDIES],
        code=REPORT_LIBS,
    output:
        notebook="results/notebooks/textbook.ipynb",
        figures=directory("results/figures/textbook"),
        downloads=directory("results/downloads/textbook"),
    params:
        y=papermill_params(
            table_files=lambda i, o: list(i.tables),
            mm1_table_files=lambda i, o: list(i.mm1_tables),
            figures_dir=lambda i, o: o.figures,
            downloads_dir=lambda i, o: o.downloads,
            downloads_url=lambda i, o: "_static/downloads/textbook",
        ),
        python=PYTHON,
    log:
        "results/logs/report/notebook_textbook.log",
    conda:
        "../envs/report.yaml"
    shell:
        "{params.python} -m papermill {input.notebook:q} {output.notebook:q} -k python3 -y {params.y:q}"
        " --no-progress-bar > {log:q} 2>&1"


rule notebook_scorecard:
    input:
        notebook="notebooks/scorecard.ipynb",
        scorecard="results/scorecard.csv",
        notes="results/scorecard_notes.csv",
        claims_file=CLAIMS_FILE,
        claim_files=CLAIM_FILES,
        code=REPORT_LIBS,
    output:
        notebook="results/notebooks/scorecard.ipynb",
        figures=directory("results/figures/scorecard"),
        downloads=directory("results/downloads/scorecard"),
    params:
        y=papermill_params(
            scorecard=lambda i, o: i.scorecard,
            scorecard_notes=lambda i, o: i.notes,
            claims_file=lambda i, o: i.claims_file,
            figures_dir=lambda i, o: o.figures,
            downloads_dir=lambda i, o: o.downloads,
            downloads_url=lambda i, o: "_static/downloads/scorecard",
        ),
        python=PYTHON,
    log:
        "results/logs/report/notebook_scorecard.log",
    conda:
        "../envs/report.yaml"
    shell:
        "{params.python} -m papermill {input.notebook:q} {output.notebook:q} -k python3 -y {params.y:q}"
        " --no-progress-bar > {log:q} 2>&1"


rule notebook_study:
    # the page of one study no chapter reads: parameters, every metric per grid point, figures
    input:
        notebook="notebooks/study.ipynb",
        table="results/tables/{study}.csv",
        study_file=get_study_file,
        declarations=lambda w: declaration_files(STUDIES[w.study].model),
        code=REPORT_LIBS,
    output:
        notebook="results/notebooks/study_{study}.ipynb",
        figures=directory("results/figures/study_{study}"),
        downloads=directory("results/downloads/study_{study}"),
    wildcard_constraints:
        study="|".join(map(re.escape, STUDY_PAGES)) or "(?!)",
    params:
        y=papermill_params(
            study_file=lambda i, o: i.study_file,
            table_file=lambda i, o: i.table,
            figures_dir=lambda i, o: o.figures,
            downloads_dir=lambda i, o: o.downloads,
            downloads_url=lambda i, o: f"_static/downloads/{Path(o.downloads).name}",
        ),
        python=PYTHON,
    log:
        "results/logs/report/notebook_study_{study}.log",
    conda:
        "../envs/report.yaml"
    shell:
        "{params.python} -m papermill {input.notebook:q} {output.notebook:q} -k python3 -y {params.y:q}"
        " --no-progress-bar > {log:q} 2>&1"


rule notebook_validation:
    # "Agreement with ns-3": our side run in this build against ns-3's committed records
    # (workflow/rules/validation.smk); the default run never runs ns-3
    input:
        notebook="notebooks/validation.ipynb",
        table=VALIDATION_TABLE,
        wifi=NS3_WIFI_RECORDS,
        code=REPORT_LIBS + VALIDATION_CODE,
    output:
        notebook="results/notebooks/validation.ipynb",
        figures=directory("results/figures/validation"),
        downloads=directory("results/downloads/validation"),
    params:
        y=papermill_params(
            agreement_table=lambda i, o: VALIDATION_TABLE,
            reference_dir=lambda i, o: str(Path(i.wifi).parents[1]),
            figures_dir=lambda i, o: o.figures,
            downloads_dir=lambda i, o: o.downloads,
            downloads_url=lambda i, o: "_static/downloads/validation",
        ),
        python=PYTHON,
    log:
        "results/logs/report/notebook_validation.log",
    conda:
        "../envs/report.yaml"
    shell:
        "{params.python} -m papermill {input.notebook:q} {output.notebook:q} -k python3 -y {params.y:q}"
        " --no-progress-bar > {log:q} 2>&1"


rule trust:
    # the first page's evidence behind each chapter's model (simulator/report/trust.py)
    input:
        validation=VALIDATION_TABLE,
        claims_file=CLAIMS_FILE,       # its folder is the reference folder the papers' own checks read
        paper_tables=[t for p in EVIDENCE_PAPERS for t in get_study_tables(p)],
        paper_reference=[f for p in EVIDENCE_PAPERS for f in paper_reference_files(p)],
        textbook_tables=get_study_tables("textbook"),
        evidence=TRUST_EVIDENCE,
        code=REPORT_LIBS,
    output:
        "results/trust.csv",
    params:
        python=PYTHON,
        reference_dir=lambda w, input: str(Path(input.claims_file).parent),
        papers=" ".join(f"--paper-tables {p} " + " ".join(map(shlex.quote, get_study_tables(p))) for p in EVIDENCE_PAPERS),
    log:
        "results/logs/report/trust.log",
    conda:
        "../envs/report.yaml"
    shell:
        "{params.python} -m simulator.report.trust --validation-table {input.validation:q}"
        " {params.papers} --textbook-tables {input.textbook_tables:q}"
        " --reference-dir {params.reference_dir:q}"
        " --evidence {input.evidence:q} --out {output:q} > {log:q} 2>&1"


rule book:
    input:
        notebooks=[f"results/notebooks/{c}.ipynb" for c in CHAPTERS + ["suite", "scorecard", "validation"]],
        study_pages=[f"results/notebooks/study_{s}.ipynb" for s in STUDY_PAGES],
        downloads=[f"results/downloads/{c}" for c in CHAPTERS + ["suite", "scorecard", "validation"]]
        + [f"results/downloads/study_{s}" for s in STUDY_PAGES],
        sources=sorted(str(p) for p in Path("book").rglob("*") if p.is_file() and "_build" not in p.parts),  # _static too
        paper_pages=sorted(str(p) for p in Path("simulator/report/papers").rglob("*.md")),   # a paper's own pages
        tables=get_study_tables(),
        provenance=get_provenance_files(),
        scorecard="results/scorecard.csv",      # the first page's table of the papers
        trust="results/trust.csv",              # ... and the evidence behind each chapter's model
        claims_file=CLAIMS_FILE,
        claim_files=CLAIM_FILES,
        reasons=CLAIM_REASONS,
        thresholds=METRIC_THRESHOLDS,
        code=REPORT_LIBS,
        artifact=["README.md", "pyproject.toml", "CITATION.cff"],   # the Artifact evaluation page's sources
    output:
        "results/book/_build/html/index.html",
    params:
        python=PYTHON,
        profile=config["profile"],
        seeds=N_SEEDS,
        studies=lambda wildcards: ",".join(STUDIES),
    log:
        "results/logs/report/book.log",
    conda:
        "../envs/report.yaml"
    shell:
        "{params.python} -m simulator.report.book --src book --out results/book"
        " --notebooks {input.notebooks:q} --study-pages {input.study_pages:q} --downloads {input.downloads:q}"
        " --tables {input.tables:q}"
        " --provenance {input.provenance:q} --profile {params.profile:q} --seeds {params.seeds} --studies {params.studies:q}"
        " --scorecard {input.scorecard:q} --claims-file {input.claims_file:q} --trust {input.trust:q} > {log:q} 2>&1"


rule book_check:
    # Every page of the built book in headless Chromium at 1,280 px: full-height screenshots and the
    # problems found (overflow, broken links, images, error text, absolute paths, captions). It never
    # fails the build: problems, or Chromium missing, are in the JSON and the summary line it prints,
    # and tests/test_book_browser.py fails on them.
    input:
        book="results/book/_build/html/index.html",
        code="simulator/report/browser_check.py",
    output:
        report="results/book_check.json",
        screenshots=directory("results/screenshots"),
    params:
        python=PYTHON,
        html=lambda wildcards, input: str(Path(input.book).parent),
    log:
        "results/logs/report/book_check.log",
    conda:
        "../envs/report.yaml"
    shell:
        "{params.python} -m simulator.report.browser_check {params.html:q} --screenshots {output.screenshots:q}"
        " --json {output.report:q} --exit-zero > {log:q} 2>&1; tail -n 1 {log:q} >&2"


rule report:
    # Convenience target: the scorecard and the HTML report (runs simulations only if tables are missing).
    input:
        "results/scorecard.csv",
        "results/book/_build/html/index.html",
        "results/book_check.json",
