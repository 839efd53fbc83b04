"""What the suite chapter (notebooks/suite.ipynb) shows: the winners per scenario first, then one
table per scenario of every algorithm's 'mean [95% CI] (rank)' per metric (suite_rank.py ranks), or,
when the suite has not run, how to run it."""
from __future__ import annotations

import pandas as pd

from simulator.report import claim_words, number_format, style
from simulator.report.suite_rank import METRICS

RUN_COMMAND = "snakemake --cores all suite"
# scenario (study) -> the heading of its section, in the chapter's order
SCENARIOS = {
    "suite_datacenter": "Data centre",
    "suite_access": "Access link",
    "suite_transoceanic": "Trans-oceanic link",
    "suite_satellite": "Geostationary satellite",
    "suite_wireless": "Wireless access",
    "suite_dialup": "Dial-up link",
    "suite_buffer": "Delay/throughput trade-off over buffer sizes",
    "suite_rampup": "Ramp-up time",
    "suite_capacity_change": "Transients after a capacity change",
    "suite_rtt_fairness": "Fairness between flows of different RTTs",
    "suite_parking_lot": "Multiple bottlenecks (parking lot)",
}


def not_run() -> str:
    """The chapter's text when no ranking exists (the suite is its own target, not the default run)."""
    return (f"*The suite has not run in this build: it is a separate target. Run `{RUN_COMMAND}` "
            "(about a minute of simulation on two cores, 63 s measured, plus the book) and this chapter fills in; `suite.algorithms` in "
            "`config/config.yaml` lists the algorithms it compares.*")


def load_rankings(files) -> pd.DataFrame:
    """Every suite ranking CSV (suite_rank.py) in one frame; empty when the suite has not run."""
    rankings = pd.concat([pd.read_csv(f, keep_default_na=False, na_values=[""], dtype={"point": str}) for f in files],
                         ignore_index=True) if files else pd.DataFrame()
    rankings["point"] = rankings["point"].fillna("") if len(rankings) else None
    return rankings


def show_winners(ch, rankings: pd.DataFrame) -> None:
    """The winners table, or how to run the suite when it has not run."""
    if rankings.empty:
        ch.markdown(not_run())
    else:
        ch.table(winners(rankings), "suite_winners.csv",
                 note="Rank 1 of each scenario and metric; 'tied' counts the algorithms no test separates from the best. {link}")


def show_scenarios(ch, rankings: pd.DataFrame) -> None:
    """One heading and table per scenario, in the chapter's order."""
    for study in scenarios(rankings):
        ch.markdown(f"### {SCENARIOS.get(study, study)}")
        ch.table(scenario_table(rankings, study), f"{study}.csv", note="{link}")


def scenarios(rankings: pd.DataFrame) -> list:
    """The studies present, in the chapter's order (a user's own suite study last)."""
    present = list(dict.fromkeys(rankings["study"])) if len(rankings) else []
    return [s for s in SCENARIOS if s in present] + [s for s in present if s not in SCENARIOS]


def _names(algs) -> str:
    return ", ".join(style.LABELS.get(a, a) for a in style.order(algs))


def winners(rankings: pd.DataFrame) -> pd.DataFrame:
    """One row per scenario point and metric: the algorithms ranked 1 (ties: all of them)."""
    rows = []
    for study in scenarios(rankings):
        d = rankings[rankings["study"] == study]
        for (point, metric), m in d.groupby(["point", "metric"], sort=False):
            best = m[m["rank"] == 1]["algorithm"]
            rows.append({"scenario": SCENARIOS.get(study, study) + (f" ({claim_words.prose(point)})" if point else ""),
                         "metric": METRICS[metric][1], "best (tied where not significantly different)": _names(best),
                         "tied": len(best)})
    return pd.DataFrame(rows)


def scenario_table(rankings: pd.DataFrame, study: str) -> pd.DataFrame:
    """Rows: algorithm (and point); one column per metric with 'mean [CI] (rank)'."""
    d = rankings[rankings["study"] == study].copy()
    d["cell"] = [f"{number_format.mean_ci(m, lo, hi, 3)} (#{int(r)})"   # every ranked metric is >= 0
                 for m, lo, hi, r in zip(d["mean"], d["ci_low"], d["ci_high"], d["rank"])]
    index = ["point", "algorithm"] if (d["point"] != "").any() else ["algorithm"]
    wide = d.pivot_table(index=index, columns="metric", values="cell", aggfunc="first")
    wide = wide[[m for m in METRICS if m in wide.columns]].rename(columns={m: METRICS[m][1] for m in METRICS})
    order = {a: i for i, a in enumerate(style.order(d["algorithm"].unique()))}
    wide = wide.reset_index()
    wide = wide.sort_values(index, key=lambda c: c.map(order) if c.name == "algorithm" else c, kind="stable")
    wide["algorithm"] = [style.LABELS.get(a, a) for a in wide["algorithm"]]
    if "point" in wide:         # 'buffer_pkts=83' in a reader's words: 'buffer 83 packets'
        wide["point"] = [claim_words.prose(p) for p in wide["point"]]
    wide.columns.name = None
    return wide.reset_index(drop=True)
