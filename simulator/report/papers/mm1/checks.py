"""Tables and figures of the M/M/1 chapter (notebooks/mm1.ipynb), part two: congestion windows over time
(the paper's Figures 1, 2 and 6-8), the `none` sender against the M/M/1/K closed forms (the scorecard's
comparison, scorecard_mm1.analytic_comparison), and the audit replaying the paper's random stream."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from simulator.report import chapter
from simulator.report import figure_series, mm1k, style
from simulator.report.papers.mm1 import scorecard as sc
from simulator.report import number_format
from simulator.report.papers.mm1.figures import by_base, greek, names, study_file
from simulator.scenarios.mm1_queue import run_name

CWND_ALGS = ("tahoe", "reno", "cubic")  # the paper's Figures 6, 7, 8 (as_published: the published_* code of each)
OVERLAY_N = 300  # N of the paper's Figures 1 and 2


def _studies(df) -> str:
    return ", ".join(f"`{study_file(s)}`" for s in sorted(df["study"].unique()))


def _cwnd_axes(ax, title):
    ax.set_title(title, fontsize=9)
    ax.set_xlabel("time (s)")
    ax.set_ylabel("cwnd (packets)")
    ax.legend(loc="upper left", frameon=True, framealpha=0.85)


# --------------------------------------------------------------------------- congestion windows

def cwnd_algorithms(tv: pd.DataFrame) -> list:
    """The rows of the cwnd figure: the traced algorithms of Figures 6-8 in their order, then any other
    traced algorithm (a user's; the study traces no other built-in)."""
    ours = sorted((a for a in set(tv["algorithm"]) if style.base(a) in CWND_ALGS),
                  key=lambda a: CWND_ALGS.index(style.base(a)))
    return ours + style.order(set(tv["algorithm"]) - set(ours))


def cwnd_grid(tv: pd.DataFrame, variant: str):
    """A row per algorithm (Tahoe, Reno, Cubic), a column per N: cwnd over time of every seed, the
    first seed bold. `tv`: the traces of one variant."""
    import matplotlib.pyplot as plt

    algs = cwnd_algorithms(tv)
    Ns = sorted(tv["N"].unique())
    fig, axes = plt.subplots(len(algs), len(Ns), figsize=(5.2 * len(Ns), 2.4 * len(algs)), squeeze=False)
    seed0 = tv["seed"].min()
    for i, a in enumerate(algs):
        for j, n in enumerate(Ns):
            ax = axes[i, j]
            for s, g in tv[(tv["algorithm"] == a) & (tv["N"] == n)].groupby("seed"):
                g = g.sort_values("t")
                ax.step(g["t"], g["cwnd"], where="post", color=style.PALETTE[a],
                        lw=1.3 if s == seed0 else 0.7, alpha=1.0 if s == seed0 else 0.3,
                        label=f"{style.LABELS[a]} seed {s}" if s == seed0 else None)
                figure_series.record(ax, f"{style.LABELS[a]} seed {s}", g, g["t"], g["cwnd"], panel=f"{a}, N={n}")
            paper = style.base(a) in CWND_ALGS     # Tahoe: the paper's Figure 6, Reno 7, Cubic 8
            fig_no = f"  (Fig. {6 + CWND_ALGS.index(style.base(a))}{'ab'[j] if j < 2 else ''})" if paper else ""
            _cwnd_axes(ax, f"{style.LABELS[a]}, N = {n}{fig_no}")
    fig.suptitle(style.VARIANT_TITLES[variant], y=1.0)
    fig.tight_layout()
    return fig


def cwnd_overlay(tv: pd.DataFrame, n):
    """Tahoe and Reno in one panel (the paper's Figure 1), Cubic in another (Figure 2); `tv`: the
    traces of one variant, N and seed."""
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 2, figsize=(10, 2.8))
    ran = {style.base(a): a for a in tv["algorithm"].unique()}   # tahoe -> published_tahoe in as_published
    for ax, algs, fig_no in ((axes[0], ("tahoe", "reno"), 1), (axes[1], ("cubic",), 2)):
        for a in (ran.get(b, b) for b in algs):
            g = tv[tv["algorithm"] == a].sort_values("t")
            if g.empty:
                continue                                  # not traced in this profile: the caption says so
            ax.step(g["t"], g["cwnd"], where="post", color=style.PALETTE[a], label=style.LABELS[a], lw=1.3)
            figure_series.record(ax, style.LABELS[a], g, g["t"], g["cwnd"], panel=f"Fig. {fig_no}")
        _cwnd_axes(ax, f"Fig. {fig_no} analogue, N = {n}")
    fig.tight_layout()
    return fig


