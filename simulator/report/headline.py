"""The five papers at a glance, for the book's first page and the scorecard chapter: per paper, what
was compared with our runs and how it came out, counted from results/scorecard.csv, and the main
reason for what did not reproduce, from the kind of each row's reason (reference/claim_reasons.yaml,
as claim_reasons.kind picks it).

A scorecard row is either a published number (verdict inside / outside / missing) or a claim in one
setting (a model variant, a window cap, a flow count: verdict reproduced / contradicted /
inconclusive / not_testable). Claim rows are counted per setting: a claim decided in three settings
counts three times. A check of our own (reference/claims.yaml `source: ours`, e.g. mm1-9 against the
M/M/1/K closed forms) is no claim of the paper: it is counted apart ("8 claims of the paper; 1 check of
ours"), never in the paper's verdict columns. Every page that counts claims calls `counts`.
"""
from __future__ import annotations

import html

from pathlib import Path

import pandas as pd

from simulator import claims_files, paper_catalogue
from simulator.report import attribution, claim_reasons, claim_words
from simulator.report.verdicts import NUMBER_VERDICTS, VERDICTS

# paper id -> (short name, chapter page); the order of the book (catalogue.yaml)
PAPERS = {p.id: (p.title, p.id) for p in paper_catalogue.load().papers.values()}
KIND_TEXT = {"model_difference": "our model differs from the paper's set-up or code",
             "sensitivity": "the result turns on a parameter the paper leaves open",
             "paper_ambiguity": "the paper's text is ambiguous or contradicts itself",
             "paper_tool": "the paper's own simulator does not reproduce it either",
             "too_few_seeds": "too few seeds to separate the means",
             "unexplained": "not yet explained"}
UNRESOLVED = ("contradicted", "inconclusive")     # the claim rows a reason explains
COUNT_COLUMNS = ["published", "number_settings", "numbers", "agree", "not_run", "claims", "claim_rows", "settings",
                 *VERDICTS, "own_checks", "own_check_rows", "own_reproduced"]


def own_checks(claims_file) -> set:
    """Ids of the checks of our own in `claims_file` (source: ours): counted apart from the papers' claims."""
    if not claims_file or not Path(claims_file).exists():
        return set()
    return {c["id"] for c in claims_files.read(claims_file)["claims"] if c.get("source") == "ours"}


def counts(rows: pd.DataFrame, claims_file, papers=None) -> pd.DataFrame:
    """paper_counts with the reasons and our own checks of `claims_file`: the one count every page shows."""
    reasons = claim_reasons.load(Path(claims_file).parent) if claims_file else {}
    return paper_counts(rows, reasons, papers, own=own_checks(claims_file))


def row_kinds(claims: pd.DataFrame, reasons: dict) -> pd.Series:
    """The kind of reason of each contradicted or inconclusive claim row (index of `claims`)."""
    bad = claims[claims["verdict"].isin(UNRESOLVED)]
    return pd.Series([claim_reasons.kind(reasons, r.item, r.variant, r.verdict, int(r.n_seeds) if pd.notna(r.n_seeds) else 0)
                      for r in bad.itertuples()], index=bad.index, dtype=object)


def main_reason(kinds: pd.Series) -> str:
    """One line: the most common kind of reason, with how many claim rows it explains, then the others."""
    if kinds.empty:
        return ""
    counts = kinds.value_counts().sort_values(ascending=False, kind="stable")
    top, k, n = counts.index[0], int(counts.iloc[0]), len(kinds)
    text = KIND_TEXT.get(top, top)
    if n == 1:
        return f"{text[0].upper()}{text[1:]} (1 row)."
    if k == n:
        return f"{text[0].upper()}{text[1:]} (all {n} rows)."
    rest = "; ".join(f"{KIND_TEXT.get(kind, kind)} ({int(c)})" for kind, c in counts.iloc[1:].items())
    if 2 * k > n:
        return f"Mostly {text} ({k} of {n} rows); also {rest}."
    return f"{text[0].upper()}{text[1:]} ({k} of {n} rows); {rest}."     # no majority: every kind, most common first


def unresolved_faults(claims: pd.DataFrame) -> pd.Series:
    """The fault of each contradicted or inconclusive claim row (empty when the scorecard has no fault column)."""
    if "fault" not in claims:
        return pd.Series([], dtype=object)
    return claims.loc[claims["verdict"].isin(UNRESOLVED), "fault"].fillna("")


