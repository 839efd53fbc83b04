"""Tables and the figure of the scorecard chapter (notebooks/scorecard.ipynb): the rows of
results/scorecard.csv and their notes, laid out one section per paper. Every verdict shown here was
decided by the scorecard (simulator.report.scorecard and the modules it calls); this module only
counts and lays them out."""
from __future__ import annotations

from pathlib import Path
from typing import NamedTuple

import numpy as np
import pandas as pd
import yaml

from simulator.report import chapter
from simulator.report import style
from simulator.report.html_view import verdict_cell
from simulator.scenarios.mm1_queue import run_name

MM1_TABLES = ["V", "VI", "VII", "VIII", "IX", "X", "XI", "XII", "XIII"]
NUMBER_VERDICTS = ["inside", "outside", "missing"]
OTHER_PAPERS = {"mininet": "Mininet (high latency)", "ns2": "NS-2 (wired topologies)", "testbed": "Wi-Fi testbed"}
MM1_OUTSIDE_COLUMNS = ["item", "metric", "paper_value", "ours_mean", "ci_low", "ci_high", "run_p025", "run_p975",
                       "n_seeds", "verdict"]
QT_OUTSIDE_COLUMNS = ["item", "metric", "paper_value", "ours_mean", "ci_low", "ci_high", "n_seeds", "verdict"]
QUOTED_COLUMNS = ["item", "variant", "metric", "paper_value", "ours_mean", "run_p025", "run_p975", "n_seeds", "verdict"]
NOT_RUN = "*{}: no study of this paper ran in this build (see `config/config.yaml`).*"


class Card(NamedTuple):
    rows: pd.DataFrame   # results/scorecard.csv: every paper's numbers and claims
    notes: pd.DataFrame  # results/scorecard_notes.csv: the reasoning behind each claim's verdict
    texts: dict          # claim id -> 'claim <i>(where the paper states it)</i>', every paper


def load(scorecard, scorecard_notes, claims_file) -> Card:
    doc = yaml.safe_load(Path(claims_file).read_text())
    texts = {c["id"]: f'{c["claim"]} <i>({c["stated_in"]})</i>' for c in doc["claims"]}
    return Card(pd.read_csv(scorecard), pd.read_csv(scorecard_notes), texts)


def _g4(v) -> str:
    return f"{v:.4g}"


def _show_rows(frame, columns) -> None:
    chapter.html(chapter.frame_html(frame[columns], index=False, float_format=_g4))


def _note(notes, item, variant=None) -> str:
    """The reason (for a verdict other than reproduced) and note of a claim (and variant), '' if none."""
    sel = notes["item"] == item
    if variant is not None:
        sel &= notes["variant"] == variant
    if not sel.any():
        return ""
    row = notes.loc[sel].iloc[0]
    why = row.get("why", "")
    why = f"<b>Why:</b> {why}<br>" if isinstance(why, str) and why else ""   # the reason a reader checks first
    return why + str(row["note"])


def verdict_counts(numbers: pd.DataFrame, by: str) -> pd.DataFrame:
    """How many published numbers are inside / outside / missing, per `by`, with the total."""
    counts = (numbers.groupby([by, "verdict"]).size().unstack(fill_value=0)
              .reindex(columns=NUMBER_VERDICTS, fill_value=0))
    counts["total"] = counts.sum(axis=1)
    return counts


# --------------------------------------------------------------------------- the M/M/1 paper

def mm1_numbers(card: Card) -> pd.DataFrame:
    """The scorecard's rows of the 108 published numbers ('Table V lambda=5 tahoe'), with the paper
    table parsed from the item and the algorithm that ran the item's paper row in the row's variant
    (as_published: the published code, published_tahoe)."""
    rows = card.rows[card.rows["paper"] == "mm1"]
    numbers = rows[~rows["item"].str.startswith("mm1-")].copy()
    numbers["algorithm"] = [run_name(v, i.split()[-1]) for v, i in zip(numbers["variant"], numbers["item"])]
    numbers["table"] = numbers["item"].str.split().str[1]
    return numbers


def mm1_claims(card: Card) -> pd.DataFrame:
    rows = card.rows[card.rows["paper"] == "mm1"]
    return rows[rows["item"].str.startswith("mm1-")].copy()


def target_sentence(counts: pd.DataFrame, target_inside: int, scorecard_url: str) -> str | None:
    """Whether as_published has at least `target_inside` numbers inside; None if it did not run."""
    if "as_published" not in counts.index:
        return None
    ap = counts.loc["as_published"]
    ok = ap["inside"] >= target_inside
    return (f"**as_published: {ap['inside']} of {ap['total']} published numbers lie inside our per-run range** "
            f"(target: at least {target_inside}) — target {'met' if ok else '**not met**'}. "
            f"[Download the full scorecard]({scorecard_url}).")