def cwnd_names(tv: pd.DataFrame) -> str:
    """'Reno and Cubic' (as_published: '..., our model of the paper's code of each: published_reno, ...'):
    the traced algorithms of Figures 6-8 that the grid draws."""
    algs = by_base(a for a in cwnd_algorithms(tv) if style.base(a) in CWND_ALGS)
    run = [a for a in algs if a != style.base(a)]
    return names(algs) + (f": our model of the paper's code of each, {', '.join(run)}" if run else "")


def beside_names(tv: pd.DataFrame) -> str:
    """', and mynewreno beside them (not in the paper)' for traced algorithms the paper did not trace."""
    others = [a for a in cwnd_algorithms(tv) if style.base(a) not in CWND_ALGS]
    return f", and {' and '.join(style.label(a, None) for a in others)} beside them (not in the paper)" if others else ""


def overlay_names(one: pd.DataFrame) -> str:
    """'Tahoe (red) and Reno (blue) as in the paper's Figure 1, and Cubic as in its Figure 2', naming only
    the traced algorithms."""
    traced = {style.base(a) for a in set(one["algorithm"])}
    colour = {"tahoe": "red", "reno": "blue", "cubic": "green"}
    parts = []
    for algs, fig_no in ((("tahoe", "reno"), 1), (("cubic",), 2)):
        drawn = [a for a in algs if a in traced]
        if drawn:
            parts.append(" and ".join(f"{style.LABELS[a]} ({colour[a]})" for a in drawn)
                         + f" as in the paper's Figure {fig_no}")
    return ", and ".join(parts) if parts else "no traced algorithm of the paper's Figures 1 and 2"


def overlay_n(traces: pd.DataFrame | None):
    """N of the overlay: the paper's 300 if traced, else the largest traced N (0 without traces)."""
    if traces is None:
        return 0
    return OVERLAY_N if OVERLAY_N in set(traces["N"]) else traces["N"].max()


def show_cwnd(ch, traces: pd.DataFrame | None, variant: str) -> None:
    """The grid of Figures 6-8 and the overlay of Figures 1-2 of one variant, with captions."""
    if traces is None or traces.empty:
        ch.markdown("*No cwnd traces in this profile; figure skipped.*")
        return
    tv = traces[traces["variant"] == variant]
    Ns, seed0 = sorted(tv["N"].unique()), tv["seed"].min()
    ch.figure(cwnd_grid(tv, variant), f"cwnd_{variant}")
    ch.save_download(tv, f"cwnd_{variant}.csv")
    ch.caption(
        f"Figure: congestion window over time, variant `{variant}`, "
        + (f"for the short (N={Ns[0]}) and longer (N={Ns[-1]}) flows" if len(Ns) > 1 else f"for N={Ns[0]}")
        + f" of the paper's Figures 6-8 ({cwnd_names(tv)})" + beside_names(tv)
        + f". The bold line is seed {seed0}; "
        f"faint lines are the other seeds. Made from {_studies(tv)}. "
        + ch.download_link(f"cwnd_{variant}.csv", "Data as CSV") + ".")
    n = overlay_n(traces)
    one = traces[(traces["variant"] == variant) & (traces["N"] == n) & (traces["seed"] == traces["seed"].min())]
    ch.figure(cwnd_overlay(one, n), f"cwnd_fig1_2_{variant}")
    ch.save_download(one, f"cwnd_fig1_2_{variant}.csv")
    ch.caption(
        f"Figure: {overlay_names(one)}; "
        f"variant `{variant}`, N={n}, one seed (no confidence band: a single trajectory). Made from "
        + _studies(one) + ". " + ch.download_link(f"cwnd_fig1_2_{variant}.csv", "Data as CSV") + ".")


# --------------------------------------------------------------------------- M/M/1/K closed forms

CLOSED_FORM_COLUMNS = {"loss_rate": "loss 100·<i>P<sub>K</sub></i> (%)", "avg_delay": "delay <i>W</i> (s)",
                       "throughput": "throughput <i>λ</i><sub>eff</sub> (packets/s)"}   # HTML headers
