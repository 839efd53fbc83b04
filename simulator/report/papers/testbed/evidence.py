"""The testbed paper's own check: the 802.11 channel its quoted numbers run on against ns-3's Wi-Fi module
(simulator/report/wifi_agreement.py): its row of the first page's trust table, named by the paper's
catalogue.yaml `evidence`."""
from __future__ import annotations

from pathlib import Path


def testbed_evidence(table_paths, reference_dir) -> list[dict]:
    """The Wi-Fi agreement row, when ns-3's Wi-Fi records are in the reference folder."""
    from simulator.report import wifi_agreement
    from simulator.validation import ns3_wifi

    if not (Path(reference_dir) / ns3_wifi.RECORDS).exists():
        return []
    return [wifi_agreement.trust_row(reference_dir)]
