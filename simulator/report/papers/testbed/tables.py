"""Tables of the Wi-Fi testbed chapter (notebooks/testbed.ipynb, through figures_testbed): the summary of
the run matrix over seeds and the bidirectional runs (the numbers the report quotes: wifi_channel.py);
numbers as number_format writes them, units in the headers, setups and algorithms by their names in the text."""
from __future__ import annotations

import numpy as np
import pandas as pd

from simulator.report import number_format, style

STUDY = "tb_matrix"                 # the run matrix on the abstract channel: the claims' runs
NUMBERS_STUDY = "tb_wifi_matrix"    # on the 802.11 channel: the quoted numbers' runs (reference/testbed/paper_numbers.csv)
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
