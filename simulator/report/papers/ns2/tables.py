"""Tables of the NS-2 chapter (notebooks/ns2.ipynb, through figures_ns2): the summary of a study over its
seeds, where packets are dropped, and the verdict counts of the claims; numbers as number_format writes
them, units in the headers, algorithms and settings by their names in the text."""
from __future__ import annotations

import pandas as pd

from simulator import study_files
from simulator.report import number_format, style
from simulator.report.papers.ns2 import claims as claims_ns2
from simulator import peers

NS2 = peers.label("ns2")

SUMMARY_METRICS = {"cwnd_mean": "cwnd (packets)", "cwnd_cv": "cwnd CV", "throughput_mbps": "throughput, all flows (Mbit/s)",
                   "throughput_per_flow_mbps": "throughput per flow (Mbit/s)", "latency_mean_s": "mean latency (s)",
                   "latency_max_s": "max latency (s)", "loss_pct": "loss (%)", "timeouts": "timeouts (per run)"}
# index level -> header with unit
INDEX_NAMES = {"window": "window_ (packets)", "topology": "topology", "flows": "flows", "algorithm": "algorithm",
               "bandwidth_mbps": "bandwidth (Mbit/s)", "delay_ms": "delay per link (ms)", "queue": "queue"}
WINDOW_NAMES = {20: "20 (NS-2 default)", 0: "0 (no cap)"}
SCENARIOS = {"ns2_topology": "1: topology", "ns2_flows": "2: flows", "ns2_bandwidth": "3: bandwidth",
             "ns2_delay": "4: delay", "ns2_queue": "5: queue"}
VERDICTS = ["reproduced", "contradicted", "inconclusive", "not_testable"]


def flow_counts(tables: pd.DataFrame, study: str) -> list[int]:
    """The flow counts `study` ran besides its swept parameter (empty for ns2_flows, whose parameter
    is the count, and for tables without a flows column)."""
    if claims_ns2.SWEEPS[study] == "flows" or "flows" not in tables:
        return []
    return sorted({int(x) for x in tables.loc[tables["study"] == study, "flows"].dropna()})


def _summary_rows(tables: pd.DataFrame, study: str) -> pd.DataFrame:
    return tables[(tables["study"] == study) & tables["metric"].isin(SUMMARY_METRICS)]


def _name_values(wide: pd.DataFrame) -> pd.DataFrame:
    """Index values as the text names them: window 20 (NS-2 default), Reno, DropTail, whole numbers."""
    names = {"window": WINDOW_NAMES.get, "algorithm": lambda a: style.label(a, None),
             "queue": lambda q: {"droptail": "DropTail", "fq": "FQ"}.get(q, q)}
    levels = [wide.index.get_level_values(n).map(names.get(n, number_format.num)) for n in wide.index.names]
    wide.index = pd.MultiIndex.from_arrays(levels, names=[INDEX_NAMES.get(n, n) for n in wide.index.names])
    return wide.rename_axis(columns=None)


def summary_table(tables: pd.DataFrame, study: str) -> pd.DataFrame:
    """One row per (window, swept value, flow count where the study sweeps it too, algorithm), one
    column per metric: 'mean [CI]'; window 20 first."""
    flows = ["flows"] if len(flow_counts(tables, study)) > 1 else []
    index = ["window", claims_ns2.SWEEPS[study], *flows, "algorithm"]
    wide = number_format.metric_columns(_summary_rows(tables, study), index, SUMMARY_METRICS)
    wide = wide.sort_index(level=list(range(len(index) - 1)), ascending=[False] + [True] * (len(index) - 2))
    return _name_values(wide)


def _per_point(tables: pd.DataFrame, study: str) -> pd.DataFrame:
    """Mean loss, timeouts and smoothed RTT of every grid point of `study`, one row each."""
    t = tables[(tables["study"] == study) & tables["metric"].isin(["loss_pct", "timeouts", "mean_srtt_ms"])]
    # the parameters this study sets (a column another study's table brought in is empty here)
    keys = [c for c in ("algorithm", "topology", "flows", "bandwidth_mbps", "delay_ms", "queue", "window")
            if c in t and t[c].notna().all()]
    return t.pivot_table(index=keys, columns="metric", values="mean").reset_index()


INITIAL_RTO_S = 3.0     # NS-2 2.35's rtxcur_init_: the retransmission timeout before any RTT sample


def lossless_timeouts(tables: pd.DataFrame, study: str) -> pd.DataFrame:
    """The grid points of `study` whose runs lost nothing yet timed out, with the timeouts per flow and whether
    the round trip is longer than NS-2's initial retransmission timeout (`initial`: then a flow's SYN times
    out before its acknowledgement can return)."""
    w = _per_point(tables, study)
    if w.empty or not {"loss_pct", "timeouts", "mean_srtt_ms"} <= set(w):
        return w.iloc[0:0]
    w = w[(w["loss_pct"] == 0) & (w["timeouts"] > 0)].copy()
    w["timeouts_per_flow"] = w["timeouts"] / w["flows"]
    w["initial"] = w["mean_srtt_ms"] >= INITIAL_RTO_S * 1e3
    return w


