"""The report package: everything between the simulator's run records and the HTML book.

A small core that knows no particular paper, and one folder per paper, papers/<paper>/ (catalogue.yaml
at the repository's root lists the papers and names each one's modules):

    papers/<paper>/  claims (the rule `claims`: its published numbers and claims into results/claims/<paper>.csv),
                     claim_functions (named trace statistics, references and note sentences its claims use),
                     figures and tables (its chapter's), scorecard (the M/M/1 and QtColFair papers' published
                     tables), scorecard_section (its section of the scorecard chapter), evidence (its own checks
                     on the trust table), checks, findings, paper_text, agreement (paper-specific pieces)

The core, one module per idea; the workflow's rules and the notebooks only call these:

    io               atomic file writers, table and trace loaders
    aggregate        run records -> long tables (mean, sd, 95% CI, per-run range), traces, provenance
    mm1k             M/M/1/K closed forms (blocking probability, Little's-law delay)
    verdicts         the scorecard's columns and verdicts; orderings between table rows
    cwnd_shapes      shapes of cwnd traces for mm1-8: drops, regrowth, concave then convex
    claim_engine     the one engine: decides every claim from its decide: block in reference/claims.yaml
    claim_cells      the cells a claim reads (table rows, scopes, for: values), for the engine
    claim_spec       checks of the decide blocks before any job (names the claim, key, allowed values)
    claim_functions  the registry of named trace statistics, references and note sentences (each paper's in its folder)
    claim_rule       the one statistical rule (Welch / one-sample t, Holm, deterministic by value, practical threshold)
    metric_thresholds each metric's resolution (tie) and practical threshold (reference/metric_thresholds.yaml)
    claim_reasons    why a claim did not reproduce (reference/claim_reasons.yaml), beside the verdict
    attribution      who is at fault for a claim row not reproduced (the paper's text, code, an open parameter, our
                     simulator, our seeds) and the evidence: NS-2 rows from NS-2 2.35's own verdict on its records
    claims_common    the command line of every paper's claims module (papers/<paper>/claims)
    scorecard        joins every paper's rows into results/scorecard.csv, in the catalogue's order (command line)
    paper_chapter    the chapter of a paper without a notebook of its own (notebooks/paper.ipynb; new-paper)
    claims_view      a chapter's claim rows as the scorecard decided them (chapters never decide)
    chapter          what every chapter notebook does: save figures, captions, tables (with downloads
                     or without), raw HTML
    chapter_tables   'mean [CI]' table cells, the note for a study that did not run
    number_format    numbers in tables: significant digits, integers, ties as 0, CIs cut at 0
    figure_series    which grid points each plotted series comes from (checked by the tests) and
                     the data behind a figure (its CSV download)
    paper_values     the numbers a paper states (reference/<paper>/paper_numbers.csv), drawn and
                     printed beside ours one way across the book
    published_numbers  those numbers as scorecard rows: a value or range kept as the paper gives it,
                     inside when it overlaps our per-run range (testbed, NS-2, Mininet)
    html_view        cells of raw-HTML tables (numbers, coloured verdicts)
    cells            how a number is written in a table cell (significant digits, integers, ties);
                     a table shown with the CSV of the numbers behind it
    paper_marks      how a figure draws the paper's own values: grey hollow markers, hatched bands
    figures_scorecard  the scorecard chapter's tables and figure, and the helpers of a paper's own section
    figures_validation, textbook, suite_chapter   the non-paper chapters' figures and tables
    chapter_studies  which studies each chapter reads; the others ("Your studies") get a generated page
    study_page       that page: a study's parameters, every metric per grid point, each metric against
                     each swept parameter (notebooks/study.ipynb)
    style            one colour and label per algorithm across the book
    headline         the five papers at a glance (book's first page, scorecard chapter): counts per
                     paper (our own checks apart: `counts`, used by every page that counts claims)
                     and the main reason for what did not reproduce
    provenance_page  the Provenance page's tables: this build, per study its runs and seeds
    book             assembles and builds the Jupyter Book
    page_facts       facts stated on several built pages (versions, buffer sizes, each paper's
                     counts) read back from the HTML, and where two pages disagree
    browser_check    every page of the built book in headless Chromium: full-height screenshots,
                     overflow, broken links and images, error text, absolute paths, captions
    rule_params      parameter helpers of workflow/rules/report.smk

Command lines: `python -m simulator.report.<module> --help` (scorecard, papers.<paper>.claims, book, browser_check).
"""
