"""Tables and figures of the M/M/1 chapter (notebooks/mm1.ipynb), part one: Tables V-XIII rebuilt from
our runs, and the sweeps on a fine grid. Whether a published number lies inside our per-run range is
the scorecard's verdict (scorecard_mm1.number_rows); this module only lays it out.
Congestion windows, closed forms and the replay audit are in figures_mm1_checks."""
from __future__ import annotations

import re

import pandas as pd

from simulator import study_files
from simulator.report import chapter, figure_series, paper_marks as pm
from simulator.report import style
from simulator.report.papers.mm1 import scorecard as sc
from simulator.report import number_format
from simulator.report.html_view import fmt

TITLES = {"throughput": "Throughput (packets/s)", "avg_delay": "Average delay (s)", "loss_rate": "Loss rate (%)"}
PAPER_TABLES = {"lambda": "V-VII", "K": "VIII-X", "N": "XI-XIII"}  # the tables each sweep extends
GREEK = {"lambda": "λ", "mu": "μ", "theta": "θ"}
STATS = {"mean": "ours_mean", "ci_low": "ci_low", "ci_high": "ci_high", "run_p025": "run_p025",
         "run_p975": "run_p975", "n": "n_seeds"}  # download column -> scorecard column
INSIDE = {"inside": True, "outside": False}  # scorecard verdict -> inside_run_range (None: not run)


def greek(text: str) -> str:
    """Parameter names as the paper writes them: 'mu=10, theta=1' -> 'μ=10, θ=1'."""
    return re.sub(r"\b(lambda|mu|theta)\b", lambda m: GREEK[m.group(1)], text)


def study_file(study) -> str:
    return study_files.repo_path(study)


# --------------------------------------------------------------------------- Tables V-XIII

def published_tables(tables: pd.DataFrame, reference: pd.DataFrame) -> dict[str, pd.DataFrame]:
    """{paper table: one row per published number and variant}: the paper's number, our statistics
    and whether it lies inside our per-run range, as the scorecard decides it. A number no study
    produced has no statistics (the columns are absent from its row, as in the download). `algorithm`
    is the paper's row (tahoe); in variant as_published it ran as the published code (published_tahoe)."""
    decided = {v: sc.number_rows(tables, reference, v) for v in style.VARIANTS}
    out = {}
    for tab, ref in reference.groupby("table", sort=False):
        sweep = ref["sweep"].iloc[0]
        rows = []
        for i, r in zip(ref.index, ref.itertuples(index=False)):
            for variant in style.VARIANTS:
                d = decided[variant][i]
                stats = {k: d[c] for k, c in STATS.items()} if d["verdict"] != "missing" else {}
                rows.append({"table": tab, "metric": r.metric, sweep: r.x, "algorithm": r.algorithm,
                             "variant": variant, "paper_value": r.value, **stats,
                             "inside_run_range": INSIDE.get(d["verdict"])})
        out[tab] = pd.DataFrame(rows)
    return out


def _ci_words(row) -> str:
    """'CI low–high', or 'deterministic' when every seed gave the same value."""
    interval = number_format.ci(row["mean"], row["ci_low"], row["ci_high"], lower=None, fmt=fmt)
    return interval if interval in ("", number_format.DETERMINISTIC) else f"CI {fmt(row['ci_low'])}–{fmt(row['ci_high'])}"


def _ours_cell(row) -> str:
    """Our mean with the verdict mark, then the 95% CI and per-run range."""
    if pd.isna(row.get("mean", float("nan"))):
        return "<i>not run</i>"
    mark = "✓" if row["inside_run_range"] else "✗"
    colour = "#1a7f37" if row["inside_run_range"] else "#cf222e"
    return (f"<b>{fmt(row['mean'])}</b> <span style='color:{colour}'>{mark}</span><br>"
            f"<small>{_ci_words(row)}<br>"
            f"runs {fmt(row['run_p025'])}–{fmt(row['run_p975'])}</small>")


