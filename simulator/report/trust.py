"""How far to trust each chapter: the first page's table of the independent evidence behind each paper
chapter's model, beside that chapter's claim counts.

A verdict of the scorecard says where a paper's result holds in our simulator; a reader can act on a
"contradicted" only knowing whether our model of that paper's tool is itself right. The evidence here
is independent of the five papers: the same cells run in ns-3 3.44 (reference/ns3/), NS-2 2.35's own
agents on the NS-2 chapter's grid, one flow under random loss against closed-form models (the textbook
chapter: each stack's series backs the chapters that run that stack), and for the M/M/1 paper
the M/M/1/K closed forms and a replay of the paper's own code. Each check is one row of the evidence
file (EVIDENCE_COLUMNS): how many of its points lie inside its declared band, out of how many. A paper's
own checks are its catalogue.yaml `evidence` function (in its folder, simulator/report/papers/<paper>/).

    python -m simulator.report.trust --validation-table results/validation/ns3_agreement.csv \
        --paper-tables mm1 results/tables/mm1_*.csv --textbook-tables results/tables/textbook_*.csv \
        [--evidence more.csv ...] --out results/trust.csv
"""
from __future__ import annotations

import argparse
import html
import importlib
import sys
from pathlib import Path

import pandas as pd

EVIDENCE_COLUMNS = ["chapter", "check", "inside", "total", "page"]

from simulator import paper_catalogue
from simulator import peers

NS3 = peers.label("ns3")

# paper chapter -> what models it, in the reader's words (the chapter's model, its TCP stack): catalogue.yaml
MODELS = {p.id: p.model for p in paper_catalogue.load().papers.values()}
# evidence that no build produces: said plainly rather than left out
NO_CHECK = {p.id: p.no_check for p in paper_catalogue.load().papers.values() if p.no_check}

# --------------------------------------------------------------------------- evidence rows
WITH_PRESET = " with ns-3's stack preset"


def ns3_rows(table: pd.DataFrame) -> list[dict]:
    """The ns-3 comparison (simulator/validation/agreement.py table): cells inside both bounds of those compared.
    It runs the dumbbell with ns-3's stack, so it backs the QtColFair chapter directly, and the Mininet chapter's
    dumbbell with another stack preset."""
    from simulator.validation.agreement import RTT_REL, UTILIZATION_PP, counts

    c = counts(table)
    band = f"within {UTILIZATION_PP:g} pp utilization and {100 * RTT_REL:g}% mean RTT"
    preset = {"ns3": ""}       # a chapter on another stack's dumbbell: the same cells, ns-3's preset
    return [{"chapter": p.id, "check": f"{NS3}, same dumbbell cells{preset.get(p.stack, WITH_PRESET)}, {band}",
             "inside": c["inside"], "total": c["compared"], "page": "validation"}
            for p in paper_catalogue.load().papers.values() if p.topology == "dumbbell"]


# the chapters whose model runs a stack's TCP: the textbook chapter's series of that stack back them
STACK_CHAPTERS = {s: tuple(p.id for p in paper_catalogue.load().papers.values() if p.stack == s)
                  for s in paper_catalogue.STACKS}


def textbook_rows(tables: pd.DataFrame) -> list[dict]:
    """The textbook chapter's series (simulator/report/textbook.py trust_rows): one flow under random loss against
    the closed-form model that counts for it, for every chapter whose model runs that stack."""
    from simulator.report import textbook

    rows = []
    for r in textbook.trust_rows(tables):
        check = (f"{textbook.series_label(r['algorithm'], r['stack'])} under random loss against {r['model']}, "
                 f"within {100 * textbook.BAND:g}%")
        rows += [{"chapter": c, "check": check, "inside": r["inside"], "total": r["total"], "page": "textbook"}
                 for c in STACK_CHAPTERS.get(r["stack"], ())]
    return rows


def paper_evidence(paper: str, table_paths, reference_dir) -> list[dict]:
    """The rows of a paper's own checks: its catalogue.yaml `evidence` function (module:function)."""
    module, name = paper_catalogue.load().papers[paper].evidence.split(":")
    return getattr(importlib.import_module(module), name)(table_paths, reference_dir)


