"""A chapter's claims as the scorecard decided them: one row per claim and model variant, with the
claim in our words and where the paper states it (reference/claims.yaml). Chapters only show these
rows; deciding a claim is the scorecard's job (results/scorecard.csv, results/scorecard_notes.csv)."""
from __future__ import annotations

import html
from pathlib import Path

import pandas as pd

from simulator.report import attribution, claim_words, number_format
from simulator.report.html_view import BADGE, NOTE_STYLE
from simulator.safe_yaml import load_own

COLUMNS = ["claim", "the paper says", "variant", "verdict", "at fault", "evidence", "why", "p_value", "metric", "ours_mean", "ci_low", "ci_high",
           "n_seeds", "note"]


def claim_texts(claims_file, paper) -> dict:
    """{claim id: 'claim (stated in)'} of one paper, in the file's order."""
    doc = load_own(Path(claims_file).read_text())
    return {c["id"]: f'{c["claim"]} ({c["stated_in"]})' for c in doc["claims"] if c["paper"] == paper}


def chapter_claims(scorecard, notes, claims_file, paper) -> pd.DataFrame:
    """The scorecard's claim rows of `paper` joined with their notes and the claim texts."""
    texts = claim_texts(claims_file, paper)
    card = pd.read_csv(scorecard) if not isinstance(scorecard, pd.DataFrame) else scorecard
    note = pd.read_csv(notes) if not isinstance(notes, pd.DataFrame) else notes
    claims = card[card["item"].isin(texts)].drop(columns=["note"], errors="ignore")   # the notes file has it all
    rows = claims.merge(note, on=["item", "variant", "verdict"], how="left")
    rows = rows.rename(columns={"item": "claim"})
    has = "fault" in rows        # a scorecard of before the fault column has none to show
    rows["at fault"] = rows["fault"].map(attribution.words) if has else ""
    rows["evidence"] = rows["evidence"].fillna("") if has else ""
    rows.insert(1, "the paper says", rows["claim"].map(texts))
    order = {cid: i for i, cid in enumerate(texts)}
    rows = rows.sort_values(["claim", "variant"], key=lambda s: s.map(order) if s.name == "claim" else s)
    return rows[[c for c in COLUMNS if c in rows.columns]].reset_index(drop=True)


def _ours(r) -> str:
    """Our headline number with its 95% CI, and what it is ('' when the claim has none)."""
    if pd.isna(r.get("ours_mean")):
        return ""
    # every headline metric is a rate, delay, share, count or window: its interval is cut at 0
    lower = 0.0 if r["ours_mean"] >= 0 else None
    shown = (number_format.num(r["ours_mean"], 4) if pd.isna(r.get("ci_low")) else
             number_format.mean_ci(r["ours_mean"], r["ci_low"], r["ci_high"], 4, lower))
    what = claim_words.metric(r.get("metric"))
    return f"{shown}<br><small>{html.escape(what)}{', ' if what else ''}{int(r['n_seeds'])} seeds</small>"


def _verdict(r) -> str:
    """The verdict with its p and, folded, every comparison behind it."""
    p = "" if pd.isna(r.get("p_value")) else f"<br><small>{number_format.p_value(r['p_value'])}</small>"
    note = html.escape(str(r.get("note", "")))
    folded = f"<details><summary>every comparison</summary><div style='{NOTE_STYLE}'>{note}</div></details>"
    return f"<b style='color:{BADGE.get(r['verdict'], 'black')}'>{r['verdict'].replace('_', ' ')}</b>{p}{folded}"


def _fault(r) -> str:
    """Who is at fault for a row not reproduced, and what decides it ('' for the others)."""
    fault = r.get("at fault")
    if not isinstance(fault, str) or not fault:
        return ""
    evidence = r.get("evidence")
    evidence = f"<br><small>{html.escape(evidence)}</small>" if isinstance(evidence, str) and evidence else ""
    return f"<b>{html.escape(fault)}</b>{evidence}"


def _why(r) -> str:
    why = r.get("why")
    return html.escape(why) if isinstance(why, str) and why else ""


def said_once(group: pd.DataFrame, cell) -> str | None:
    """The cell every row of a claim shows alike (said once, spanning the rows), or None if the rows differ."""
    cells = {cell(r) for _, r in group.iterrows()}
    return cells.pop() if len(cells) == 1 else None


def claims_html(rows: pd.DataFrame) -> str:
    """The chapter's claims as one table that fits the page: the claim once (spanning its settings),
    then per setting the verdict with its p and, folded, every comparison, our headline number, who is at
    fault for a verdict other than reproduced and the evidence that decides it, and the reason. A fault or a
    reason the settings of a claim share is said once, spanning them (one note per claim)."""
    head = ("<tr><th>claim</th><th>setting</th><th>verdict, and every comparison</th><th>ours (95% CI)</th>"
            "<th>at fault, and the evidence</th><th>why</th></tr>")
    body = []
    for cid, group in rows.groupby("claim", sort=False):
        n = len(group)
        shared = {cell: said_once(group, cell) for cell in (_fault, _why)}
        for i, (_, r) in enumerate(group.iterrows()):
            first = (f"<td rowspan='{n}'><b>{cid}</b> {html.escape(str(r['the paper says']))}</td>"
                     if i == 0 else "")
            tail = "".join(f"<td>{cell(r)}</td>" if once is None else
                           (f"<td rowspan='{n}'>{once}</td>" if i == 0 else "") for cell, once in shared.items())
            body.append(f"<tr>{first}<td>{html.escape(claim_words.setting(r['variant']))}</td><td>{_verdict(r)}</td>"
                        f"<td>{_ours(r)}</td>{tail}</tr>")
    return f"<table class='repro claims'><thead>{head}</thead><tbody>{''.join(body)}</tbody></table>"
