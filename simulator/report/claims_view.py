"""A chapter's claims as the scorecard decided them: one row per claim and model variant, with the
claim in our words and where the paper states it (reference/claims.yaml). Chapters only show these
rows; deciding a claim is the scorecard's job (results/scorecard.csv, results/scorecard_notes.csv)."""
from __future__ import annotations

from pathlib import Path

import pandas as pd
import yaml

COLUMNS = ["claim", "the paper says", "variant", "verdict", "why", "p_value", "metric", "ours_mean", "ci_low", "ci_high",
           "n_seeds", "note"]


def claim_texts(claims_file, paper) -> dict:
    """{claim id: 'claim (stated in)'} of one paper, in the file's order."""
    doc = yaml.safe_load(Path(claims_file).read_text())
    return {c["id"]: f'{c["claim"]} ({c["stated_in"]})' for c in doc["claims"] if c["paper"] == paper}


def chapter_claims(scorecard, notes, claims_file, paper) -> pd.DataFrame:
    """The scorecard's claim rows of `paper` joined with their notes and the claim texts."""
    texts = claim_texts(claims_file, paper)
    card = pd.read_csv(scorecard) if not isinstance(scorecard, pd.DataFrame) else scorecard
    note = pd.read_csv(notes) if not isinstance(notes, pd.DataFrame) else notes
    claims = card[card["item"].isin(texts)].drop(columns=["note"], errors="ignore")   # the notes file has it all
    rows = claims.merge(note, on=["item", "variant", "verdict"], how="left")
    rows = rows.rename(columns={"item": "claim"})
    rows.insert(1, "the paper says", rows["claim"].map(texts))
    order = {cid: i for i, cid in enumerate(texts)}
    rows = rows.sort_values(["claim", "variant"], key=lambda s: s.map(order) if s.name == "claim" else s)
    return rows[[c for c in COLUMNS if c in rows.columns]].reset_index(drop=True)