def fault_text(claims: pd.DataFrame) -> str:
    """'the paper's text 12, our simulator 2': the rows not reproduced per fault, most first, in a reader's words."""
    counts = unresolved_faults(claims).value_counts()
    return ", ".join(f"{attribution.words(f)} {int(n)}" for f, n in counts.items() if f)


def number_fault_text(numbers: pd.DataFrame) -> str:
    """The same for the published numbers outside our range ('' without a fault column or such rows)."""
    if "fault" not in numbers:
        return ""
    counts = numbers.loc[numbers["verdict"] == attribution.OUTSIDE, "fault"].fillna("").value_counts()
    return ", ".join(f"{attribution.words(f)} {int(n)}" for f, n in counts.items() if f)


def fault_summary(rows: pd.DataFrame, papers=None) -> str:
    """The first page's sentence: of the claim rows not reproduced, how many lie with the papers and how many
    with us, and which are ours (counted from the scorecard's fault column)."""
    claims = rows[rows["verdict"].isin(VERDICTS)]
    if papers is not None:
        claims = claims[claims["paper"].isin(papers)]
    faults = unresolved_faults(claims)
    if faults.empty:
        return ""
    c = attribution.counts(faults)
    words = attribution.FAULTS
    text = (f"Of the {c['rows']} claim rows that did not reproduce, **{c['paper']} lie with the papers** "
            f"({words['paper_text']}: {c['paper_text']}; {words['paper_code']}: {c['paper_code']}; "
            f"{words['open_parameter']}: {c['open_parameter']}), **{c['ours']} with us** "
            f"({words['our_simulator']}: {c['our_simulator']}; {words['our_seeds']}: {c['our_seeds']}), "
            f"and for {c['not_found']} we have not found who is at fault (each such row lists what we ruled out).")
    ours = claims.loc[faults.index[faults == "our_simulator"]]
    if len(ours):
        text += (" Our simulator's, not yet fixed: " +
                 "; ".join(f"{r.item} ({claim_words.setting(r.variant)})" for r in ours.itertuples()) +
                 "; the chapter's claim table gives the evidence.")
    return text


def by_setting(numbers: pd.DataFrame) -> str:
    """'as_published 100 of 108; standard 66 of 108' when the numbers were compared in several settings."""
    if numbers["variant"].nunique() < 2:
        return ""
    return "; ".join(f"{v} {int((g['verdict'] == 'inside').sum())} of {int((g['verdict'] != 'missing').sum())}"
                     for v, g in numbers.groupby("variant", sort=False))


def paper_counts(rows: pd.DataFrame, reasons: dict | None = None, papers=None, own=frozenset()) -> pd.DataFrame:
    """One row per paper of `rows` (results/scorecard.csv), in the book's order (only `papers` if
    given): integer counts of the paper's published numbers (`published`, each compared in
    `number_settings` settings), of the comparisons that ran (`numbers`: inside or outside),
    those that agree (`agree`: inside our per-run range or tolerance) and not run, of the claims, the
    claim rows (one per claim and setting), the settings, the claim rows per verdict, and `main_reason`
    for the contradicted and inconclusive rows (`agree_by_setting` for a paper compared in several).
    Claims whose id is in `own` (our own checks) are counted apart: own_checks, own_check_rows and
    own_reproduced (rows), and not in claims, claim_rows, settings or the verdict columns."""
    reasons = reasons or {}
    out = []
    for paper in [p for p in PAPERS if p in set(rows["paper"]) and (papers is None or p in papers)]:
        r = rows[rows["paper"] == paper]
        numbers, decided = r[r["verdict"].isin(NUMBER_VERDICTS)], r[r["verdict"].isin(VERDICTS)]
        ours = decided["item"].isin(own)
        claims, checks = decided[~ours], decided[ours]
        verdicts = claims["verdict"].value_counts()
        out.append({"paper": paper, "title": PAPERS[paper][0], "chapter": PAPERS[paper][1],
                    "published": len(numbers[["item", "metric"]].drop_duplicates()),
                    "number_settings": int(numbers["variant"].nunique()),
                    "numbers": int((numbers["verdict"] != "missing").sum()),
                    "agree": int((numbers["verdict"] == "inside").sum()),
                    "not_run": int((numbers["verdict"] == "missing").sum()),
                    "claims": int(claims["item"].nunique()), "claim_rows": len(claims),
                    "settings": int(claims["variant"].nunique()),
                    **{v: int(verdicts.get(v, 0)) for v in VERDICTS},
                    "own_checks": int(checks["item"].nunique()), "own_check_rows": len(checks),
                    "own_reproduced": int((checks["verdict"] == "reproduced").sum()),
                    "agree_by_setting": by_setting(numbers),
                    "main_reason": main_reason(row_kinds(claims, reasons)),
                    "at_fault": fault_text(claims), "numbers_at_fault": number_fault_text(numbers)})
    frame = pd.DataFrame(out, columns=["paper", "title", "chapter", *COUNT_COLUMNS, "agree_by_setting", "main_reason",
                                       "at_fault", "numbers_at_fault"])
    return frame.astype({c: int for c in COUNT_COLUMNS})


def plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def own_cell(c) -> str:
    """'1 check of ours (2 rows: 2 reproduced)'; '' when the paper has none."""
    if not getattr(c, "own_checks", 0):
        return ""
    rows = f" ({c.own_check_rows} rows: {c.own_reproduced} reproduced)" if c.own_check_rows > 1 else (
        f" ({'reproduced' if c.own_reproduced else 'not reproduced'})")
    return f"{c.own_checks} {'check' if c.own_checks == 1 else 'checks'} of ours{rows}"


def compared_cell(c) -> str:
    """'108 published numbers in 2 settings; 8 claims of the paper in 2 settings (16 claim rows); 1 check of
    ours (2 rows: 2 reproduced)'."""
    parts = []
    if c.published:
        per = f" in {c.number_settings} settings" if c.number_settings > 1 else ""
        missing = f" ({c.not_run} of {c.numbers + c.not_run} not run)" if c.not_run else ""
        parts.append(f"{plural(c.published, 'published number')}{per}{missing}")
    if c.claim_rows:
        per = f" in {c.settings} settings ({c.claim_rows} claim rows)" if c.claim_rows != c.claims else ""
        parts.append(f"{plural(c.claims, 'claim')} of the paper{per}")
    if own_cell(c):
        parts.append(own_cell(c))
    return "; ".join(parts) or "–"


def agree_cell(c) -> str:
    if not c.numbers:
        return "–"
    cell = f"<b>{c.agree} of {c.numbers}</b>"
    return cell + "".join(f"<br><small>{html.escape(part)}</small>" for part in c.agree_by_setting.split("; ") if part)


def paper_rows_html(c, link) -> str:
    """One paper's rows of the headline table: its counts, then (if any) the main reason on a row of its own
    under them, the paper's name spanning both."""
    reason = html.escape(c.main_reason)
    name = (f"<td rowspan='{2 if reason else 1}'><a href='{link(c.chapter)}'>{html.escape(c.title)}</a></td>")
    counts = "".join(f"<td>{getattr(c, v)}</td>" for v in VERDICTS)
    row = f"<tr class='paper'>{name}<td>{compared_cell(c)}</td><td>{agree_cell(c)}</td>{counts}</tr>"
    fault = html.escape(getattr(c, "at_fault", "") or "")
    if reason:
        at_fault = f" <b>At fault:</b> {fault}." if fault else ""
        row += (f"<tr class='reason'><td colspan='{2 + len(VERDICTS)}'><b>Why the claim rows contradicted or "
                f"inconclusive:</b> {reason}{at_fault}</td></tr>")
    return row


def headline_html(counts: pd.DataFrame, link=lambda page: f"{page}.html") -> str:
    """The headline table: a row per paper, its name linking to its chapter (`link(page)`), and under its
    counts the main reason for the claim rows not reproduced."""
    head = ("<tr><th rowspan='2'>paper (chapter)</th><th rowspan='2'>compared</th>"
            "<th rowspan='2'>published numbers that agree</th>"
            f"<th colspan='{len(VERDICTS)}' style='text-align:center'>claim rows</th></tr>"
            "<tr>" + "".join(f"<th>{v.replace('_', ' ')}</th>" for v in VERDICTS) + "</tr>")
    body = "".join(paper_rows_html(c, link) for c in counts.itertuples())
    return f"<table class='repro headline'><thead>{head}</thead><tbody>{body}</tbody></table>"


def download_frame(counts: pd.DataFrame) -> pd.DataFrame:
    """The headline's data as a reader downloads it (integer counts, no page names)."""
    return counts.drop(columns=["chapter"])