def table_html(long: pd.DataFrame, reference: pd.DataFrame, link: str) -> str:
    """One paper table: a row per algorithm and variant; per sweep value the paper's number (spanning
    both variant rows) and ours. `long` is one frame of published_tables; `link` goes in the title."""
    tab, metric = long["table"].iloc[0], long["metric"].iloc[0]
    ref = reference[reference["table"] == tab]
    sweep = ref["sweep"].iloc[0]
    xs = list(dict.fromkeys(ref["x"]))
    nv = len(style.VARIANTS)
    head1 = "".join(f"<th colspan='2' style='text-align:center'>{greek(sweep)} = {x:g}</th>" for x in xs)
    head2 = "".join("<th>paper</th><th>ours</th>" for _ in xs)
    body = ""
    for a in style.order(ref["algorithm"].unique()):
        for k, v in enumerate(style.VARIANTS):
            cells = ""
            for x in xs:
                sub = long[(long[sweep] == x) & (long["algorithm"] == a)].set_index("variant")
                if k == 0:
                    cells += f"<td rowspan='{nv}'>{fmt(sub['paper_value'].iloc[0])}</td>"
                cells += f"<td>{_ours_cell(sub.loc[v])}</td>"
            name = f"<th rowspan='{nv}' style='color:{style.PALETTE[a]}'>{style.LABELS[a]}</th>" if k == 0 else ""
            body += f"<tr>{name}<td><small>{v}</small></td>{cells}</tr>"
    fixed = greek(ref["fixed"].iloc[0].replace(";", ", "))
    return (f"<p><b>Table {tab}: {TITLES[metric]} vs {greek(sweep)}</b> ({fixed}). Rebuilt from "
            f"<code>{study_file(sc.SWEEP_STUDY[sweep])}</code>; {link}.</p>"
            f"<table class='repro'><thead><tr><th rowspan='2'>algorithm</th><th rowspan='2'>variant</th>{head1}</tr>"
            f"<tr>{head2}</tr></thead><tbody>{body}</tbody></table>")


def show_published_tables(ch, tables: pd.DataFrame, reference: pd.DataFrame) -> None:
    """Each paper table with its download, then all nine as one download and the count inside."""
    longs = published_tables(tables, reference)
    for tab, long in longs.items():
        ch.save_download(long, f"table_{tab}.csv")
        chapter.html(table_html(long, reference, ch.download_link(f"table_{tab}.csv", "download CSV")))
    summary = pd.concat(longs.values(), ignore_index=True)
    ch.save_download(summary, "tables_V-XIII.csv")
    ch.markdown("Published numbers inside our per-run range: " + inside_counts(summary)
                + f" ({ch.download_link('tables_V-XIII.csv', 'all nine tables as one CSV')}).")


def inside_counts(summary: pd.DataFrame) -> str:
    """'**as_published** 3 of 108; **standard** 7 of 108', the numbers not run counted apart: '3 of 9 run (99 not run)'."""
    def count(s):
        ran = int(s.notna().sum())
        return f"{int((s == True).sum())} of {ran}" + (f" run ({len(s) - ran} not run)" if ran < len(s) else "")  # noqa: E712
    counts = summary.groupby("variant")["inside_run_range"].agg(count)
    return "; ".join(f"**{v}** {counts[v]}" for v in counts.index)


# --------------------------------------------------------------------------- sweeps on a fine grid

def fixed_params(df: pd.DataFrame, sweep: str) -> str:
    """'mu=10, K=5, ...': the parameters that take one value in `df` besides the swept one."""
    parts = []
    for c in (c for c in sc.PARAM_COLUMNS if c != sweep and c in df):
        vals = df[c].dropna().unique()
        if len(vals) == 1:
            parts.append(f"{c}={vals[0]:g}")
    return ", ".join(parts)