def lossless_timeouts_note(tables: pd.DataFrame, study: str) -> str:
    """Sentences on the timeouts without a loss in `study` ('' when there are none)."""
    w = lossless_timeouts(tables, study)
    if w.empty:
        return ""
    total, first, other = len(_per_point(tables, study)), w[w["initial"]], w[~w["initial"]]
    text = ""
    if len(first):
        delays = (f", at {number_format.num(first['delay_ms'].min())}-{number_format.num(first['delay_ms'].max())} "
                  "ms per link" if "delay_ms" in first else "")
        per = sorted({number_format.num(v) for v in first["timeouts_per_flow"]})
        text = (f"At {len(first)} of {total} grid points every run lost nothing yet timed out{delays}, "
                f"{' or '.join(per)} per flow: the round trip ({number_format.num(first['mean_srtt_ms'].min() / 1e3, 2)} "
                f"s or more) is at least NS-2's {number_format.num(INITIAL_RTO_S)} s initial retransmission timeout "
                "(`rtxcur_init_`), so each flow's SYN times out before its acknowledgement can return. A second timeout "
                "per flow comes where the round trip exceeds 6 s: the SYN, sent twice, gives no RTT sample (Karn's "
                "rule), so the first data packet runs under the timer backed off to 6 s, shorter than its round trip "
                f"(the section on {NS2} below gives NS-2's own count).")
    if len(other):
        text += (f" At {len(other)} {'point' if len(other) == 1 else 'points'} with shorter round trips some runs "
                 f"timed out without a loss ({number_format.num(other['timeouts_per_flow'].max())} per flow at most, "
                 "averaged over the seeds); we have not traced these.")
    return text.strip()


def lossless_timeouts_against(ours: pd.DataFrame, ns2: pd.DataFrame, study: str) -> str:
    """How many of our timed-out-without-a-loss points of `study` NS-2 2.35's runs time out as often at ('' for none)."""
    a, b = lossless_timeouts(ours, study), _per_point(ns2, study)
    if a.empty or b.empty:
        return ""
    keys = [c for c in a.columns if c in b.columns and c not in ("loss_pct", "timeouts", "mean_srtt_ms")]
    m = a.merge(b, on=keys, suffixes=("", "_ns2"))
    same = m[(m["timeouts"] == m["timeouts_ns2"]) & (m["loss_pct_ns2"] == 0)]
    differ = m.drop(same.index)
    text = (f"Timeouts without a loss ({SCENARIOS[study].split(': ')[1]} scenario): {NS2}'s own runs lose nothing and time "
            f"out exactly as often as ours at {len(same)} of the {len(m)} points where ours do")
    if len(differ):
        param = claims_ns2.SWEEPS[study]
        unit = {"delay_ms": " ms per link", "bandwidth_mbps": " Mbit/s", "flows": " flows"}.get(param, "")
        where = sorted({f"{style.label(a, None)} at {number_format.num(v) if unit else v}{unit}"
                        for a, v in zip(differ["algorithm"], differ[param])})
        per = lambda col: number_format.num(differ[col].sum() / differ["flows"].sum())
        text += (f"; at the other {len(differ)} ({', '.join(where)}) NS-2 times out {per('timeouts_ns2')} per flow "
                 f"on average, ours {per('timeouts')}")
    return text + "."


def n_seeds(tables: pd.DataFrame, study: str) -> int:
    return int(_summary_rows(tables, study)["n"].max())


def drops(tables: pd.DataFrame) -> pd.DataFrame:
    """Per study and window: grid points, points where some run dropped a packet, largest mean loss."""
    lp = tables[tables["metric"] == "loss_pct"]
    out = (lp.groupby(["study", "window"])
           .agg(points=("mean", "size"), drops=("run_max", lambda s: int((s > 0).sum())), loss=("mean", "max"))
           .reset_index().sort_values(["window", "study"], ascending=[False, True]))
    return pd.DataFrame({
        "scenario (study file)": [f"{SCENARIOS.get(s, s)} ({study_files.repo_path(s)})" for s in out["study"]],
        "window_ (packets)": out["window"].map(WINDOW_NAMES).tolist(),
        "grid points": out["points"].astype(int).tolist(),
        "points where a run dropped packets": out["drops"].astype(int).tolist(),
        "largest mean loss (%)": [number_format.num(v) for v in out["loss"]]})


def verdict_counts(claims: pd.DataFrame) -> pd.DataFrame:
    """How many claim rows got each verdict, per window setting (window20, nocap); a claim decided at
    several flow counts (ns2-1..ns2-6: "window20, 3 flows") counts once per count."""
    window = claims["variant"].str.split(",").str[0].rename("setting")
    counts = claims.groupby([window, "verdict"]).size().unstack(fill_value=0)
    counts = counts.reindex(columns=VERDICTS, fill_value=0).astype(int)
    counts["claim rows"] = counts.sum(axis=1)
    names = {"window20": "window 20 (NS-2 default)", "nocap": "no cap (window 0)"}
    counts.index = counts.index.map(lambda v: names.get(v, v))
    return counts.rename(columns=lambda v: v.replace("_", " ")).rename_axis(columns=None).reset_index()
