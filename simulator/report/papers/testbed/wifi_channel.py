"""The testbed on the 802.11 channel (notebooks/testbed.ipynb): the report's quoted numbers beside our
per-run ranges on the abstract channel (study tb_matrix) and on the 802.11 channel (tb_wifi_matrix,
which the scorecard uses), with the settings of the channel's sweep (tb_wifi_sensitivity: rate, access
point queue, MPDU errors, rate control, driver queue) that reach each one; and the sweep as figures."""
from __future__ import annotations

import pandas as pd

from simulator.report import chapter_tables, figure_series, number_format, paper_values, published_numbers, style
from simulator.report.papers.testbed.figures import algorithms
from simulator.report.papers.testbed.tables import NUMBERS_STUDY as WIFI, QUOTED_WHAT, SETUP_NAMES, STUDY, is_bidir

SWEEP = "tb_wifi_sensitivity"
SWEPT = {"mac_mcs": "MCS {:g}", "ap_buffer_pkts": "{:g}-packet", "ap_queue": "{}", "mac_mpdu_error_rate": "{:.0%} MPDU errors"}
QUEUES = {"fifo": "DropTail", "fq_codel": "FQ-CoDel"}
SWEEP_ERRORS = 0.1          # the figure's MPDU error rate: tb_wifi_matrix's choice
QUEUE_STYLE = {(1000, "fifo"): "-", (100, "fifo"): "--", (1000, "fq_codel"): ":"}   # depth, discipline -> line
PANELS = [("eth_wifi", "none"), ("eth_wifi", "heavy"), ("wifi_wifi", "none"), ("wifi_wifi", "heavy")]
ROWS = [("ping_rtt_mean_ms", "mean ping RTT (ms, log)", True), ("ping_loss_pct", "ICMP ping loss (%)", False)]


def _unidirectional(tables, study) -> pd.DataFrame:
    d = tables[tables["study"] == study]
    return d[~is_bidir(d)] if "bidir" in d else d


def _rows(d, number, setup, background) -> pd.DataFrame:
    return d[(d["metric"] == number["metric"]) & (d["algorithm"] == number["algorithm"])
             & (d["link_setup"] == setup) & (d["background"] == background)]


def _range(rows: pd.DataFrame) -> str:
    if rows.empty:
        return "–"
    lo, hi = float(rows["run_p025"].min()), float(rows["run_p975"].max())
    return number_format.num(lo) if lo == hi else f"{number_format.num(lo)}–{number_format.num(hi)}"


def _inside(number, rows: pd.DataFrame) -> bool:
    """The report's value or range meets our per-run range (published_numbers' rule)."""
    return not rows.empty and published_numbers.overlaps(float(number["low"]), float(number["high"]),
                                                         float(rows["run_p025"].min()), float(rows["run_p975"].max()))


def _setting(r) -> str:
    """'MCS 4, 1000-packet DropTail, 10% MPDU errors' (a sweep without the queue discipline: DropTail), or
    'Minstrel-HT at 22 dB, 100-packet FQ-CoDel' for the rate-control part of the sweep."""
    if r.get("mac_rate_control") == "minstrel":
        queue = QUEUES.get(r.get("ap_queue") if isinstance(r.get("ap_queue"), str) else "fifo", "DropTail")
        return f"Minstrel-HT at {float(r['mac_snr_db']):g} dB SNR, {float(r['ap_buffer_pkts']):g}-packet {queue}"
    parts = []
    for k, fmt in SWEPT.items():
        if k == "ap_queue":
            parts[-1] += " " + QUEUES.get(r.get(k) if isinstance(r.get(k), str) else "fifo", "DropTail")
        else:
            parts.append(fmt.format(float(r[k])))
    depth = r.get("mac_driver_queue_pkts")
    if isinstance(depth, (int, float)) and depth > 0:
        parts.append(f"{depth:g}-packet driver queue")
    return ", ".join(parts)


def reached(sweep, number, setup, background) -> list[str]:
    """The sweep's settings at which one run of ours lands on the report's number."""
    rows = _rows(sweep, number, setup, background)
    return [_setting(r) for i, r in rows.iterrows() if _inside(number, rows.loc[[i]])]


def _reach_text(sweep, number, setup) -> str:
    parts = []
    for bg in ("none", "heavy"):
        total = len(_rows(sweep, number, setup, bg))
        if not total:
            continue
        hits = reached(sweep, number, setup, bg)
        where = "baseline" if bg == "none" else "heavy background"
        parts.append(f"{where}: {len(hits)} of {total}" + (f" ({hits[0]}, ...)" if len(hits) > 1 else
                                                            f" ({hits[0]})" if hits else ""))
    return "; ".join(parts) or "–"


WHY = {"open": "an open setting: some baseline runs of the sweep reach it",
       "background": "only runs with the heavy background reach it",
       "none": "no swept setting reaches it"}