def curve_figure(df: pd.DataFrame, reference: pd.DataFrame, sweep: str):
    """A row per variant, a column per metric: our mean over the sweep with its 95% CI band, each
    algorithm once per panel, and the paper's numbers as the book draws every paper value (paper_marks: grey
    hollow markers, one shape per algorithm). `df`: one curve study's rows."""
    import matplotlib.pyplot as plt

    metrics = [m for m in style.METRICS if m in set(df["metric"])]
    nv = len(style.VARIANTS)
    fig, axes = plt.subplots(nv, len(metrics), figsize=(4.2 * len(metrics), 3.3 * nv), squeeze=False, sharex=True)
    for i, variant in enumerate(style.VARIANTS):
        for j, metric in enumerate(metrics):
            ax = axes[i, j]
            d = df[(df["variant"] == variant) & (df["metric"] == metric)]
            for a in style.order(d["algorithm"].unique()):
                g = d[d["algorithm"] == a].sort_values(sweep)
                ax.plot(g[sweep], g["mean"], color=style.PALETTE[a], label=style.LABELS[a], lw=1.6)
                low = g["ci_low"].clip(lower=0)      # throughput, delay and loss cannot be negative (few seeds)
                ax.fill_between(g[sweep], low, g["ci_high"], color=style.PALETTE[a], alpha=0.2, lw=0)
                figure_series.record(ax, style.LABELS[a], g, g[sweep], g["mean"], low, g["ci_high"],
                                     along=sweep, panel=f"{variant} | {metric}")
                p = reference[(reference["sweep"] == sweep) & (reference["metric"] == metric)
                              & (reference["algorithm"] == style.base(a))]   # the paper's row of published_x: x
                if len(p):
                    pm.points(ax, p["x"], p["value"], style.LABELS[style.base(a)], pm.marker(style.base(a)))
            ax.set_xlabel(style.PARAM_LABELS[sweep])
            ax.set_ylabel(style.METRICS[metric])
            ax.set_title(f"{style.VARIANT_TITLES[variant]}", fontsize=10)   # 10 px at least where the book shrinks the figure to its column
    # one entry per colour: the as_published row draws our model of the paper's code of each algorithm in its colour
    handles = [plt.Line2D([], [], color=style.PALETTE[a], lw=1.6, label=style.LABELS[a])
               for a in style.order({style.base(a) for a in df["algorithm"].unique()})]
    published = style.order({style.base(a) for a in df["algorithm"].unique()} & set(reference["algorithm"]))
    handles += [plt.Line2D([], [], ls="none", marker=pm.marker(a), ms=7, mfc="none", mec=pm.GREY, mew=1.4,
                           label=pm.label(style.LABELS[a])) for a in published]
    fig.legend(handles=handles, loc="upper center", ncol=len(handles), bbox_to_anchor=(0.5, 1.02))
    fig.tight_layout(rect=(0, 0, 1, 0.96))
    return fig


def names(algorithms) -> str:
    """'Tahoe, Reno and Cubic': the paper's names of `algorithms` (run names allowed), in the book's order."""
    labels = [style.LABELS[a] for a in style.order({style.base(a) for a in algorithms})]
    return " and ".join([", ".join(labels[:-1]), labels[-1]] if len(labels) > 1 else labels)


def by_base(algorithms) -> list:
    """Run names in the book's order of the algorithms they are the paper's code of."""
    algorithms = list(algorithms)
    return sorted(algorithms, key=lambda a: style.order([style.base(x) for x in algorithms]).index(style.base(a)))


def drawn_algorithms(df: pd.DataFrame) -> str:
    """What a curve figure draws, per variant: 'variant `standard`: none and Reno; variant `as_published`
    (our model of the paper's code of each algorithm, in the algorithm's colour): none and Reno
    (`published_reno`)'."""
    parts = []
    for v in (v for v in style.VARIANTS if v in set(df["variant"])):
        algs = set(df.loc[df["variant"] == v, "algorithm"])
        run = by_base(a for a in algs if a != style.base(a))
        parts.append(f"variant `{v}`" + (" (our model of the paper's code of each algorithm, in the algorithm's "
                                         "colour)" if v == "as_published" else "") + f": {names(algs)}"
                     + (f" ({', '.join(f'`{a}`' for a in run)})" if run else ""))
    return "; ".join(parts)


def show_curve(ch, tables: pd.DataFrame, reference: pd.DataFrame, study: str, sweep: str, table_study: str) -> None:
    """The fine-grid figure of one sweep (`study`) with its caption; a note if the profile skipped it."""
    df = tables[tables["study"] == study]
    if df.empty:
        ch.markdown(f"*Study `{study}` is not enabled in this profile; figure skipped.*")
        return
    ch.figure(curve_figure(df, reference, sweep), f"curve_{sweep}")
    ch.save_download(df, f"curve_{sweep}.csv")
    ch.caption(
        f"Figure: throughput, delay and loss vs {greek(sweep)} ({greek(fixed_params(df, sweep))}), mean over seeds "
        f"with the 95% confidence band, for {drawn_algorithms(df)}. Extends Tables {PAPER_TABLES[sweep]} of the paper to a fine "
        f"grid; grey hollow markers are the paper's published numbers, one shape per algorithm. Made from `{study_file(study)}` "
        f"(the table points themselves come from `{study_file(table_study)}`). "
        + ch.download_link(f"curve_{sweep}.csv", "Data as CSV") + ".")