def inside_by_table(numbers: pd.DataFrame) -> pd.DataFrame:
    """A row per variant, a column per paper table: how many of its numbers are inside."""
    return (numbers.assign(inside=numbers["verdict"] == "inside")
            .groupby(["table", "variant"])["inside"].sum().unstack().reindex(MM1_TABLES)).T


def show_mm1_counts(ch, card: Card, target_inside: int) -> None:
    numbers = mm1_numbers(card)
    counts = verdict_counts(numbers, "variant")
    chapter.html(chapter.frame_html(counts))
    sentence = target_sentence(counts, target_inside, f"{ch.downloads_url}/scorecard.csv")
    if sentence:
        ch.markdown(sentence)
    ch.markdown("Cells inside the per-run range, per paper table (12 numbers each):")
    chapter.html(chapter.frame_html(inside_by_table(numbers)))


def numbers_figure(numbers: pd.DataFrame):
    """A panel per variant: each published number as our deviation from it in percent, our mean as a
    marker and our per-run range as a bar, grouped by paper table; one legend entry per algorithm."""
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, len(style.VARIANTS), figsize=(11, 3.6), sharey=True, squeeze=False)
    for ax, variant in zip(axes[0], style.VARIANTS):
        d = numbers[(numbers["variant"] == variant) & (numbers["verdict"] != "missing")]
        for a in style.order(d["algorithm"].unique()):
            g = d[d["algorithm"] == a]
            x = np.array([MM1_TABLES.index(t) for t in g["table"]]) + 0.12 * (style.ALGORITHMS.index(style.base(a)) - 2)
            rel = lambda v: 100 * (v / g["paper_value"] - 1)  # noqa: E731
            ax.vlines(x, rel(g["run_p025"]), rel(g["run_p975"]), color=style.PALETTE[a], alpha=0.5, lw=2)
            ax.plot(x, rel(g["ours_mean"]), ls="none", marker="o", ms=3.5, color=style.PALETTE[a], label=style.LABELS[a])
        ax.axhline(0, color="black", lw=0.8)
        ax.set_xticks(range(len(MM1_TABLES)), [f"T. {t}" for t in MM1_TABLES])
        ax.set_title(style.VARIANT_TITLES[variant], fontsize=9)
        ax.set_ylabel("ours relative to paper (%)")
        ax.set_xlabel("paper table")
        ax.set_ylim(-100, 150)
    axes[0, 0].legend(ncol=2)
    fig.tight_layout()
    return fig


def show_numbers_figure(ch, card: Card) -> None:
    ch.figure(numbers_figure(mm1_numbers(card)), "scorecard_numbers")
    ch.caption(
        "Figure: every published number of Tables V-XIII against our runs, as percent deviation from the paper: "
        "marker = our mean, bar = our per-run range (2.5-97.5 percentiles over seeds); a bar crossing the black "
        "line means the published number is inside our range. Made from `results/scorecard.csv` (studies "
        "`config/studies/mm1_lambda.yaml`, `mm1_K.yaml`, `mm1_N.yaml`); the axis is clipped at -100% / +150%.")


def show_mm1_outside(ch, card: Card) -> None:
    """Per variant, the published numbers outside our per-run range (or not run)."""
    numbers = mm1_numbers(card)
    for variant in style.VARIANTS:
        out = numbers[(numbers["variant"] == variant) & (numbers["verdict"] != "inside")]
        ch.markdown(f"**{variant}**: {len(out)} published numbers outside our per-run range"
                    + (" (or not run)" if (out["verdict"] == "missing").any() else "") + ("." if len(out) else ": none."))
        if len(out):
            _show_rows(out, MM1_OUTSIDE_COLUMNS)


def mm1_claims_html(card: Card) -> str:
    """A row per claim: the claim, then per variant its verdict and note."""
    claims = mm1_claims(card)
    wide = claims.pivot(index="item", columns="variant", values="verdict")
    rows = ""
    for cid in sorted(wide.index):
        cells = "".join(f"<td>{verdict_cell(wide.loc[cid].get(v, ''), _note(card.notes, cid, v))}</td>"
                        for v in style.VARIANTS)
        rows += f"<tr><th style='white-space:nowrap'>{cid}</th><td style='min-width:12em'>{card.texts.get(cid, '')}</td>{cells}</tr>"
    return ("<table class='repro'><thead><tr><th>claim</th><th>the paper says</th>"
            + "".join(f"<th>{v}</th>" for v in style.VARIANTS) + f"</tr></thead><tbody>{rows}</tbody></table>")


def show_mm1_claims(ch, card: Card) -> None:
    chapter.html(mm1_claims_html(card))
    tally = mm1_claims(card).groupby(["variant", "verdict"]).size().unstack(fill_value=0)
    ch.markdown("Claims per verdict: " + "; ".join(
        f"**{v}** " + ", ".join(f"{k} {n}" for k, n in tally.loc[v].items() if n) for v in tally.index) + ".")