def why(sweep, number, setup, inside: bool) -> str:
    """Why a number lies outside our 802.11 baseline runs, as the sweep shows it."""
    if inside:
        return ""
    if reached(sweep, number, setup, "none"):
        return WHY["open"]
    return WHY["background"] if reached(sweep, number, setup, "heavy") else WHY["none"]


# the number_reasons.yaml kinds that say what the sweep shows for a number outside
REASON_KINDS = {WHY["open"]: ("sensitivity",), WHY["background"]: ("paper_ambiguity",), WHY["none"]: ("unexplained",)}


def check_reasons(tables: pd.DataFrame, numbers: pd.DataFrame, reasons: dict) -> list[str]:
    """Where reference/testbed/number_reasons.yaml (static text) disagrees with the sweep about a number
    outside our 802.11 baseline runs: one line each; [] when they agree (or the sweep did not run)."""
    from simulator.report.papers.testbed.claims import VARIANT, quoted_numbers
    from simulator.report import number_reasons

    wifi, sweep = (_unidirectional(tables, s) for s in (WIFI, SWEEP))
    if sweep.empty:
        return []
    out = []
    for claim, what, metric, setup, alg, low, high, _ in quoted_numbers(numbers, WIFI):
        n = {"metric": metric, "algorithm": alg, "low": low, "high": high}
        ours = _rows(wifi, n, setup, "none")
        if ours.empty or _inside(n, ours):
            continue
        item = f"{what} {setup} {alg} ({claim})"
        e = number_reasons.entry(reasons, "testbed", item, VARIANT)
        shows = why(sweep, n, setup, False)
        if e is None or e["kind"] not in REASON_KINDS[shows]:
            out.append(f"{item}: the sweep shows '{shows}', so its kind should be one of {REASON_KINDS[shows]}; "
                       f"the entry that covers it says {e['kind'] if e else 'nothing'}")
    return out


def numbers_table(tables: pd.DataFrame, numbers: pd.DataFrame) -> pd.DataFrame:
    """One row per quoted number: the report's value, our baseline per-run ranges on both channels, the
    verdict on the 802.11 channel, how many sweep settings reach it, and why it is outside."""
    simple, wifi, sweep = (_unidirectional(tables, s) for s in (STUDY, WIFI, SWEEP))
    out = []
    for _, n in numbers[numbers["study"] == WIFI].iterrows():
        setup = n["where"].split("=", 1)[1]
        ours, before = _rows(wifi, n, setup, "none"), _rows(simple, n, setup, "none")
        inside = _inside(n, ours)
        out.append({
            "number": f"{QUOTED_WHAT.get(n['metric'], n['metric'])}, {SETUP_NAMES.get(setup, setup)}, "
                      f"{style.label(n['algorithm'], None)}",
            "the report says": paper_values.value(n),
            "abstract channel: per-run range": _range(before),
            "abstract channel": "missing" if before.empty else "inside" if _inside(n, before) else "outside",
            "802.11 channel: per-run range": _range(ours),
            "verdict": "missing" if ours.empty else "inside" if inside else "outside",
            "sweep settings that reach it": _reach_text(sweep, n, setup),
            "why outside": why(sweep, n, setup, inside) if not ours.empty else "",
        })
    return pd.DataFrame(out)


def counts(frame: pd.DataFrame, column: str = "verdict") -> dict:
    """{verdict: count} of numbers_table's verdicts on the 802.11 channel (or on the abstract one)."""
    return frame[column].value_counts().to_dict()


