"""What each section of the qtcol chapter (notebooks/qtcol.ipynb) shows, one function per section, so
that the notebook holds only parameters, prose and one call per code cell (no logic in a notebook)."""
from __future__ import annotations

from simulator.report import cells, chapter
from simulator.report.papers.qtcol import figures as qf
from simulator.report.papers.qtcol import figures_multiflow as qm
from simulator.report.papers.qtcol import findings as fd
from simulator.report.papers.qtcol import paper_text as pt
from simulator.report.papers.qtcol import tables as qt

TABLE_FOLD = "The numbers of this section as a table, with their CSV"


def _show_findings(ch, findings) -> None:
    """A section's findings paragraph, when there is one."""
    if findings:
        ch.markdown(findings)


def show_published(ch, tables, reference) -> None:
    """The published numbers beside ours (folded table, CSV) and their summary lines."""
    compare = qt.published_vs_ours(tables, reference)
    ch.save_download(compare, "qtcol_published_vs_ours.csv")
    with chapter.folded(f"The {len(compare)} published numbers beside ours, one table per scenario"):
        chapter.html(qt.published_html(compare))
    for line in qt.published_summary(compare, ch.download_link("qtcol_published_vs_ours.csv", "Download this table (CSV)")):
        ch.markdown(line)


def show_disagreements(ch, tables, reference, reference_dir="reference") -> None:
    """Where ours and the published numbers disagree, when they do (with ns-3's records where they decide)."""
    _show_findings(ch, qt.disagreements(tables, reference, reference_dir))


def show_single_flow(ch, traces, bdp, reference) -> dict:
    """The single flow on a static path: the paper's text, the figures, the table and the findings.
    Returns the runs, which the box plots of the next cell use."""
    ch.markdown(pt.single_flow(reference))
    ss = qf.runs(traces, "qt_single_static")
    qf.show_single_flow(ch, ss, bdp, reference)
    if ss:
        d = qt.single_ranges(ss, reference)
        with chapter.folded(TABLE_FOLD):
            cells.show_table(ch, qt.single_ranges_shown(d), d, "single_ranges.csv", qt.single_ranges_caption())
        _show_findings(ch, fd.single_flow(ss, bdp, reference))
    return ss


def show_single_boxes(ch, ss, bdp, reference) -> None:
    """The single flow's box plots of data in flight and RTT, folded (when the runs exist)."""
    if ss:
        with chapter.folded("Box plots of data in flight and RTT per algorithm (Figures 13-14)"):
            qf.show_single_boxes(ch, ss, bdp, reference)


def show_bandwidth_change(ch, traces, bdp, reference) -> None:
    """The bandwidth change: the paper's text, the figures, the phases table and the findings."""
    ch.markdown(pt.bandwidth_change(reference))
    rr = qf.show_path_change(ch, traces, "qt_bandwidth_change", bdp, reference)
    if rr:
        d = qt.bandwidth_phases(rr, reference)
        with chapter.folded(TABLE_FOLD):
            cells.show_table(ch, qt.bandwidth_phases_shown(d), d, "bandwidth_phases.csv", qt.bandwidth_phases_caption())
        _show_findings(ch, fd.bandwidth_change(rr, bdp, reference))


def show_delay_change(ch, traces, bdp, reference) -> None:
    """The delay change: the figures and the phases table."""
    rr = qf.show_path_change(ch, traces, "qt_delay_change", bdp, reference)
    if rr:
        d = qt.delay_phases(rr)
        with chapter.folded(TABLE_FOLD):
            cells.show_table(ch, qt.delay_phases_shown(d), d, "delay_phases.csv", qt.delay_phases_caption())


def show_five_flows(ch, tables, traces, bdp, reference) -> None:
    """Five flows: the paper's text, the box plots, bars and time series (or why they are missing),
    and the means table."""
    ch.markdown(pt.five_flows(reference))
    mf = qf.five_flow_runs(traces)
    if not mf:
        qf.skipped(ch, qf.MULTI)
    else:
        with chapter.folded("Box plots of the five flows' total data in flight and RTT per algorithm"):
            qm.show_multi_boxes(ch, mf, bdp, reference)
        qm.show_multi_bars(ch, tables, reference)
        with chapter.folded("The five flows over time, per algorithm"):
            qm.show_multi_time(ch, mf)
    means = qt.multiflow_means(tables, reference)
    if len(means):
        with chapter.folded(TABLE_FOLD):
            cells.show_table(ch, qt.multiflow_means_shown(means), means, "multiflow_means.csv", qt.multiflow_means_caption())


def show_buffer_sweep(ch, tables, bdp, reference) -> None:
    """The buffer sweep: the paper's text, the sweep figures, the five-flow table and the findings."""
    ch.markdown(pt.buffer_sweep(reference))
    qm.show_buffer_sweeps(ch, tables, reference, bdp)
    sweep = qt.buffer_sweep_5flows(tables, reference)
    if len(sweep):
        with chapter.folded(TABLE_FOLD):
            cells.show_table(ch, qt.buffer_sweep_5flows_shown(sweep), sweep, "buffer_sweep_5flows.csv", qt.buffer_sweep_caption())
    _show_findings(ch, fd.buffer_sweep(tables, reference))


def show_device_queue(ch, tables, reference) -> None:
    """Five flows in shallow buffers with ns-3's device queue, folded, with the link utilisation."""
    with chapter.folded("Five flows in shallow buffers with ns-3's device queue (Figures 24-25)"):
        if qm.show_device_queue(ch, tables, reference):
            ch.markdown(qt.device_queue_utilization(tables))