INDEX_NAMES = {"variant": "model variant", "lambda": "λ (packets/s)", "K": "K (packets)"}


def closed_form_table(cmp: pd.DataFrame) -> pd.DataFrame:
    """A row per variant, lambda and K; per metric 'closed form | ours [95% CI] ✓/✗'."""
    show = cmp.assign(cell=[
        f"{cf:.4g} | {number_format.mean_ci(m, lo, hi, lower=None, fmt=lambda v: f'{v:.4g}')} {'✓' if ok else '✗'}"
        for cf, m, lo, hi, ok in zip(cmp.closed_form, cmp.ours_mean, cmp.ci_low, cmp.ci_high, cmp.agree)])
    wide = show.pivot_table(index=["variant", "lambda", "K"], columns="metric", values="cell", aggfunc="first")
    wide = wide[[m for m in CLOSED_FORM_COLUMNS if m in wide.columns]]
    wide.columns = [CLOSED_FORM_COLUMNS[c] + ": closed form | ours [95% CI]" for c in wide.columns]
    return wide


def closed_form_figure(cmp: pd.DataFrame):
    """Blocking probability and mean sojourn against K: closed-form lines per lambda, our means with
    95% CI error bars per variant (circles as_published, squares standard)."""
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 2, figsize=(10, 3.4))
    Ks = np.arange(1, 21)
    mu = float(cmp["mu"].iloc[0])
    for lam, shade in zip(sorted(cmp["lambda"].unique()), ("#bbbbbb", "#777777", "#222222")):
        for ax, metric, f in ((axes[0], "loss_rate", lambda k: 100 * mm1k.blocking_prob(lam, mu, k)),
                              (axes[1], "avg_delay", lambda k: mm1k.mean_sojourn(lam, mu, k))):
            ax.plot(Ks, [f(k) for k in Ks], color=shade, lw=1.2, label=f"closed form λ={lam:g}")
            for variant, marker in zip(style.VARIANTS, ("o", "s")):
                d = cmp[(cmp["lambda"] == lam) & (cmp["metric"] == metric) & (cmp["variant"] == variant)]
                ax.errorbar(d["K"] + (0.15 if variant == "standard" else -0.15), d["ours_mean"],
                            yerr=[d["ours_mean"] - d["ci_low"], d["ci_high"] - d["ours_mean"]],
                            ls="none", marker=marker, ms=4, color=style.PALETTE["none"], mec=shade, capsize=2,
                            label=f"ours, {variant}" if lam == cmp["lambda"].min() else None)
                if len(d):
                    figure_series.record(ax, f"ours, {variant}, λ={lam:g}", d, d["K"], d["ours_mean"], d["ci_low"],
                                         d["ci_high"], along="K", panel=metric)
    axes[0].set_ylabel("blocking probability 100·$P_K$ (%)")
    axes[1].set_ylabel("mean sojourn W (s)")
    for ax in axes:
        ax.set_xlabel(style.PARAM_LABELS["K"])
    axes[0].legend()
    fig.tight_layout()
    return fig


def show_closed_forms(ch, tables: pd.DataFrame) -> None:
    """The closed-form comparison as a table (with download) and a figure."""
    cmp = sc.analytic_comparison(tables)
    if cmp.empty:
        ch.markdown(f"*Study `{sc.ANALYTIC_STUDY}` is not enabled in this profile; comparison skipped.*")
        return
    ch.save_download(cmp, "mm1k_closed_forms.csv")
    view = closed_form_table(cmp).reset_index()
    view["lambda"] = view["lambda"].map(lambda x: f"{x:g}")
    view = view.rename(columns=INDEX_NAMES)
    chapter.html(chapter.long_frame_html(view, index=False, escape=False))
    ch.markdown(f"{int(cmp.agree.sum())} of {len(cmp)} cells agree with the closed form. "
                f"{ch.download_link('mm1k_closed_forms.csv')}.")
    ch.figure(closed_form_figure(cmp), "mm1k_closed_forms")
    ch.caption(
        f"Figure: the `none` sender on an M/M/1/K link with no deadline (μ={float(cmp['mu'].iloc[0]):g}) against "
        f"the closed forms (lines), our mean with 95% CI as error bars (circles `as_published`, squares `standard`; "
        f"the `standard` delays also include the one-way propagation delay, which the table adds to the closed "
        f"form). Claim mm1-9; made from `{study_file(sc.ANALYTIC_STUDY)}`. "
        + ch.download_link("mm1k_closed_forms.csv", "Data as CSV") + ".")


