"""The M/M/1 paper's section of the scorecard chapter (notebooks/scorecard.ipynb; catalogue.yaml
`scorecard_section: own`), laid out with the scorecard chapter's helpers (simulator/report/figures_scorecard.py)."""
from __future__ import annotations

import numpy as np
import pandas as pd

from simulator.report import style
from simulator.report.figures_scorecard import (Card, counts_view, not_run, numbers_of, paper_rows, plural,
                                                show_numbers, verdict_counts)
from simulator.scenarios.mm1_queue import run_name

MM1_TABLES = ["V", "VI", "VII", "VIII", "IX", "X", "XI", "XII", "XIII"]



def mm1_numbers(card: Card) -> pd.DataFrame:
    """The scorecard's rows of the 108 published numbers ('Table V lambda=5 tahoe'), with the paper
    table parsed from the item and the algorithm that ran the item's paper row in the row's variant
    (as_published: the published code, published_tahoe)."""
    numbers = numbers_of(paper_rows(card, "mm1")).copy()
    numbers["algorithm"] = [run_name(v, i.split()[-1]) for v, i in zip(numbers["variant"], numbers["item"])]
    numbers["table"] = numbers["item"].str.split().str[1]
    return numbers


def inside_by_table(numbers: pd.DataFrame) -> pd.DataFrame:
    """A row per variant, a column per paper table: how many of its numbers agree (integers)."""
    inside = numbers.assign(inside=numbers["verdict"] == "inside")
    return (inside.groupby(["variant", "table"])["inside"].sum().unstack(fill_value=0)
            .reindex(columns=MM1_TABLES, fill_value=0).astype(int).rename_axis(columns=None))


def agree_sentence(counts: pd.DataFrame) -> str:
    """'Published numbers inside our per-run range: **as_published**: 100 of 108; **standard**: 66 of 108.',
    out of the numbers that ran."""
    parts = [f"**{v}**: {int(c['inside'])} of {int(c['total'] - c['missing'])}" for v, c in counts.iterrows()]
    return ("Published numbers inside our per-run range: " + "; ".join(parts)
            + (f" ({int(counts['missing'].sum())} not run in this build)" if counts["missing"].sum() else "") + ".")


def show_mm1_counts(ch, card: Card) -> None:
    numbers = mm1_numbers(card)
    counts = verdict_counts(numbers, "variant")
    ch.table(counts_view(counts, "model variant"), "mm1_numbers_per_variant.csv", agree_sentence(counts))
    ch.table(inside_by_table(numbers).rename_axis("model variant").reset_index(), "mm1_agree_per_table.csv",
             "Published numbers inside our per-run range, per paper table (12 numbers each).")


def numbers_figure(numbers: pd.DataFrame):
    """A panel per variant: each published number as our deviation from it in percent, our mean as a
    marker and our per-run range as a bar, grouped by paper table; one legend entry per algorithm."""
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, len(style.VARIANTS), figsize=(11, 3.6), sharey=True, squeeze=False)
    for ax, variant in zip(axes[0], style.VARIANTS):
        d = numbers[(numbers["variant"] == variant) & (numbers["verdict"] != "missing")]
        for a in style.order(d["algorithm"].unique()):
            g = d[d["algorithm"] == a]
            # the rows are the paper's numbers (its algorithms); style.rank places any other name too
            x = np.array([MM1_TABLES.index(t) for t in g["table"]]) + 0.12 * (style.rank(a) - 2)
            rel = lambda v: 100 * (v / g["paper_value"] - 1)  # noqa: E731
            ax.vlines(x, rel(g["run_p025"]), rel(g["run_p975"]), color=style.PALETTE[a], alpha=0.5, lw=2)
            ax.plot(x, rel(g["ours_mean"]), ls="none", marker="o", ms=3.5, color=style.PALETTE[a], label=style.LABELS[a])
        ax.axhline(0, color="black", lw=0.8)
        ax.set_xticks(range(len(MM1_TABLES)), [f"T. {t}" for t in MM1_TABLES])
        ax.set_title(style.VARIANT_TITLES[variant])
        ax.set_ylabel("ours relative to paper (%)")
        ax.set_xlabel("paper table")
        ax.set_ylim(-100, 150)
    axes[0, 0].legend(ncol=2)
    fig.tight_layout()
    return fig


def show_numbers_figure(ch, card: Card) -> None:
    numbers = mm1_numbers(card)
    ch.figure(numbers_figure(numbers), "scorecard_numbers")
    ch.save_download(numbers, "scorecard_numbers.csv")
    ch.caption(
        "Figure: every published number of Tables V-XIII against our runs, as percent deviation from the paper: "
        "marker = our mean, bar = our per-run range (2.5-97.5 percentiles over seeds); a bar crossing the black "
        "line means the published number is inside our range. Made from `results/scorecard.csv` (studies "
        "`config/studies/mm1/mm1_lambda.yaml`, `mm1_K.yaml`, `mm1_N.yaml`); the axis is clipped at -100% / +150%. "
        + ch.download_link("scorecard_numbers.csv", "Data as CSV") + ".")


def show_mm1_outside(ch, card: Card) -> None:
    """Per variant, the published numbers outside our per-run range (or not run)."""
    numbers = mm1_numbers(card)
    for variant in style.VARIANTS:
        mine = numbers[numbers["variant"] == variant]
        out = mine[mine["verdict"] == "outside"]
        head = f"**{variant}**: {plural(len(out), 'published number')} outside our per-run range{not_run(mine)}"
        if not len(out):
            ch.markdown(head + ".")
            continue
        show_numbers(ch, out, f"mm1_outside_{variant}.csv", head + ":")
