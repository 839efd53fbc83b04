"""A chapter's claims as the scorecard decided them: one row per claim and model variant, with the
claim in our words and where the paper states it (reference/claims.yaml). Chapters only show these
rows; deciding a claim is the scorecard's job (results/scorecard.csv, results/scorecard_notes.csv)."""
from __future__ import annotations

import html

import pandas as pd

from simulator import claims_files
from simulator.report import attribution, claim_words, number_format
from simulator.report.html_view import BADGE, NOTE_STYLE
from simulator.report.verdicts import VERDICTS

COLUMNS = ["claim", "the paper says", "variant", "verdict", "at fault", "evidence", "why", "p_value", "metric", "ours_mean", "ci_low", "ci_high",
           "n_seeds", "note"]


OWN_CHECK = "Our own check, not a claim of the paper: "   # a claim entry with `source: ours` (counted apart)


def claim_texts(claims_file, paper) -> dict:
    """{claim id: 'claim (stated in)'} of one paper, in the file's order; a check of ours says so first."""
    doc = claims_files.read(claims_file)
    return {c["id"]: (OWN_CHECK if c.get("source") == "ours" else "") + f'{c["claim"]} ({c["stated_in"]})'
            for c in doc["claims"] if c["paper"] == paper}


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


def _ours(r, what: bool = True) -> str:
    """Our headline number with its 95% CI, and what it is unless `what` is False ('' when the claim has none)."""
    if pd.isna(r.get("ours_mean")):
        return ""
    # every headline metric is a rate, delay, share, count or window: its interval is cut at 0
    lower = 0.0 if r["ours_mean"] >= 0 else None
    k = claim_words.scale(r.get("metric"))            # a share of 1 in %, as the chapters write it
    shown = (number_format.num(k * r["ours_mean"], 4) if pd.isna(r.get("ci_low")) else
             number_format.mean_ci(k * r["ours_mean"], k * r["ci_low"], k * r["ci_high"], 4, lower))
    return f"{shown}<br><small>{_what(r)}</small>" if what else shown


def _what(r) -> str:
    """What our number is and over how many seeds: 'goodput (Mbit/s), 10 seeds'."""
    if pd.isna(r.get("ours_mean")):
        return ""
    what = claim_words.metric(r.get("metric"))
    return f"{html.escape(what)}{', ' if what else ''}{int(r['n_seeds'])} seeds"


def _verdict(r) -> str:
    """The verdict with its p and, folded, every comparison behind it."""
    p = "" if pd.isna(r.get("p_value")) else f"<br><small>{number_format.p_value(r['p_value'])}</small>"
    note = html.escape(claim_words.prose(str(r.get("note", ""))))
    folded = f"<details><summary>every comparison</summary><div style='{NOTE_STYLE}'>{note}</div></details>"
    return f"<b style='color:{BADGE.get(r['verdict'], 'black')}'>{r['verdict'].replace('_', ' ')}</b>{p}{folded}"


def _fault(r) -> str:
    """Who is at fault for a row not reproduced, and what decides it ('' for the others)."""
    fault = r.get("at fault")
    if not isinstance(fault, str) or not fault:
        return ""
    evidence = r.get("evidence")
    evidence = (f"<br><small>{html.escape(claim_words.prose(evidence))}</small>"
                if isinstance(evidence, str) and evidence else "")
    return f"<b>{html.escape(fault)}</b>{evidence}"


def _why(r) -> str:
    why = r.get("why")
    return html.escape(claim_words.prose(why)) if isinstance(why, str) and why else ""   # reader words


def runs(group: pd.DataFrame, cell) -> list:
    """Per row of a claim: (rowspan, text) where a run of consecutive rows showing the same cell starts, None
    in the rows it spans: a reason or fault several settings share is said once (one note per claim)."""
    texts = [cell(r) for _, r in group.iterrows()]
    out = []
    for i, text in enumerate(texts):
        if i and text == texts[i - 1]:
            out.append(None)
            continue
        n = 1
        while i + n < len(texts) and texts[i + n] == text:
            n += 1
        out.append((n, text))
    return out


def span_cell(run) -> str:
    if run is None:
        return ""
    n, text = run
    return f"<td rowspan='{n}'>{text}</td>" if n > 1 else f"<td>{text}</td>"


def claim_cell(cid, r, n: int, what: str | None) -> str:
    """The claim, spanning its settings; what our number is, when all its settings measure the same."""
    what = f"<br><small>ours: {what}</small>" if what else ""
    return f"<td class='claim' rowspan='{n}'><b>{cid}</b> {html.escape(str(r['the paper says']))}{what}</td>"


def claims_html(rows: pd.DataFrame) -> str:
    """The chapter's claims as one table that fits the page: the claim once (spanning its settings),
    then per setting the verdict with its p and, folded, every comparison, our headline number, who is at
    fault for a verdict other than reproduced and the evidence that decides it, and the reason. What our
    number is, a fault or a reason that several settings of a claim share is said once (one note per claim)."""
    head = ("<tr><th>claim</th><th>setting</th><th>verdict, and every comparison</th><th>ours (95% CI)</th>"
            "<th>at fault, and the evidence</th><th>why</th></tr>")
    body = []
    for cid, group in rows.groupby("claim", sort=False):
        whats = {_what(r) for _, r in group.iterrows()}
        what = whats.pop() if len(whats) == 1 else None
        spans = [runs(group, _fault), runs(group, _why)]
        for i, (_, r) in enumerate(group.iterrows()):
            first = claim_cell(cid, r, len(group), what) if i == 0 else ""
            tail = "".join(span_cell(s[i]) for s in spans)
            body.append(f"<tr>{first}<td>{html.escape(claim_words.setting(r['variant']))}</td><td>{_verdict(r)}</td>"
                        f"<td>{_ours(r, what is None)}</td>{tail}</tr>")
    return f"<table class='repro claims'><thead>{head}</thead><tbody>{''.join(body)}</tbody></table>"


def verdict_counts_html(verdicts: pd.Series) -> str:
    """'3 reproduced, 5 contradicted', each in its verdict's colour, in the order of VERDICTS."""
    counts = verdicts.value_counts()
    return ", ".join(f"<b style='color:{BADGE.get(v, 'black')}'>{int(counts[v])} {v.replace('_', ' ')}</b>"
                     for v in VERDICTS if counts.get(v, 0))


def summary_html(rows: pd.DataFrame) -> str:
    """One row per claim: its verdicts counted over its settings and who is at fault for those not
    reproduced; the short table a chapter shows above its folded claim table when that one is long."""
    head = "<tr><th>claim</th><th>settings</th><th>verdicts</th><th>at fault (rows)</th></tr>"
    body = []
    for cid, group in rows.groupby("claim", sort=False):
        faults = group["at fault"].fillna("") if "at fault" in group else pd.Series([], dtype=object)
        fault = ", ".join(f"{html.escape(f)} {int(n)}" for f, n in faults[faults != ""].value_counts().items())
        body.append(f"<tr><td class='claim'><b>{cid}</b> {html.escape(str(group['the paper says'].iloc[0]))}</td>"
                    f"<td>{len(group)}</td><td>{verdict_counts_html(group['verdict'])}</td><td>{fault}</td></tr>")
    return f"<table class='repro claims'><thead>{head}</thead><tbody>{''.join(body)}</tbody></table>"
