"""Tables of the Wi-Fi testbed chapter (notebooks/testbed.ipynb, through figures_testbed): the summary of
the run matrix over seeds, the bidirectional runs, and the numbers the report quotes beside ours (its
ranges as ranges, from reference/testbed/paper_numbers.csv) with the scorecard's verdicts; numbers as
number_format writes them, units in the headers, setups and algorithms by their names in the text."""
from __future__ import annotations

import html

import numpy as np
import pandas as pd

from simulator.report import chapter, claims_view, number_format, paper_values, style

STUDY = "tb_matrix"
NUMBERS_STUDY = "tb_wifi_matrix"    # the runs the quoted numbers are compared with (papers/testbed/claims.py)
SETUP_NAMES = {"eth_wifi": "ETH-WiFi", "wifi_wifi": "WiFi-WiFi"}
BACKGROUND_ORDER = {"none": 0, "light": 1, "heavy": 2, "none (bidirectional)": 3}
BACKGROUND_NAMES = {"none": "baseline", "light": "light (8 flows)", "heavy": "heavy (8 flows)",
                    "none (bidirectional)": "baseline, bidirectional"}
METRICS = {
    "throughput_mean_mbps": "throughput mean (Mbit/s)", "throughput_p90_mbps": "throughput p90 (Mbit/s)",
    "throughput_p95_mbps": "throughput p95 (Mbit/s)", "ping_rtt_mean_ms": "ping RTT mean (ms)",
    "ping_rtt_p90_ms": "ping RTT p90 (ms)", "ping_rtt_p95_ms": "ping RTT p95 (ms)",
    "ping_loss_pct": "ping loss (%)", "cwnd_median_pkts": "cwnd median (packets)", "cwnd_p95_pkts": "cwnd p95 (packets)",
    "retransmit_pct": "retransmitted / sent (%)", "tcp_rtt_mean_ms": "TCP smoothed RTT mean (ms)",
    "reverse_throughput_mbps": "reverse throughput (Mbit/s)", "background_throughput_mbps": "background throughput (Mbit/s)",
}
QUOTED_WHAT = {"ping_rtt_mean_ms": "mean ping RTT (ms)", "ping_loss_pct": "ICMP ping loss (%)"}


def is_bidir(frame: pd.DataFrame) -> pd.Series:
    return frame["bidir"].astype(str).str.lower().isin(["true", "1", "1.0"])


def matrix(frame: pd.DataFrame, bidir: bool | None = None) -> pd.DataFrame:
    """The tb_matrix rows of `frame`: all, only the unidirectional (bidir False) or bidirectional ones."""
    d = frame[frame["study"] == STUDY]
    return d if bidir is None else d[is_bidir(d) == bidir]


def _summary_rows(tables: pd.DataFrame) -> pd.DataFrame:
    """tb_matrix rows of METRICS that have a mean; bidirectional runs as background 'none (bidirectional)'."""
    d = matrix(tables)
    d = d[d["metric"].isin(METRICS)].copy()
    d["background"] = np.where(is_bidir(d), "none (bidirectional)", d["background"].astype(str))
    return d[d["mean"].notna()]


def summary(tables: pd.DataFrame, algorithms) -> pd.DataFrame:
    """One row per (link setup, background, algorithm), one column per metric: 'mean [CI]'; blank where
    the metric does not apply (e.g. reverse throughput of a unidirectional run)."""
    wide = number_format.metric_columns(_summary_rows(tables), ["link_setup", "background", "algorithm"], METRICS)
    alg_order = {a: i for i, a in enumerate(algorithms)}
    wide = wide.sort_index(key=lambda ix: ix.map(BACKGROUND_ORDER) if ix.name == "background" else
                           (ix.map(alg_order) if ix.name == "algorithm" else ix))
    names = [SETUP_NAMES.get, BACKGROUND_NAMES.get, lambda a: style.label(a, None)]
    wide.index = pd.MultiIndex.from_arrays([wide.index.get_level_values(i).map(f) for i, f in enumerate(names)],
                                           names=["link setup", "background", "algorithm"])
    return wide.fillna("").rename_axis(columns=None)