# --------------------------------------------------------------------------- replay audit

def _match(printed: str, paper: str, ours: float, decimals: int) -> str:
    """'exact' to the printed digit, 'last digit' when one unit off (the paper may have rounded twice,
    to 4 places and then by hand), else 'differs'."""
    off_by = abs(round(ours * 10**decimals) - round(float(paper) * 10**decimals))
    return "exact" if printed == paper else ("last digit" if off_by == 1 else "differs")


def replay_audit(tables: pd.DataFrame, reference: pd.DataFrame) -> pd.DataFrame:
    """Per published number: the paper's printed text and the replay's mean printed to as many
    decimals, and whether they match; `algorithm` is the published code that replayed the paper's
    row (published_tahoe for Tahoe). Empty when no replay study ran."""
    replay = tables[tables["study"].str.startswith("mm1_replay_")]
    if replay.empty:
        return pd.DataFrame()
    rows = []
    for _, r in reference.iterrows():
        paper = r["value_text"]
        hit = replay[(replay["study"] == f"mm1_replay_{r['sweep']}")
                     & (replay["algorithm"] == run_name("as_published", r["algorithm"]))   # replays run the published code
                     & (replay["metric"] == r["metric"]) & (replay[r["sweep"]].astype(float) == float(r["x"]))]
        decimals = len(paper.split(".")[1]) if "." in paper else 0
        ours = float(hit["mean"].iloc[0]) if len(hit) else float("nan")
        printed = f"{ours:.{decimals}f}"
        rows.append({"table": r["table"], "metric": r["metric"], "sweep": f"{r['sweep']}={r['x']}",
                     "algorithm": run_name("as_published", r["algorithm"]), "paper": paper, "replay": printed,
                     "match": _match(printed, paper, ours, decimals)})
    return pd.DataFrame(rows)


MATCHES = ("exact", "last digit", "differs")


def paper_row(algorithm: str) -> str:
    """The paper's row name of a run's algorithm: published_reno -> Reno."""
    return style.LABELS[style.base(algorithm)]


def replay_counts(audit: pd.DataFrame) -> pd.DataFrame:
    """A row per algorithm (in the paper's order): integer counts of cells exact / last digit / differs."""
    counts = (audit.groupby("algorithm", sort=False)["match"].value_counts().unstack(fill_value=0)
              .reindex(columns=list(MATCHES), fill_value=0).astype(int).rename_axis(columns=None))
    counts["total"] = counts.sum(axis=1)
    return counts.rename_axis("algorithm").reset_index()


def replay_summary(audit: pd.DataFrame, bold: bool = False) -> str:
    """'106 of the 108 published cells exactly as the paper does and 2 more within one unit of the last
    printed digit (Table V lambda=10 Tahoe: 9.588 against the printed 9.589; ...)', counted from the replay
    audit: the one statement of what the paper's code reproduces, on the M/M/1 chapter and on the page
    on the papers' published code (book.write_published_code)."""
    exact, digit = int((audit["match"] == "exact").sum()), int((audit["match"] == "last digit").sum())
    head = f"{exact} of the {len(audit)} published cells exactly as the paper does"
    near = audit[audit["match"] == "last digit"]
    which = "; ".join(f"Table {r.table} {greek(r.sweep)} {paper_row(r.algorithm)}: {r.replay} against the printed "
                      f"{r.paper}" for r in near.itertuples())
    return (f"**{head}**" if bold else head) + (
        f" and {digit} more within one unit of the last printed digit ({which})" if digit else "")


