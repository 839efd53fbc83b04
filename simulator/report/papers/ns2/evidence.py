"""The NS-2 paper's own check, NS-2 2.35's own agents on the chapter's grid points:
rows of the first page's trust table (simulator/report/trust.py EVIDENCE_COLUMNS), named by the paper's
catalogue.yaml `evidence`."""
from __future__ import annotations

import pandas as pd
from simulator import peers

NS2 = peers.label("ns2")


def ns2_rows(tables: pd.DataFrame, reference_dir) -> list[dict]:
    """NS-2 2.35's own agents on the NS-2 chapter's grid points (reference/ns2_sim/): points whose goodput is
    within the tolerance of NS-2's (simulator/report/papers/ns2/agreement.py)."""
    from simulator.report.papers.ns2 import agreement as ns2_agreement

    inside, total = ns2_agreement.summary(tables, reference_dir=reference_dir)
    if not total:           # none of this build's points is one NS-2 ran
        return []
    return [{"chapter": "ns2", "check": f"{NS2}'s own agents on the chapter's grid points, goodput within "
             f"{100 * ns2_agreement.TOLERANCE:g}%", "inside": inside, "total": total, "page": "ns2"}]


def ns2_evidence(table_paths, reference_dir) -> list[dict]:
    """ns2_rows of the NS-2 studies' tables (catalogue.yaml `evidence` of the NS-2 paper)."""
    return ns2_rows(pd.concat([pd.read_csv(f) for f in table_paths], ignore_index=True), reference_dir)