def summary_seeds(tables: pd.DataFrame) -> int:
    return int(_summary_rows(tables)["n"].max())


def bidirectional_table(points) -> pd.DataFrame:
    """The bars of the bidirectional figure (figures_testbed.bidir_points) as 'mean [CI]': rows link setup x
    algorithm, columns the flows, throughput in Mbit/s."""
    rows = [{"link setup": SETUP_NAMES[setup], "algorithm": style.label(alg, None), "flow": kind,
             "cell": number_format.mean_ci(r["mean"].iloc[0], r["ci_low"].iloc[0], r["ci_high"].iloc[0])}
            for setup, _, kind, _, _, alg, r in points]
    wide = pd.DataFrame(rows).pivot_table(index=["link setup", "algorithm"], columns="flow", values="cell",
                                          aggfunc="first")
    wide = wide[list(dict.fromkeys(r["flow"] for r in rows))]          # in the figure's order
    return wide.rename(columns=lambda k: f"{k} (Mbit/s)").rename_axis(columns=None)


def quoted_numbers(scorecard, notes, claims_file, numbers: pd.DataFrame) -> pd.DataFrame:
    """The numbers the report quotes (the scorecard's testbed rows that are not claims: 'RTT wifi_wifi bbr
    (tb-3)') with the report's value or range as stated, ours and the scorecard's verdict and note."""
    card = pd.read_csv(scorecard) if not isinstance(scorecard, pd.DataFrame) else scorecard
    note = pd.read_csv(notes) if not isinstance(notes, pd.DataFrame) else notes
    claims = claims_view.claim_texts(claims_file, "testbed")
    rows = card[(card["paper"] == "testbed") & ~card["item"].isin(claims)].drop(columns=["note"], errors="ignore")
    rows = rows.merge(note, on=["item", "variant", "verdict"], how="left")
    out = []
    for _, r in rows.iterrows():
        _, setup, alg, claim = r["item"].split()
        stated = paper_values.select(numbers, NUMBERS_STUDY, r["metric"], alg, link_setup=setup)
        out.append({
            "number": f"{QUOTED_WHAT.get(r['metric'], r['metric'])}, {SETUP_NAMES.get(setup, setup)}, "
                      f"{style.label(alg, None)} {claim}",
            "the report says": paper_values.value(stated.iloc[0]) if len(stated) else "–",
            "ours, baseline: mean [95% CI]": number_format.mean_ci(r["ours_mean"], r["ci_low"], r["ci_high"]),
            "ours: per-run range (2.5-97.5th percentile)": (
                "–" if pd.isna(r["run_p025"]) else
                f"{number_format.num(r['run_p025'])}–{number_format.num(r['run_p975'])}"),
            "seeds": int(r["n_seeds"]), "verdict": r["verdict"], "note": r.get("note", "")})
    return pd.DataFrame(out)


def quoted_section(ch, scorecard, notes, claims_file, numbers, source: str) -> None:
    """The quoted numbers as a table (the scorecard's note folded under a click), written as a download."""
    frame = quoted_numbers(scorecard, notes, claims_file, numbers)
    ch.save_download(frame, "testbed_quoted_numbers.csv")
    shown = frame.assign(note=[f"<details><summary>note</summary>{html.escape(str(n))}</details>"
                               for n in frame["note"]])
    chapter.html(chapter.long_frame_html(shown, index=False, escape=False))
    ch.markdown(f"The report's words are in reference/testbed/paper_numbers.csv; *verdict* is the scorecard's: "
                f"whether the report's value or range overlaps our per-run range (a range is tested as a range). "
                f"{ch.download_link('testbed_quoted_numbers.csv')}. {source}")