def sweep_figure(tables: pd.DataFrame):
    """Ping RTT and loss against the MCS: one colour per algorithm, solid 1000-packet and dashed 100-packet
    access point queue, at tb_wifi_matrix's MPDU error rate; a panel per link setup and background."""
    import matplotlib.pyplot as plt

    sweep = _unidirectional(tables, SWEEP)
    sweep = sweep[(sweep["mac_mpdu_error_rate"] == SWEEP_ERRORS) & ~_minstrel(sweep) & (_depth(sweep) == 0)]
    algs = algorithms(sweep)
    fig, axes = plt.subplots(len(ROWS), len(PANELS), figsize=(12, 6.5), sharex=True, squeeze=False)
    for col, (setup, bg) in enumerate(PANELS):
        for row, (metric, ylabel, logy) in enumerate(ROWS):
            ax = axes[row, col]
            for alg in algs:
                for (queue, disc), ls in QUEUE_STYLE.items():
                    g = sweep[(sweep["metric"] == metric) & (sweep["algorithm"] == alg) & (sweep["link_setup"] == setup)
                              & (sweep["background"] == bg) & (sweep["ap_buffer_pkts"] == queue)
                              & (_discipline(sweep) == disc)].sort_values("mac_mcs")
                    if g.empty:
                        continue
                    lo = g["ci_low"].clip(lower=0)
                    ax.errorbar(g["mac_mcs"], g["mean"], yerr=[g["mean"] - lo, g["ci_high"] - g["mean"]],
                                color=style.PALETTE[alg], ls=ls, marker="o", ms=3.5, capsize=2)
                    figure_series.record(ax, f"{style.label(alg, None)}, {queue}-packet {QUEUES[disc]}", g, g["mac_mcs"],
                                         g["mean"], lo, g["ci_high"], along="mac_mcs",
                                         panel=f"{SETUP_NAMES[setup]} {'baseline' if bg == 'none' else 'heavy'} | {ylabel}")
            if logy:
                _log_axis(ax)
            if col == 0:
                ax.set_ylabel(ylabel)
            if row == 0:
                ax.set_title(f"{SETUP_NAMES[setup]}, {'baseline' if bg == 'none' else 'heavy background'}", fontsize=10)
            if row == len(ROWS) - 1:
                ax.set_xlabel("MCS (802.11ac, 80 MHz, 2 streams)")
                ax.set_xticks(sorted(set(sweep["mac_mcs"])))
    handles = [plt.Line2D([], [], color=style.PALETTE[a], marker="o", ms=4, label=style.label(a, None)) for a in algs]
    handles += [plt.Line2D([], [], color="black", ls=ls, label=f"{q} {QUEUES[d]}") for (q, d), ls in QUEUE_STYLE.items()]
    fig.tight_layout(rect=(0, 0, 1, 0.93))
    fig.legend(handles=handles, loc="upper center", ncol=len(handles), fontsize=10, bbox_to_anchor=(0.5, 1.0))
    return fig


def _minstrel(d: pd.DataFrame) -> pd.Series:
    """The rows of the sweep's rate-control part."""
    return d["mac_rate_control"].eq("minstrel") if "mac_rate_control" in d else pd.Series(False, index=d.index)


def _depth(d: pd.DataFrame) -> pd.Series:
    """Each row's driver queue, packets (0 where the sweep did not set one)."""
    return d["mac_driver_queue_pkts"].fillna(0) if "mac_driver_queue_pkts" in d else pd.Series(0, index=d.index)


DRIVER_MCS, DRIVER_QUEUE = 7, 1000          # the driver-queue part of the sweep: tb_wifi_matrix's rate and queue


def driver_figure(tables: pd.DataFrame):
    """Ping RTT against the driver queue below the access point's queue (0: the first part of the sweep), one
    colour per algorithm, solid DropTail and dotted FQ-CoDel; a panel per link setup and background."""
    import matplotlib.pyplot as plt

    sweep = _unidirectional(tables, SWEEP)
    sweep = sweep[(sweep["metric"] == "ping_rtt_mean_ms") & ~_minstrel(sweep) & (sweep["mac_mcs"] == DRIVER_MCS)
                  & (sweep["mac_mpdu_error_rate"] == SWEEP_ERRORS) & (sweep["ap_buffer_pkts"] == DRIVER_QUEUE)]
    sweep = sweep.assign(depth=_depth(sweep), disc=_discipline(sweep))
    depths = sorted(set(sweep["depth"]))
    algs = algorithms(sweep)
    fig, axes = plt.subplots(1, len(PANELS), figsize=(12, 3.6), sharey=True, squeeze=False)
    for ax, (setup, bg) in zip(axes[0], PANELS):
        panel = f"{SETUP_NAMES[setup]}, {'baseline' if bg == 'none' else 'heavy background'}"
        for alg in algs:
            for disc, ls in (("fifo", "-"), ("fq_codel", ":")):
                g = sweep[(sweep["algorithm"] == alg) & (sweep["link_setup"] == setup) & (sweep["background"] == bg)
                          & (sweep["disc"] == disc)].sort_values("depth")
                if g.empty:
                    continue
                x = [depths.index(v) for v in g["depth"]]
                lo = g["ci_low"].clip(lower=0)
                ax.errorbar(x, g["mean"], yerr=[g["mean"] - lo, g["ci_high"] - g["mean"]], color=style.PALETTE[alg],
                            ls=ls, marker="o", ms=3.5, capsize=2)
                figure_series.record(ax, f"{style.label(alg, None)}, {QUEUES[disc]}", g, g["depth"], g["mean"], lo,
                                     g["ci_high"], along="mac_driver_queue_pkts", panel=panel)
        _log_axis(ax)
        ax.set_title(panel, fontsize=10)
        ax.set_xticks(range(len(depths)), [f"{d:g}" for d in depths])
        ax.set_xlabel("driver queue (packets)")
    axes[0, 0].set_ylabel("mean ping RTT (ms, log)")
    handles = [plt.Line2D([], [], color=style.PALETTE[a], marker="o", ms=4, label=style.label(a, None)) for a in algs]
    handles += [plt.Line2D([], [], color="black", ls=ls, label=f"{DRIVER_QUEUE} {QUEUES[d]}")
                for d, ls in (("fifo", "-"), ("fq_codel", ":"))]
    fig.tight_layout(rect=(0, 0, 1, 0.88))
    fig.legend(handles=handles, loc="upper center", ncol=len(handles), fontsize=10, bbox_to_anchor=(0.5, 1.0))
    return fig


