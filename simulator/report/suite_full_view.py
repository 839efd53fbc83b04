"""The suite chapter's section "At the draft's scale" (notebooks/suite.ipynb): the committed records of
`snakemake --cores all suite_full` (reference/suite_full/records.jsonl, simulator/suite_full.py) summarised over
seeds with the same statistics as every table (simulator/report/aggregate.py summarize) and ranked with the
suite's rule (simulator/report/suite_rank.py: Welch t-tests, Holm-adjusted; ties where no test separates):
the best algorithms per scenario, load and metric first, then completion-time figures and a table per scenario."""
from __future__ import annotations

from pathlib import Path

import pandas as pd

from simulator.report import number_format, style
from simulator.report.aggregate import summarize
from simulator.report.suite_rank import rank

RUN_COMMAND = "snakemake --cores all suite_full"
SCENARIOS = {"full_datacenter": "Data centre", "full_access": "Access link", "full_transoceanic": "Trans-oceanic link",
             "full_satellite": "Geostationary satellite", "full_wireless": "Wireless access", "full_dialup": "Dial-up link"}
# metric -> (better, label with unit, (lower, upper) bounds of any value: the CI stays inside)
METRICS = {
    "utilization": ("higher", "utilization of the central link", (0.0, 1.0)),
    "queue_delay_mean_ms": ("lower", "mean queueing delay (ms)", None),
    "drop_pct": ("lower", "drops at the central link (%)", (0.0, 100.0)),
    "fct_small_p99_ms": ("lower", "99th-percentile completion time, flows up to 100 kB (ms)", None),
    "fct_medium_p50_ms": ("lower", "median completion time, flows of 100 kB-10 MB (ms)", None),
    "slowdown_p50": ("lower", "median slowdown (completion time / ideal)", None),
    "flows_unfinished": ("lower", "flows still running at the end", None),
}


def load(records_file) -> pd.DataFrame:
    """One row per record (study, algorithm, load, seed) and metric; seals verified (simulator/run_records.py)."""
    from simulator.run_records import read
    rows = [{"study": r["study"], "algorithm": r["params"]["algorithm"], "load": float(r["params"]["load"]),
             "duration": float(r["params"]["duration"]), "warmup": float(r["params"]["warmup"]),
             "seed": r["seed"], "metric": m, "value": r["metrics"][m]}
            for r in read(records_file) for m in METRICS]
    return pd.DataFrame(rows)


def stats(long: pd.DataFrame) -> pd.DataFrame:
    """Per study, load, metric and algorithm: mean, sd, n and the 95% CI over seeds (inside the metric's bounds;
    counts and times never below 0), and the rank among the algorithms (1: best; ties not separated)."""
    out = []
    for (study, load, metric), d in long.groupby(["study", "load", "metric"], sort=False):
        better, _, bounds = METRICS[metric]
        rows = pd.DataFrame([{"algorithm": a, **summarize(g["value"].tolist(), bounds)}
                             for a, g in d.groupby("algorithm", sort=False)])
        rows = rank(rows[rows["n"] > 1].reset_index(drop=True), better) if (rows["n"] > 1).sum() > 1 else rows
        out.append(rows.assign(study=study, load=load, metric=metric))
    s = pd.concat(out, ignore_index=True)
    s["ci_low"] = s["ci_low"].clip(lower=0.0)        # every metric here is >= 0
    return s


def winners(s: pd.DataFrame) -> pd.DataFrame:
    """One row per scenario and load: per metric, the algorithms ranked first."""
    rows = []
    for study in [x for x in SCENARIOS if x in set(s["study"])]:
        for load, d in s[s["study"] == study].groupby("load"):
            row = {"scenario": SCENARIOS[study], "load": f"{load:.0%}"}
            for metric in METRICS:
                m = d[d["metric"] == metric]
                best = m[m.get("rank") == 1]["algorithm"]
                row[METRICS[metric][1]] = ("all tied" if len(best) == m["algorithm"].nunique() > 1 else
                                           ", ".join(style.label(a) for a in style.order(best)) or "no ranking")
            rows.append(row)
    return pd.DataFrame(rows)


