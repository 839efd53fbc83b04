"""What one run may ask for, so that a job's memory is bounded by declared caps.

A run keeps one sample per sampling interval (per flow, for the flow model) and, when traced, a
point per window change; each count is checked per grid point before any job starts. The messages
name the key and the allowed values; simulator/study.py prefixes the study file.
"""
SAMPLE_INTERVALS = ("sample_interval", "snapshot_interval", "ping_interval")
MAX_SAMPLES = 100_000           # samples of one series in one run
# flows x samples: every flow keeps one sample of 10 values (8 bytes each) per interval, so 80 MB at the cap
# (10,000 flows, 20 s sampled every 0.2 s: peak RSS 261 MB; every 0.1 s, refused here, would be 352 MB)
MAX_FLOW_SAMPLES = 1_000_000
MAX_TRACED_PACKETS = 100_000    # N of an M/M/1 run that records its cwnd trace
# Run files of one study (grid points x seed batches): each is a path Snakemake builds, checks and
# schedules when it reads the workflow, and each point is checked in Python before any job. At this
# limit `snakemake -n` took 7 s and 265 MB (20,000: 13 s, 340 MB); `validate` under a second.
MAX_RUN_FILES = 10_000


def sample_problem(full: dict, where: str | None) -> str | None:
    """Why a packet-network point (parameters with defaults) would keep too many samples, or None; where: the
    study's grid point, or None for a run started from Python."""
    at = f"at point {where!r}" if where else "in this run"
    for key in SAMPLE_INTERVALS:
        if key in full and full["duration"] / full[key] > MAX_SAMPLES:
            return (f"{key}: {full[key]} s gives {full['duration'] / full[key]:.0f} samples over duration "
                    f"{full['duration']} s {at}; allowed values: duration / {key} <= {MAX_SAMPLES} "
                    f"(a run's memory grows with its samples)")
    flows = int(full.get("flows", 1))
    if flows * full["duration"] / full["sample_interval"] > MAX_FLOW_SAMPLES:
        return (f"flows: {flows} flows x {full['duration'] / full['sample_interval']:.0f} samples (duration / "
                f"sample_interval) {at}; allowed values: flows x duration / sample_interval <= "
                f"{MAX_FLOW_SAMPLES} (every flow keeps one sample per interval)")
    return None


def trace_problem(n_packets: int, where: str) -> str | None:
    """Why a traced M/M/1 point would keep too long a trace, or None."""
    if n_packets > MAX_TRACED_PACKETS:
        return (f"trace: true with N = {n_packets} at point {where!r}; allowed values: N <= {MAX_TRACED_PACKETS} "
                f"when traces are recorded (a trace keeps a point per window change, so its memory grows with N)")
    return None