def _discipline(d: pd.DataFrame) -> pd.Series:
    """Each row's access-point queue discipline ('fifo' where the sweep did not vary it)."""
    return d["ap_queue"].fillna("fifo") if "ap_queue" in d else pd.Series("fifo", index=d.index)


def _log_axis(ax) -> None:
    """A log axis labelled in plain numbers (2, 5, 10, 20 ms), not powers of ten."""
    from matplotlib.ticker import LogLocator, NullFormatter, ScalarFormatter

    ax.set_yscale("log")
    ax.yaxis.set_major_locator(LogLocator(subs=(1.0, 2.0, 5.0)))
    ax.yaxis.set_major_formatter(ScalarFormatter())
    ax.yaxis.set_minor_formatter(NullFormatter())


def section(ch, tables, numbers, source: str) -> None:
    """The numbers on both channels (a table and its download) and the sweep figure; a note where the
    802.11 studies did not run."""
    if not chapter_tables.ran(tables, WIFI):
        ch.markdown(chapter_tables.not_run(WIFI))
        return
    from simulator.report import claim_engine, number_reasons

    wrong = check_reasons(tables, numbers, number_reasons.load(claim_engine.claims_file().parent))
    if wrong:
        raise ValueError("reference/testbed/number_reasons.yaml disagrees with this build's sweep "
                         "(tb_wifi_sensitivity); correct the entries:\n" + "\n".join(wrong))
    frame = numbers_table(tables, numbers)
    c, before = counts(frame), counts(frame, "abstract channel")
    ch.markdown(f"On the 802.11 channel, **{c.get('inside', 0)} of {len(frame)}** numbers the report states lie "
                f"inside our baseline per-run range ({c.get('outside', 0)} outside); on the abstract channel "
                f"{before.get('inside', 0)} of {len(frame)} do. For each number outside, the sweep says whether a "
                f"setting the report leaves open reaches it.")
    ch.table(frame, "testbed_numbers_by_channel.csv", index=False,
             note="The report's numbers beside our baseline runs (no background), per-run range = 2.5th-97.5th "
                  "percentile over seeds; *sweep settings* counts the settings of rate (MCS 4, 7, 9), access point "
                  "queue (100 or 1000 packets, DropTail or FQ-CoDel) and MPDU error rate (0, 10%, 30%), and of "
                  "Minstrel-HT rate control with MPDU errors from the SNR (15, 22, 28, 33 dB) with the same queues, "
                  "and of a driver queue of 64 or 256 packets below the access point's 1000-packet queue (MCS 7, 10% "
                  "MPDU errors), at which our range meets the "
                  "report's number. {link}. Made from `config/studies/testbed/tb_matrix.yaml`, "
                  "`tb_wifi_matrix.yaml` and `tb_wifi_sensitivity.yaml`.")
    if chapter_tables.ran(tables, SWEEP):
        figure_series.show(ch, sweep_figure(tables), "wifi_sweep",
                           "Figure: mean ping RTT (log scale) and ICMP ping loss against the rate (MCS) on the 802.11 "
                           "channel, one colour per algorithm, solid a 1000-packet and dashed a 100-packet DropTail "
                           "access point queue, dotted mac80211's FQ-CoDel of 1000 packets, at 10% MPDU errors; mean over 3 seeds with 95% CI (cut at 0). Not a figure "
                           "of the report: which of the channel's open settings move the RTT and loss it quotes. "
                           "Made from `config/studies/testbed/tb_wifi_sensitivity.yaml`.")
        figure_series.show(ch, driver_figure(tables), "wifi_driver_queue",
                           "Figure: mean ping RTT (log scale) against the driver queue below the access point's "
                           "1000-packet queue (0: none, as in the figure above), one colour per algorithm, solid "
                           "DropTail and dotted mac80211's FQ-CoDel, at MCS 7 and 10% MPDU errors; mean over 3 seeds "
                           "with 95% CI (cut at 0). The driver's packets have left FQ-CoDel, so a ping waits behind "
                           "them: the queue a loss-based flow builds there adds to its RTT, while BBR and Vegas keep "
                           "too few packets in flight to fill it. Not a figure of the report. Made from "
                           "`config/studies/testbed/tb_wifi_sensitivity.yaml`.")