def read_evidence(files) -> list[dict]:
    """Evidence rows other checks wrote (EVIDENCE_COLUMNS), e.g. NS-2 2.35's and the textbook chapter's."""
    rows = []
    for f in files:
        frame = pd.read_csv(f)
        missing = [c for c in EVIDENCE_COLUMNS if c not in frame.columns]
        if missing:
            raise ValueError(f"{f}: missing column(s) {', '.join(missing)}; expected {', '.join(EVIDENCE_COLUMNS)}")
        rows += frame[EVIDENCE_COLUMNS].to_dict("records")
    return rows


def evidence(rows: list[dict]) -> pd.DataFrame:
    """Every check of every chapter, in the book's chapter order, with NO_CHECK's plain statements."""
    rows = rows + [{"chapter": c, "check": text, "inside": None, "total": None, "page": ""}
                   for c, text in NO_CHECK.items()]
    frame = pd.DataFrame(rows, columns=EVIDENCE_COLUMNS)
    order = {c: i for i, c in enumerate(MODELS)}
    return frame.sort_values("chapter", key=lambda s: s.map(order), kind="stable").reset_index(drop=True)


# --------------------------------------------------------------------------- the first page's table
def check_html(r, link) -> str:
    """'<b>43 of 64</b> ns-3 3.44, ...' (linking its page), or the plain statement of no check."""
    text = html.escape(str(r.check))
    if pd.isna(r.total):
        return f"<i>{text}</i>"
    text = f"<a href='{link(r.page)}'>{text}</a>" if isinstance(r.page, str) and r.page else text
    return f"<b>{int(r.inside)} of {int(r.total)}</b> {text}"


def trust_html(ev: pd.DataFrame, counts: pd.DataFrame, link=lambda page: f"{page}.html") -> str:
    """One row per paper chapter of `counts` (headline.paper_counts): its model, its independent checks, and its
    claim rows by verdict."""
    from simulator.report.verdicts import VERDICTS

    head = ("<tr><th>chapter</th><th>what models the paper's set-up</th><th>independent evidence for that model "
            "(points inside the check's band, of those run)</th>"
            + "".join(f"<th>claim rows {v.replace('_', ' ')}</th>" for v in VERDICTS) + "</tr>")
    body = []
    for c in counts.itertuples():
        checks = ev[ev["chapter"] == c.paper]
        cell = "<br>".join(check_html(r, link) for r in checks.itertuples()) or "<i>no independent check</i>"
        body.append(f"<tr><td><a href='{link(c.chapter)}'>{html.escape(c.title)}</a></td>"
                    f"<td>{html.escape(MODELS.get(c.paper, ''))}</td><td>{cell}</td>"
                    + "".join(f"<td>{getattr(c, v)}</td>" for v in VERDICTS) + "</tr>")
    return f"<table class='repro trust'><thead>{head}</thead><tbody>{''.join(body)}</tbody></table>"


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--validation-table", help="the ns-3 agreement table")
    ap.add_argument("--paper-tables", nargs="+", action="append", default=[], metavar=("PAPER", "TABLE"),
                    help="a paper with its own checks (catalogue.yaml `evidence`) and its studies' tables; repeated")
    ap.add_argument("--textbook-tables", nargs="*", default=[], help="the textbook chapter's studies' tables")
    ap.add_argument("--reference-dir", default="reference", help="the reference folder (config key reference_dir)")
    ap.add_argument("--evidence", nargs="*", default=[], help="more evidence rows (EVIDENCE_COLUMNS)")
    ap.add_argument("--out", required=True, help="CSV to write")
    a = ap.parse_args(argv)
    rows = []
    if a.validation_table:
        rows += ns3_rows(pd.read_csv(a.validation_table))
    for paper, *tables in a.paper_tables:
        if tables:
            rows += paper_evidence(paper, tables, a.reference_dir)
    if a.textbook_tables:
        rows += textbook_rows(pd.concat([pd.read_csv(f) for f in a.textbook_tables], ignore_index=True))
    rows += read_evidence(a.evidence)
    Path(a.out).parent.mkdir(parents=True, exist_ok=True)
    evidence(rows).to_csv(a.out, index=False)
    return 0


if __name__ == "__main__":
    sys.exit(main())
