"""What the sections of the ns2 chapter (notebooks/ns2.ipynb) show, so that the notebook holds only
parameters, prose and calls (no logic in a notebook)."""
from __future__ import annotations

from pathlib import Path

from simulator.report import chapter
from simulator.report.papers.ns2 import figures as figures_ns2
from simulator.report.papers.ns2 import figures_ns2_sim as figures_ns2_sim
from simulator.report.papers.ns2 import agreement as ns2_agreement
from simulator import peers

NS2 = peers.label("ns2")


def show_timeseries(ch, tables, traces, study, numbers) -> None:
    """One study's time series of one run per algorithm, folded."""
    with chapter.folded("Time series of one run per algorithm (first seed), window 20 and no cap"):
        figures_ns2.timeseries_section(ch, tables, traces, study, numbers)


def show_ns2_beside_ours(ch, tables, claims, numbers, claims_file) -> None:
    """NS-2 2.35's own runs (recorded next to the claims file) beside ours, folded."""
    ns2_runs = ns2_agreement.ns2_tables(ns2_agreement.load_records(Path(claims_file).parent))
    with chapter.folded(f"{NS2} beside ours: goodput at every grid point, the tables side by side, the claims on both"):
        figures_ns2_sim.section(ch, tables, ns2_runs, claims, numbers)
