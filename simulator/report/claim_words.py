"""A reader's words for the identifiers the scorecard stores: the metric a claim's headline number
is (`p95_inflight` -> '95th percentile of data in flight (packets)', also inside a headline's short
description such as 'cwnd_mean vs bandwidth_mbps') and the settings it is decided in
(`ns3_scenario` -> "the paper's ns-3 scenario").  The scorecard files keep the identifiers."""
from __future__ import annotations

import re

from simulator.report import claim_rule as rule, style

METRICS = {
    "avg_delay": "mean delay (s)",
    "bandwidth_mbps": "bandwidth (Mbit/s)",
    "cwnd": "congestion window (packets)",
    "cwnd_cv": "coefficient of variation of the window",
    "cwnd_mean": "mean window (packets)",
    "cwnd_median_pkts": "median window (packets)",
    "cwnd_stable_s": "time to a stable window (s)",
    "delay_ms": "link delay (ms)",
    "goodput_mbps": "goodput (Mbit/s)",
    "goodput_warm_mbps": "goodput after the warm-up (Mbit/s)",
    "inflight_30_50s": "mean data in flight from 30 to 50 s (packets)",
    "jain": "Jain's fairness index",
    "latency_max_s": "largest latency (s)",
    "latency_mean_s": "mean latency (s)",
    "latency_sd_s": "standard deviation of latency (s)",
    "loss_pct": "loss (%)",
    "loss_rate": "loss rate (%)",
    "median_inflight": "median data in flight (packets)",
    "median_rtt_ms": "median RTT (ms)",
    "mean_rtt_ms": "mean RTT (ms)",
    "p05_inflight": "5th percentile of data in flight (packets)",
    "p05_rtt_ms": "5th percentile of RTT (ms)",
    "p95_inflight": "95th percentile of data in flight (packets)",
    "p95_rtt_ms": "95th percentile of RTT (ms)",
    "ping_loss_pct": "ping loss (%)",
    "ping_rtt_mean_ms": "mean ping RTT (ms)",
    "plr": "retransmitted share of packets sent (%)",
    "throughput": "throughput (packets/s)",
    "throughput_cv": "coefficient of variation of throughput",
    "throughput_mbps": "throughput (Mbit/s)",
    "throughput_mean_mbps": "mean throughput (Mbit/s)",
    "throughput_per_flow_mbps": "throughput per flow (Mbit/s)",
    "timeouts": "retransmission timeouts",
    "utilization": "utilization (% of the link rate)",
}


def scale(metric) -> float:
    """The factor from the tables' unit to the one the book writes a metric in (100 for a share shown in
    %), as reference/metric_thresholds.yaml's `shown` declares it: one unit per metric."""
    return rule.threshold(metric).scale if isinstance(metric, str) and metric in rule.declared() else 1.0
# other identifiers inside a headline description: the testbed's paths and background levels,
# the NS-2 queue disciplines
TERMS = {"eth_wifi": "Ethernet-Wi-Fi", "wifi_wifi": "Wi-Fi-Wi-Fi", "none": "no background",
         "fq": "fair queueing", "droptail": "DropTail"}
SETTINGS = {"ns3_scenario": "the paper's ns-3 scenario", "sim": "our model of the testbed"}
_WORD = re.compile(r"[A-Za-z][A-Za-z0-9_]*")


def metric(text) -> str:
    """The headline's metric (or short description) in a reader's words; '' for none."""
    if not isinstance(text, str):
        return ""
    return _WORD.sub(lambda m: _word(m.group(0)), text)


def _word(w: str) -> str:
    if w in METRICS:
        return METRICS[w]
    if w in TERMS:
        return TERMS[w]
    if w in style.PALETTE:                     # an algorithm's name
        return style.label(w)
    return w


def setting(variant) -> str:
    """A claim row's setting in a reader's words ('nocap, 2 flows' and the like stay as they are)."""
    return SETTINGS.get(variant, variant) if isinstance(variant, str) else ""


# the unit an identifier's last word names: `delay_ms=10` reads "delay 10 ms"
UNIT_SUFFIXES = {"ms": "ms", "s": "s", "mbps": "Mbit/s", "pct": "%", "pkts": "packets", "bdp": "BDP"}
_SETTING = re.compile(r"(?<![\w./])([a-z][a-z0-9]*(?:_[a-z0-9]+)+|[A-Za-z]\w*)=([^\s;,()]+)")
_IDENTIFIER = re.compile(r"(?<![\w./:-])[a-z][a-z0-9]*(?:_[a-z0-9]+)+(?![\w/]|\.[a-z]{2,4}\b)")


def _plain(name: str) -> tuple[str, str]:
    """(words, unit) of an identifier: 'bandwidth_mbps' -> ('bandwidth', 'Mbit/s'), 'as_published' ->
    ('as published', '')."""
    *head, last = name.split("_")
    if head and last in UNIT_SUFFIXES:
        return " ".join(head), UNIT_SUFFIXES[last]
    return name.replace("_", " "), ""


def _setting(m: re.Match) -> str:
    name, value = m.group(1), m.group(2)
    if "_" not in name:
        return m.group(0)                      # lambda=5, K=10, alpha=1.2: the papers' own symbols
    words, unit = _plain(name)
    value = TERMS.get(value, value.replace("_", " "))
    return f"{words} {value}{'' if unit == '%' else ' '}{unit}".rstrip()


def _identifier(m: re.Match) -> str:
    w = m.group(0)
    if w in METRICS or w in TERMS or w in style.PALETTE:
        return _word(w)
    words, unit = _plain(w)
    return f"{words} ({unit})" if unit else words


def prose(text) -> str:
    """A claim note in a reader's words: the scorecard's identifiers (settings `delay_ms=10`, metric
    columns `latency_sd_s`, variant and study names) become words ('delay 10 ms', 'standard deviation
    of latency (s)'); file names and paths stay as they are. The scorecard files keep the identifiers."""
    if not isinstance(text, str):
        return ""
    return _IDENTIFIER.sub(_identifier, _SETTING.sub(_setting, text))