def scenario_table(s: pd.DataFrame, study: str) -> pd.DataFrame:
    """Rows load x algorithm; per metric 'mean [95% CI] (#rank)'."""
    d = s[s["study"] == study].copy()
    d["cell"] = [f"{number_format.mean_ci(m, lo, hi, 3)}" + (f" (#{int(r)})" if r == r else "")
                 for m, lo, hi, r in zip(d["mean"], d["ci_low"], d["ci_high"], d["rank"])]
    wide = d.pivot_table(index=["load", "algorithm"], columns="metric", values="cell", aggfunc="first").reset_index()
    order = {a: i for i, a in enumerate(style.order(d["algorithm"].unique()))}
    wide = wide.sort_values(["load", "algorithm"], key=lambda c: c.map(order) if c.name == "algorithm" else c)
    wide["load"] = [f"{x:.0%}" for x in wide["load"]]
    wide["algorithm"] = [style.label(a) for a in wide["algorithm"]]
    wide = wide[["load", "algorithm"] + [m for m in METRICS if m in wide.columns]]
    wide.columns = ["offered load", "algorithm"] + [METRICS[m][1] for m in METRICS if m in wide.columns]
    return wide.reset_index(drop=True)


def figure(s: pd.DataFrame, study: str):
    """Two panels against the offered load, one colour per algorithm, 95% CI bars: the 99th-percentile completion
    time of flows up to 100 kB and the median slowdown (log scales: the overload's are orders larger)."""
    import matplotlib.pyplot as plt
    fig, axes = plt.subplots(1, 2, figsize=(9.5, 3.6))
    for ax, metric in zip(axes, ("fct_small_p99_ms", "slowdown_p50")):
        d = s[(s["study"] == study) & (s["metric"] == metric)]
        for a in style.order(d["algorithm"].unique()):
            g = d[d["algorithm"] == a].sort_values("load")
            ax.errorbar(g["load"] * 100, g["mean"], yerr=[g["mean"] - g["ci_low"], g["ci_high"] - g["mean"]],
                        color=style.colour(a), label=style.label(a), marker="o", capsize=3)
        ax.set_yscale("log")
        ax.set_xlabel("offered load (% of the central link)")
        ax.set_ylabel(METRICS[metric][1].replace(", flows", ",\nflows").replace(" (completion", "\n(completion"))
        ax.set_xticks([60, 85, 110])
    axes[1].legend(fontsize=8, ncol=2)
    fig.tight_layout()
    return fig


def provenance(records_file) -> str:
    """Who made the records and when, from their README (simulator/suite_full.py write_readme), in a sentence."""
    import re
    text = Path(records_file).with_name("README.md").read_text()
    version, commit = re.search(r"simulator version (\S+), commit (\w+)", text).groups()
    written = re.search(r"written ([^;]+);", text).group(1)
    digest, runs = re.search(r"sha256 (\w+) \((\d+) runs\)", text).groups()
    return (f"{runs} runs of simulator version {version} (commit {commit[:10]}), written {written}, "
            f"sha256 {digest[:16]}…, committed in reference/suite_full/ with their README")


def show(ch, records_file) -> None:
    """The whole section: the answer, then per scenario a figure and a table; or how to make the records."""
    if not records_file or not Path(records_file).exists():
        ch.markdown(f"*No records of the suite at the draft's scale in this checkout: run `{RUN_COMMAND}` (tens of "
                    "minutes on two cores) and copy results/suite_full/records.jsonl and README.md to reference/suite_full/.*")
        return
    s = stats(load(records_file))
    ch.markdown("### The answer: best algorithms per scenario and load")
    ch.table(winners(s), "suite_full_winners.csv",
             note="Rank 1 per scenario, offered load and metric over 3 seeds; several names: no test separates them; "
                  "all tied: no test separates any two algorithms. {link}")
    from simulator.report.chapter import folded
    for study, title in SCENARIOS.items():
        if study not in set(s["study"]):
            continue
        with folded(f"{title}: completion times against the load, and every metric per algorithm"):
            ch.figure(figure(s, study), f"{study}_fct")
            ch.caption(f"{title} at the draft's loads and durations (draft-irtf-iccrg-tcpeval-01 section 4.4, its "
                       f"Tables 2-7; study config/suite_full/{study}.yaml): mean over seeds with 95% CI.")
            ch.table(scenario_table(s, study), f"{study}.csv",
                     note="Mean [95% CI] over seeds (#rank among the algorithms). {link}")
    ch.markdown(f"*Records: {provenance(records_file)}. Rerun with `{RUN_COMMAND}`.*")