# --------------------------------------------------------------------------- the QtColFair paper

def paper_rows(card: Card, paper: str) -> pd.DataFrame:
    return card.rows[card.rows["paper"] == paper]


def show_qtcol_numbers(ch, card: Card) -> None:
    """Published numbers per metric inside / outside the tolerance, and those outside or not run."""
    rows = paper_rows(card, "qtcol")
    if rows.empty:
        ch.markdown("*No QtColFair study ran in this build (see `config/config.yaml`).*")
        return
    numbers = rows[~rows["item"].str.startswith("qt-")]
    chapter.html(chapter.frame_html(verdict_counts(numbers, "metric")))
    ran = numbers[numbers["verdict"] != "missing"]
    ch.markdown(f"**{(ran['verdict'] == 'inside').sum()} of {len(ran)} published numbers we ran are inside the tolerance** "
                f"({(numbers['verdict'] == 'missing').sum()} not run). "
                f"[Download the full scorecard]({ch.downloads_url}/scorecard.csv).")
    out = numbers[numbers["verdict"] != "inside"]
    if len(out):
        ch.markdown(f"Published numbers outside the tolerance or not run ({len(out)}):")
        _show_rows(out, QT_OUTSIDE_COLUMNS)


def qtcol_claims_html(claims: pd.DataFrame, card: Card) -> str:
    """A row per claim: the claim, its verdict and note (one setting, ns3_scenario)."""
    rows = "".join(
        f"<tr><th style='white-space:nowrap'>{r.item}</th><td style='min-width:12em'>{card.texts.get(r.item, '')}</td>"
        f"<td>{verdict_cell(r.verdict, _note(card.notes, r.item))}</td></tr>" for r in claims.itertuples())
    return ("<table class='repro'><thead><tr><th>claim</th><th>the paper says</th><th>ns3_scenario (ours)</th></tr></thead>"
            f"<tbody>{rows}</tbody></table>")


def show_qtcol_claims(ch, card: Card) -> None:
    rows = paper_rows(card, "qtcol")
    if rows.empty:
        return
    claims = rows[rows["item"].str.startswith("qt-")]
    chapter.html(qtcol_claims_html(claims, card))
    t = claims["verdict"].value_counts()
    ch.markdown("QtColFair claims per verdict: " + ", ".join(f"{k} {v}" for k, v in t.items()) + ".")


# --------------------------------------------------------------------------- Mininet, NS-2, testbed

def paper_claims_html(claims: pd.DataFrame, card: Card) -> str:
    """A row per claim and setting: the claim, the setting, its verdict, our headline number and note."""
    rows = ""
    for r in claims.itertuples():
        ours = "" if pd.isna(r.ours_mean) else f"{r.metric}: {r.ours_mean:.4g} [{r.ci_low:.4g}, {r.ci_high:.4g}]"
        cell = verdict_cell(r.verdict, _note(card.notes, r.item, r.variant), f"<span style='font-size:0.85em'>{ours}</span>")
        rows += (f"<tr><th style='white-space:nowrap'>{r.item}</th><td style='min-width:12em'>{card.texts[r.item]}</td>"
                 f"<td>{r.variant}</td><td>{cell}</td></tr>")
    return ("<table class='repro'><thead><tr><th>claim</th><th>the paper says</th><th>setting</th><th>ours</th></tr></thead>"
            f"<tbody>{rows}</tbody></table>")


def verdict_tally(paper: str, claims: pd.DataFrame, quoted: pd.DataFrame) -> list[dict]:
    """Rows (paper, rows, verdict, count) for the verdicts-per-paper table."""
    return [{"paper": paper, "rows": kind, "verdict": v, "count": int(k)}
            for kind, sub in (("claims", claims), ("quoted numbers", quoted))
            for v, k in sub["verdict"].value_counts().items()]


def show_other_papers(ch, card: Card) -> None:
    """Per paper its claims and the numbers it quotes, then the verdicts of all three per paper."""
    summary = []
    for paper, title in OTHER_PAPERS.items():
        rows = paper_rows(card, paper)
        if rows.empty:
            ch.markdown(NOT_RUN.format(title))
            continue
        is_claim = rows["item"].isin(card.texts)
        ch.markdown(f"### {title}")
        chapter.html(paper_claims_html(rows[is_claim], card))
        quoted = rows[~is_claim]
        if len(quoted):
            ch.markdown("Numbers the paper quotes, against our per-run range:")
            _show_rows(quoted, QUOTED_COLUMNS)
        summary += verdict_tally(paper, rows[is_claim], quoted)
    if summary:
        s = pd.DataFrame(summary).pivot_table(index=["paper", "rows"], columns="verdict", values="count", fill_value=0)
        ch.markdown("### Verdicts per paper")
        chapter.html(chapter.frame_html(s))
        ch.markdown(f"[Download the full scorecard]({ch.downloads_url}/scorecard.csv) (every paper's rows, one CSV).")
