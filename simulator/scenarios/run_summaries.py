"""Per-run summaries shared by the NS-2 and testbed scenarios, from the flow model's samples.

The flow model (simulator/models/flow_model.pyx) samples every `sample_interval` s: per TCP flow
cwnd, data in flight, smoothed RTT and packets delivered (`samples`), and cumulative drops,
transmissions, one-way delay sum/count, the worst delay since the last sample and the packets delivered in
order to the application (`samples2`); simulator/models/flow_config.py `samples` reads them by name.
"""
import numpy as np


def per_interval(cum):
    """Increments of cumulative counters between consecutive samples (first row: its value)."""
    return np.diff(cum, axis=0, prepend=np.zeros((1, cum.shape[1])))


def throughput_mbps(delivered, interval, payload_bytes):
    return per_interval(delivered) * 8 * payload_bytes / interval / 1e6


def every(t, step, interval):
    """Indices of the samples closest to t = step, 2*step, ... (1-second snapshots)."""
    k = max(1, int(round(step / interval)))
    return np.arange(k, len(t), k)


def stats(x, prefix, unit):
    """mean / p90 / p95 of x (NaN-safe) as {prefix_mean_unit: ...}."""
    x = np.asarray(x, dtype=float)
    x = x[np.isfinite(x)]
    if not x.size:
        return {f"{prefix}_{q}_{unit}": float("nan") for q in ("mean", "p90", "p95")}
    return {f"{prefix}_mean_{unit}": float(x.mean()), f"{prefix}_p90_{unit}": float(np.percentile(x, 90)),
            f"{prefix}_p95_{unit}": float(np.percentile(x, 95))}


def cv(x):
    """Coefficient of variation (sd / mean), NaN for an empty or zero-mean series."""
    x = np.asarray(x, dtype=float)
    return float(x.std() / x.mean()) if x.size and x.mean() > 0 else float("nan")


def probe_summary(probe, start, end):
    """Ping-style RTT statistics and loss of one probe: requests sent in [start, end - 1 s) (a
    reply has at least a second to come back, as ping's deadline) that got no reply are lost."""
    log = np.asarray(probe["log"], dtype=float).reshape(-1, 2)     # send time, rtt
    sent_in = max(1, int(np.ceil((end - 1.0 - start) / probe["interval"])))
    got = log[(log[:, 0] >= start) & (log[:, 0] < end - 1.0)]
    m = stats(got[:, 1] * 1e3, "ping_rtt", "ms")
    m["ping_loss_pct"] = 100.0 * max(0, sent_in - len(got)) / sent_in
    return m


def clean(m):
    """JSON-friendly floats and ints."""
    return {k: (float(v) if isinstance(v, (float, np.floating)) else int(v)) for k, v in m.items()}
