"""NS-2 2.35's committed records of the NS-2 paper's grid points (reference_dir/ns2_sim/, the paper's own-tool
records), checked before any job: named by the NS-2 paper's catalogue.yaml `reference_check`."""
from __future__ import annotations

from pathlib import Path

NS2_RECORDS = "ns2_sim"


def check(root) -> dict:
    """{"ns2_sim": records}: every file as its manifest and each record's sha256 say."""
    from simulator.validation.ns2_records import check_dir
    return {"ns2_sim": check_dir(Path(root) / NS2_RECORDS, parse=False)}
