"""`python -m simulator new-paper NAME`: scaffold a sixth paper, so that `snakemake --cores all` builds its chapter
with its claim's verdict on page 1's table.

It writes the paper's own folders and one catalogue entry, and touches nothing else:

    catalogue.yaml                              + papers.NAME (title, citation, studies, claims module, ...)
    reference/NAME/README.md                    where the paper's numbers come from (fill in)
    reference/NAME/claims.yaml                  one claim, decided by the one rule
    reference/NAME/paper_numbers.csv            the numbers the paper states, drawn beside ours
    config/studies/NAME/NAME_example.yaml       one study (a dumbbell; replace with the paper's set-up)
    simulator/report/papers/NAME/claims.py      decides its claims into results/claims/NAME.csv
    simulator/report/papers/NAME/chapter.py     the paper's own figures (called by the generic chapter)

Every file is commented: what to change, and where the rest of the pipeline reads it. Nothing is written
when NAME is taken or a file exists already.
"""
from __future__ import annotations

import re
import sys
from pathlib import Path

from simulator import paper_catalogue

NAME = re.compile(r"^[a-z][a-z0-9]{1,19}$")     # the claim ids are NAME-1, NAME-2 (reference.CLAIM_ID)


class NewPaperError(ValueError):
    """The name is not usable or a file it would write exists; nothing was written."""


def catalogue_entry(name: str, title: str) -> str:
    return f'''  {name}:
    # added by `python -m simulator new-paper {name}`: edit every field (catalogue.yaml's header says what each is)
    title: "{title}"
    citation: "Author(s). Title of the paper. Venue, year. (Replace with the paper's full reference.)"
    kind: journal article
    published: "the tables, figures and numbers of the paper that we compare with (say which)"
    model: "a dumbbell (one bottleneck link), Linux's TCP details (stack linux)"
    notebook: {paper_catalogue.GENERIC_NOTEBOOK}
    studies:
      {name}_example: "the example study: CUBIC and Reno over one 10 Mbit/s bottleneck (replace with the paper's set-up)"
    claims: simulator.report.papers.{name}.claims
    reference: []
    paper_numbers: {name}/paper_numbers.csv
'''