def replay_statement(audit: pd.DataFrame) -> str:
    """What the as_published model replays, in plain words, counted from the replay studies."""
    if audit.empty:
        return ("**What the `as_published` model replays.** The replay studies (`config/studies/mm1/mm1_replay_*.yaml`) "
                "are not enabled in this build, so the published cells the model reproduces exactly from the paper's "
                "own random stream are not counted here.")
    counts = replay_counts(audit).set_index("algorithm")
    whole = [paper_row(a) for a, c in counts.iterrows() if c["differs"] == 0]
    differ = [f"all {int(c['total'])} {paper_row(a)} cells differ" if c["differs"] == c["total"] else
              f"{int(c['differs'])} of the {int(c['total'])} {paper_row(a)} cells differ"
              for a, c in counts.iterrows() if c["differs"]]
    parts = [f"the model prints {replay_summary(audit, bold=True)}"]
    if whole:
        parts.append(f"no cell of {' or '.join([', '.join(whole[:-1]), whole[-1]] if len(whole) > 1 else whole)} differs")
    parts += differ
    text = ("**What the `as_published` model replays.** Fed the paper's own random stream (one run per cell, studies "
            "`config/studies/mm1/mm1_replay_*.yaml`), " + "; ".join(parts) + ".")
    if counts["differs"].sum():
        text += (" The cells that differ are listed below with the printed and the replayed value; we have not "
                 "found which detail of the paper's code or run they depend on.")
    return text + (" The rest of this chapter compares the published numbers with our runs over many seeds, "
                   "where each run draws its own random numbers.")


def show_replay_statement(ch, tables: pd.DataFrame, reference: pd.DataFrame) -> None:
    ch.markdown(replay_statement(replay_audit(tables, reference)))


def show_replay_audit(ch, tables: pd.DataFrame, reference: pd.DataFrame) -> None:
    """Matches per algorithm, the sentence with the counts and the numbers that differ."""
    audit = replay_audit(tables, reference)
    if audit.empty:
        ch.markdown("*The replay studies are not enabled in this build; audit skipped.*")
        return
    ch.save_download(audit, "replay_audit.csv")
    ch.table(replay_counts(audit).assign(algorithm=lambda d: d["algorithm"].map(paper_row)), "replay_counts.csv",
             "Published cells per algorithm: replayed to the printed digit (exact), one unit off in the last digit, "
             f"or different. {ch.download_link('replay_audit.csv', 'Every cell, paper beside replay, as CSV')}; "
             "these counts: {link}.")
    bad = audit[audit.match == "differs"]
    if len(bad):
        ch.table(bad.assign(sweep=bad["sweep"].map(greek), algorithm=bad["algorithm"].map(paper_row)), "replay_differs.csv",
                 f"The {len(bad)} cells that differ, the paper's printed number beside the replay's.")


# the chapter's secondary sections, folded so that the page stays short
FOLDED_CWND = {"as_published": "Congestion window over time, our model of the paper's published code",
               "standard": "Congestion window over time, the textbook algorithms"}


def show_cwnd_folded(ch, traces, variant: str) -> None:
    """show_cwnd of one model variant inside a folded section."""
    with chapter.folded(FOLDED_CWND[variant]):
        show_cwnd(ch, traces, variant)


def show_replay_audit_folded(ch, tables, reference) -> None:
    """show_replay_audit inside a folded section."""
    with chapter.folded("The replay audit: every cell of the paper's tables against its replayed stream"):
        show_replay_audit(ch, tables, reference)


def replay_block(tables, claims_file) -> str:
    """What the M/M/1 paper's code reproduces, counted from the replay studies' tables by the M/M/1 chapter's
    own function (replay_summary), so the two pages state one count."""
    from simulator.report.papers.mm1.reference_data import MM1_TABLES

    replays = [pd.read_csv(t) for t in tables if Path(t).name.startswith("mm1_replay_")]
    ref = Path(claims_file).parent / MM1_TABLES if claims_file else None
    if not replays or ref is None or not ref.exists():
        return ("The replay studies (`config/studies/mm1/mm1_replay_*.yaml`) are not enabled in this build, so the "
                "published cells our model of this script reproduces are not counted here.")
    audit = replay_audit(pd.concat(replays, ignore_index=True), sc.load_reference(ref))
    close = audit.groupby("sweep")["match"].apply(lambda m: bool((m != "differs").all()))
    return ("Our model of this script (the `as_published` variant), fed the script's own random stream (numpy "
            "`RandomState(42)`, fresh for each cell, one run per cell: studies `config/studies/mm1/mm1_replay_*.yaml`), "
            f"prints {replay_summary(audit)}; {int(close.sum())} of the {len(close)} columns of "
            "the paper's tables (each a value of lambda, K or N) have no cell that differs by more. The M/M/1 "
            "chapter lists each cell.")