def files(name: str, title: str) -> dict:
    """{path relative to the repository: text} of the paper's own folders."""
    study = f"{name}_example"
    return {
        f"reference/{name}/README.md": f"""# {title}: the paper's numbers and claims

Source: (name the paper, and for each file below the section, table or figure each number comes from).

| file | what | from |
|---|---|---|
| `claims.yaml` | the paper's claims, each decided by the one rule (How a claim is decided) | the paper's text |
| `paper_numbers.csv` | numbers the paper states, drawn beside ours in its chapter | the paper's text |

The full reference is in `catalogue.yaml` at the repository's root (paper id `{name}`).
""",
        f"reference/{name}/claims.yaml": f"""# Claims of the paper `{name}` (catalogue.yaml), in the format of reference/claims.yaml (its header lists
# every field; simulator/report/claim_engine.py's docstring lists the kinds of comparison). Write the
# criteria down before looking at the results. Ids are {name}-1, {name}-2, ...; never renumber one.
scoring:
  {name}:
    variants:
      - name: example         # one verdict row per claim; add variants to judge a claim in several settings
claims:
  - id: {name}-1
    paper: {name}
    claim: CUBIC gets more goodput than Reno over one 10 Mbit/s bottleneck (replace with the paper's claim).
    stated_in: Section ?, Figure ? (where the paper states it)
    studies: [{study}]
    metrics: [goodput_warm_mbps]
    decide:
      where: {{study: {study}, metric: goodput_warm_mbps}}
      metric: goodput_warm_mbps
      headline: {{metric: goodput_warm_mbps, algorithm: cubic}}
      parts:
        - text: CUBIC's goodput after the warm-up above Reno's
          order: [{{algorithm: cubic}}, ">", {{algorithm: reno}}]
""",
        f"reference/{name}/paper_numbers.csv": (
            "source,study,metric,algorithm,where,low,high,unit,words\n"
            f'"Section ?, Figure ?",{study},goodput_warm_mbps,cubic,,8,9.5,Mbit/s,'
            '"an example: replace with a number the paper states, and quote its words here"\n'),
        f"config/studies/{name}/{study}.yaml": f"""# The example study of the paper `{name}` (catalogue.yaml): replace with the paper's set-up. Every key is
# checked before any job (`python -m simulator validate {'config/studies/' + name + '/' + study + '.yaml'}`); the
# models and their parameters: `python -m simulator models`.
study: {study}
paper: {name}
title: "CUBIC and Reno over one 10 Mbit/s bottleneck (an example)"
model: dumbbell
seeds: 10                 # runs per grid point (seeds 1..10; the default profile's)
grid:                     # every combination of these values is one grid point
  algorithm: [cubic, reno]
fixed:                    # shared by every point
  flows: 1
  bottleneck_mbps: 10
  delay_ms: 20            # one-way propagation delay of the bottleneck
  buffer_pkts: 100
  duration: 20            # simulated seconds
  warmup: 5               # excluded from the *_warm metrics, s
  stack: linux
""",
        f"simulator/report/papers/{name}/__init__.py": f'"""The paper `{name}` (catalogue.yaml): its claim checks and its own figures."""\n',
        f"simulator/report/papers/{name}/claims.py": f'''"""Claims of the paper `{name}` (reference/{name}/claims.yaml), decided by the one engine into
results/claims/{name}.csv (the rule `claims`, as catalogue.yaml's `claims` names this module).

  python -m simulator.report.papers.{name}.claims --tables results/tables/{study}.csv \\
      --out results/claims/{name}.csv --notes results/claims/{name}_notes.csv
"""
from __future__ import annotations

from simulator.report import claim_engine
from simulator.report import claims_common as cc

PAPER = "{name}"


def build(tables, traces):
    """Scorecard rows and notes of every claim of the paper."""
    return claim_engine.paper_rows(PAPER, tables, traces)


if __name__ == "__main__":
    cc.cli(build, __doc__)
''',
        f"simulator/report/papers/{name}/chapter.py": f'''"""The paper `{name}`'s own figures, after the generic chapter's verdict box, claims, numbers and study pages
(simulator/report/paper_chapter.py calls `show`). Draw here what the paper draws, with its numbers beside
ours (simulator/report/paper_values.py `mark`), one colour per algorithm (simulator/report/style.py).
"""
from __future__ import annotations


def show(ch, tables, traces, numbers) -> None:
    """ch: simulator.report.chapter.Chapter; tables: the paper's studies' long tables; traces: their time
    series (None without `trace: true`); numbers: reference/{name}/paper_numbers.csv as a frame."""
''',
    }


def insert_entry(catalogue_text: str, entry: str) -> str:
    """The catalogue with `entry` as the last paper (before its `chapters:`)."""
    marker = "\nchapters:"
    if marker not in catalogue_text:
        raise NewPaperError("catalogue.yaml: no top-level `chapters:` to put the new paper before")
    head, tail = catalogue_text.split(marker, 1)
    return head.rstrip("\n") + "\n" + entry + "\n" + marker.lstrip("\n") + tail


def scaffold(root, name: str, title: str | None = None) -> list:
    """Write the paper's folders and catalogue entry under repository `root`; the paths written."""
    root = Path(root)
    if not NAME.match(name):
        raise NewPaperError(f"new-paper: {name!r} is not a usable paper id; allowed: 2-20 lower-case letters and "
                            "digits, starting with a letter (its claims are NAME-1, NAME-2, ...)")
    cat_file = root / "catalogue.yaml"
    cat = paper_catalogue.parse(cat_file)
    if name in cat.papers or name in cat.chapters:
        raise NewPaperError(f"new-paper: {cat_file}: {name!r} is already a chapter; allowed: a new id")
    title = title or f"Paper {name}"
    out = files(name, title)
    taken = [p for p in out if (root / p).exists()]
    if taken:
        raise NewPaperError(f"new-paper: {', '.join(taken)} already exist(s); nothing was written")
    for rel, text in out.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    cat_file.write_text(insert_entry(cat_file.read_text(), catalogue_entry(name, title.replace('"', "'"))))
    paper_catalogue.parse(cat_file)          # the entry it wrote reads back
    return ["catalogue.yaml", *out]


def cli(args) -> int:
    """`python -m simulator new-paper NAME [--title T]` in the repository that holds this package."""
    root = Path(__file__).resolve().parents[1]
    try:
        written = scaffold(root, args.name, args.title)
    except NewPaperError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    print("\n".join(["wrote:", *(f"  {p}" for p in written),
                     "next: edit them (each says what to change), then run  .venv/bin/snakemake --cores all"]))
    return 0
