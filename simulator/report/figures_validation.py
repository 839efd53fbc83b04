"""The "Agreement with ns-3" chapter (notebooks/validation.ipynb): the answer, the side-by-side
table and the figure from results/validation/ns3_agreement.csv (simulator/validation/agreement.py),
or, when the optional target has not run, how to run it."""
from __future__ import annotations


import pandas as pd

from simulator import study_files
from simulator.report import number_format, style
from simulator.report.claim_rule import ALPHA
from simulator.validation.agreement import RTT_REL, UTILIZATION_PP, counts
from simulator import peers

NS3 = peers.label("ns3")

STUDY = "validation_ns3"
# Where ns-3's side comes from: the records committed with the repository (simulator/validation/ns3_reference.py)
SOURCE = (
    f"ns-3's side is {NS3}'s own runs of these cells (PyPI `{peers.pin('ns3')}`), made once and "
    "committed with this repository as reference data, so every build shows it without ns-3 installed (`reference/ns3/records.jsonl`, one record per cell and seed, "
    "each sealed by its sha256 and checked before any job; `reference/ns3/README.md` gives the script, its sha256, the "
    "command of every record, the machine and the date). Our side runs in every build. To rerun ns-3 (hours on 2 "
    "cores, 0.7 GB of memory per ns-3 process) and see which records change:\n\n"
    f"```bash\n.venv/bin/pip install -e \".[ns3]\"      # {NS3} from PyPI, about 0.5 GB\n"
    ".venv/bin/snakemake --cores all validation   # results/validation/ns3_changes.txt lists them\n```")
NS3_MIN_RTO_MS = 1000.0   # ns-3 3.44 TcpSocketBase attribute MinRto (tcp-socket-base.cc GetTypeId)
MAX_UTILIZATION = 1448 / 1490   # payload share of a segment without timestamps: no run can exceed it
RATE_SLACK_PCT = 1.0      # a delivery-rate sample this many percent above the link's payload rate is not rounding
OWN_WINDOW = {"bbr"}     # algorithms that set cwnd themselves in recovery (ns-3 HasCongControl), so PRR does not
OVERSHOOT = 1.5           # ours retransmitting this many times ns-3's count marks a bigger slow-start overshoot
TIMEOUTS_MORE = 1.1       # ns-3 timing out this many times as often (and at least once more) can explain a gap; a
                          # few percent more among dozens of timeouts spread over 5 flows cannot
RTT_TICKS_MS = (10, 20, 50, 100, 200, 500, 1000, 2000, 5000)   # the log-scaled RTT panel's labelled ticks
PRR_RISE_PKTS = 1.0       # RFC 6937's PRR keeps cwnd within rounding (one segment) of its value at recovery's start
# What each cause is, said once under the list of cells (the list names the cause and its evidence).
CAUSE_TEXT = {
    "Karn": "ns-3 times a segment across its retransmission timeout. A sample longer than its 1 s minimum RTO "
            "cannot be a round trip on these paths; Karn's algorithm (RFC 6298, section 3) excludes samples of "
            "retransmitted segments, but without timestamps (its Vegas runs with Timestamp=false) ns-3 times the "
            "oldest segment a cumulative ACK covers from its first transmission (TcpSocketBase::EstimateRtt). Our "
            "side takes no such samples, so the RTT bound cannot hold where ns-3 does this.",
    "timeouts": "ns-3 took more retransmission timeouts, each idling the link for at least its 1 s minimum RTO "
                f"and restarting the window from one segment. Neither side has RACK here ({NS3} has none; our "
                "`ns3` stack recovers as it does, `sack_recovery: ns3`), so on both a retransmission lost again waits "
                "for the timeout; ns-3 loses more of its retransmissions because its PRR sends more than is "
                "delivered early in a recovery (see [PRR], which also shows it after the warm-up where it does). "
                "With that count left out (`python scripts/ns3_cwnd.py '<cell>' --prr-rfc6937`) ns-3 takes no "
                "timeout in the CUBIC cells: 100 Mbit/s, 86 packets, 1 flow: 95.8% and 45.5 ms (ours 95.5%, 45.6 "
                "ms; its one timeout came at the end of slow start, before the warm-up); 10 Mbit/s, 9 packets, 1 "
                "flow: 95.0% (ours 94.2%).",
    "overshoot": "Our window overshoots more at the end of slow start. ns-3 adds one segment per ACK in slow start, "
                 "so with its delayed ACKs it grows about 1.5x per RTT, where counting the segments acknowledged "
                 "(RFC 3465, as Linux) doubles it; `python scripts/ns3_cwnd.py` prints both windows for a cell.",
    "rate sample": "ns-3's BBR measures delivery rates above the link's. Its rate sample (TcpRateLinux, "
                   "src/internet/model/tcp-rate-ops.cc) is kept across ACKs, and SkbDelivered renews its ACK "
                   "interval only for a segment sent after more data was delivered than the sample's "
                   "m_priorDelivered; an ACK whose segments were all sent at that same count keeps the previous "
                   "ACK's interval while GenerateSample counts the new data, so the rate comes out too high. "
                   "Linux starts every ACK with a fresh sample (net/ipv4/tcp_input.c `tcp_ack`, `struct rate_sample "
                   "rs = { .prior_delivered = 0 }`); the same samples timed that way never exceed the link. BBR's "
                   "10-round maximum filter keeps the high sample, so ns-3 paces faster than the link drains and its "
                   "queue grows until the 2-BDP window stops it: a standing queue our side, which takes the sample "
                   "per ACK, does not build.",
    "seeds": "A cell's runs depend on their seed where something in them is random: which packets random loss drops "
             "(one cell's utilization moves by several points from seed to seed on either side) and BBR flows' "
             "gain-cycle phases; several flows with nothing random depend on their start phase instead (which flow "
             "loses at the first overflow follows from it), so there seed s starts the flows (s - 1) x 0.5 ms further "
             "apart than the study's 0.1 s, on both sides. Utilization is counted, on both sides, as ns-3's PacketSink "
             "counts it: the data the receiving applications got in order after the warm-up, so a run whose flows "
             "hold data behind a hole at the warm-up's start or at the end (after a timeout) moves by several points "
             "with where its holes fall. A cell's value is the mean over its seeds; where that "
             "mean differs by more than the bounds but the difference is not significant by the rule every claim of "
             "this book is decided by (Welch's t-test, 5%), these runs do not show that the two simulators differ: "
             "the seeds' spread is as large as the difference.",
    "PRR": "ns-3's proportional rate reduction counts each duplicate ACK twice. TcpSocketBase::DupAck passes "
           "TcpPrrRecovery::DoRecovery the bytes the ACK's SACK blocks newly cover, and DoRecovery adds a segment "
           "more for every duplicate ACK (`if (isDupAck && m_prrDelivered < m_recoveryFlightSize) deliveredBytes += "
           "tcb->m_segmentSize`, src/internet/model/tcp-prr-recovery.cc), a rule RFC 6937 keeps for ACKs without SACK. "
           "PRR then sends up to twice ssthresh / RecoverFS per segment delivered: for CUBIC (beta 0.7) more than it "
           "delivers, into a queue still full from the loss, so segments sent in the recovery are dropped and a "
           "second recovery cuts the window again right after the first (CUBIC, 10 Mbit/s, 69 packets, 1 flow: the "
           "first 14 duplicate ACKs of the recovery at 7.14 s released 18 new segments, 5 were dropped, and cwnd went "
           "104 -> 73 -> 52 packets, where ours goes 104 -> 73). The lower window keeps ns-3's queue shorter (42 "
           "packets on average from warm-up on, ours 57). Our PRR counts what the SACKs deliver once "
           "(simulator/tcp/sack_sender.pyx). With the extra segment left out (`python scripts/ns3_cwnd.py "
           "'{\"algorithm\": \"cubic\", \"bottleneck_mbps\": 10, \"buffer_pkts\": 69}' --prr-rfc6937`) ns-3's mean RTT in that cell is 113.5 ms (ours 111.1), its utilization 96.4% (ours "
           "96.4%), with no timeout; with 9 packets its utilization is 95.0% instead of 86.8% (ours 94.2%), with no "
           "timeout. The same change in the cells with 0.1% random loss (10 Mbit/s, 9 packets, 1 flow; the same five "
           "seeds, `--loss-pct 0.1 --seed 1` to `5`) gives ns-3 85.4% for CUBIC instead of 78.6% (ours 85.2%) and "
           "96.6% for Vegas instead of 92.4% (ours 95.9%), with no timeout in any run.",
    "late start": "Vegas cannot tell a queue that stood when a flow started from the path's own delay: its base RTT "
                  "is the least RTT it has seen, so a flow that starts while others queue counts their queue as path "
                  "and keeps it, and the queue the flows hold is set by their bases. Both sides open each connection "
                  "with a SYN exchange whose sample seeds the srtt Vegas reads (ns-3: TcpSocketBase::EstimateRtt, "
                  "and TcpVegas::PktsAcked takes `m_tcb->m_srtt`; ours: the `ns3` stack's `handshake`), and in the "
                  "10 Mbit/s, 69-packet cell (seed 1) the first four flows take the same bases on both sides: 40.3, "
                  "47.1, 53.8 and 91.5 ms in ns-3, 40.3, 47.3, 53.4 and 92.2 ms in ours. They part in the next two "
                  "seconds: ns-3's queue fell to 33 packets by 3 s, ours to 45, so ns-3's flows 4 and 5 lowered their "
                  "bases to 77.5 and 69.1 ms where ours kept 90.2 and 91.8 ms, and from then on each side holds the "
                  "queue its bases imply (ns-3 32-33 packets, ours 45-46). We have not traced why ns-3's queue drained "
                  "further in those seconds. `python scripts/ns3_vegas_base.py '{\"bottleneck_mbps\": 10, "
                  "\"buffer_pkts\": 69, \"flows\": 5}' --every 1` prints both sides' bases and queues.",
    "SACKed retransmission": f"{NS3} counts a retransmitted segment that the receiver has since SACKed as still in "
        "flight: TcpTxBuffer::Update clears a newly SACKed segment's lost mark but neither its retransmit mark nor the "
        "buffer's `m_retrans`, and BytesInFlight adds `m_retrans` back until the cumulative ACK passes the segment or a "
        "timeout clears every mark (SetSentListLost). ns-3 has fixed this since (its issue #1190, ns-3-dev commit "
        "380573ef1, in no release up to 3.48). When the retransmission of a hole is lost again, the segments SACKed "
        "meanwhile fill ns-3's window and the flow sends nothing until its 1 s timeout; our sender takes a SACKed "
        "retransmission out of flight, as RFC 6675 and Linux do, so our flows keep sending through such a recovery: "
        "more segments dropped and resent, and more data held behind holes, which moves the in-order utilization "
        "from seed to seed. With the fix emulated in ns-3 (`python scripts/ns3_cwnd.py '{\"algorithm\": \"bbr\", "
        "\"bottleneck_mbps\": 10, \"buffer_pkts\": 9, \"flows\": 5}' --fix-1190`, seeds 1 to 5; about 2,300 "
        "SACKed retransmissions a run taken out of flight), ns-3 retransmits 3,373 segments in that cell instead of "
        "1,854 (ours 3,049) and enters its timeout state 10 times instead of 39; with 0.1% loss 3,426 instead of "
        "1,967 (ours 3,219); with 69 packets 2,766 instead of 1,912 (ours 2,332). So the fix brings ns-3's "
        "retransmissions to ours. Utilization counted in order, as ns-3's PacketSink counts it and the table compares "
        "it, moves by up to ten points from run to run with how much data a hole holds back at the warm-up's start "
        "and at the end, on both sides, so it cannot show this; counted as the data that reached the receivers (the "
        "script adds what their sockets hold out of order; the studies count utilization this way) it can: in the "
        "9-packet cell without loss ns-3 carries 92.8% (sd 0.6) as it is and 95.7% (sd 0.5) with the fix, ours 95.1% "
        "(sd 0.9). At 100 Mbit/s with 86 packets, 5 flows and 0.1% loss, when that cell still ran 20 s (it runs "
        "12 s and 3 seeds now), the fix was run for seed 1 only (a run takes "
        "1.5 hours instead of 10 minutes: with the fix ns-3's flows keep sending behind a hole, and ns-3 searches its "
        "send buffer segment by segment): ns-3 retransmits 19,244 segments instead of 8,213 (ours 20,902), enters its "
        "timeout state 26 times instead of 53, and carries 81.8% in order instead of 95.8% (ours 92.7%), 89.3% "
        "received instead of 92.3% (ours 92.2%). So in that cell the defect moves ns-3's utilization by more than "
        "the difference in the table, towards ours and beyond it in this seed. Over seeds 1 to 5 ns-3 as it is "
        "carries 94.1% received (sd 1.5) and ours 88.2% (sd 2.9); its BBR flows share the link far less evenly "
        "than ours (Jain's index 0.40 against 0.77), a sign of flows that wait out their timeouts while the "
        "others send.",
    "capacity": "ns-3's utilization exceeds what the link can carry: data that arrived before the warm-up ended "
                "but was held out of order (behind a segment lost to a timeout) is counted when it is delivered, "
                "after it; both sides count this way, so the excess is ns-3's backlog, not a faster link.",
}


def ns3_rtt_across_timeout(row) -> str:
    if abs(row["d_mean_rtt_pct"]) <= 100 * RTT_REL or row["ns3_rtt_sample_max_ms"] < NS3_MIN_RTO_MS:
        return ""
    return (f"ns-3's largest RTT sample is {number_format.num(row['ns3_rtt_sample_max_ms'])} ms on a path whose RTT "
            f"cannot exceed {number_format.num(row['ns3_path_rtt_max_ms'])} ms "
            f"({number_format.num(row['ns3_rtt_samples_over_path_pct'], 2)}% of its samples exceed it) [Karn]")


def ns3_above_capacity(row) -> str:
    if abs(row["d_utilization_pp"]) <= UTILIZATION_PP or row["ns3_utilization_warm"] <= MAX_UTILIZATION:
        return ""
    return f"ns-3's utilization is above the {number_format.num(100 * MAX_UTILIZATION)}% the link can carry [capacity]"


def ns3_timed_out_more(row) -> str:
    if (not row["d_utilization_pp"] > UTILIZATION_PP or not row["ns3_timeouts"] >= row["ours_timeouts"] + 1
            or not row["ns3_timeouts"] >= TIMEOUTS_MORE * row["ours_timeouts"]
            or row["ns3_utilization_warm"] > MAX_UTILIZATION):
        return ""     # only where ns-3 carried less and took clearly more timeouts: a timeout idles the link
    return (f"ns-3 took {plural(row['ns3_timeouts'], 'retransmission timeout')}, ours "
            f"{number_format.num(row['ours_timeouts'])} [timeouts]")


def ns3_rate_above_link(row) -> str:
    """ns-3's BBR measured more than the link carries (beyond RATE_SLACK), where the same samples taken per ACK
    as Linux does stay within it, and ns-3's queue is the longer (its RTT above ours) or its link the busier."""
    over = row.get("ns3_rate_sample_max_over_link_pct", float("nan"))
    linux = row.get("ns3_rate_sample_linux_max_over_link_pct", float("nan"))
    if (row["algorithm"] != "bbr" or not over > 100 + RATE_SLACK_PCT or not linux <= 100 + RATE_SLACK_PCT
            or not (row["d_mean_rtt_pct"] < -100 * RTT_REL or row["d_utilization_pp"] < -UTILIZATION_PP)):
        return ""
    return (f"ns-3's BBR took a delivery-rate sample {number_format.num(over - 100, 2)}% above what the link "
            f"carries; timed per ACK as Linux does, its largest is {number_format.num(linux, 2)}% of it [rate sample]")


def within_seed_spread(row) -> str:
    """Every bound the cell is outside of, the difference there is not significant across the seeds of both sides
    (agreement.py's p by the one rule; NaN, from one seed, explains nothing)."""
    outside_on = [(m, p, unit) for m, p, d, bound, unit in (
        ("utilization_warm", "p_utilization", row["d_utilization_pp"], UTILIZATION_PP, "utilization"),
        ("mean_rtt_ms", "p_mean_rtt", row["d_mean_rtt_pct"], 100 * RTT_REL, "mean RTT")) if abs(d) > bound]
    if not outside_on or not all(row.get(p, float("nan")) >= ALPHA for _, p, _ in outside_on):
        return ""
    said = []
    for metric, p, what in outside_on:
        scale, unit = (100, "%") if metric == "utilization_warm" else (1, " ms")
        said.append(f"{what} ours {spread(row, 'ours', metric, scale, unit)}, ns-3 {spread(row, 'ns3', metric, scale, unit)}"
                    f" ({number_format.p_value(row[p])})")
    return (f"over {number_format.num(row['ours_n'])} seeds a side the difference is not significant: "
            + "; ".join(said) + " [seeds]")


def spread(row, side, metric, scale, unit) -> str:
    """'65.4% (sd 5.2)' of one side's seeds."""
    return (f"{number_format.num(scale * row[f'{side}_{metric}'])}{unit} "
            f"(sd {number_format.num(scale * row[f'{side}_{metric}_sd'], 2)})")


def ns3_prr_double_count(row) -> str:
    """ns-3's cwnd rose during a fast recovery beyond PRR's rounding (its duplicate-ACK double count) and a
    recovery began with a segment sent during the one before, both after warm-up; and ns-3 is the side with
    the shorter queue (mean RTT) or the idler link (utilization): a second reduction lowers its window. Not BBR:
    ns-3's TcpBbr sets the window itself (CongControl, after the recovery ops), so PRR's count does not reach it."""
    rise = row.get("ns3_recovery_cwnd_rise_max_pkts", float("nan"))
    again = row.get("ns3_recoveries_lost_in_recovery", float("nan"))
    if (row["algorithm"] in OWN_WINDOW or not rise > PRR_RISE_PKTS or not again > 0
            or not (row["d_mean_rtt_pct"] > 100 * RTT_REL or row["d_utilization_pp"] > UTILIZATION_PP)):
        return ""
    return (f"ns-3's cwnd rose {number_format.num(rise)} packets above its value at the start of a fast "
            f"recovery, and {number_format.num(again)} of its {number_format.num(row['ns3_recoveries'])} fast "
            f"recoveries after warm-up began with the loss of a segment sent during the one before [PRR]")


def ns3_vegas_late_start_base(row) -> str:
    """A flow started into a queue (ns-3's largest handshake sample above its smallest by more than the RTT bound),
    and ours' RTT is above ns-3's and above every base RTT ns-3's Vegas flows held at the end, both by more than the
    bound: Vegas keeps a few packets per flow over its largest base RTT, so ours' late flows held higher bases."""
    base = row.get("ns3_vegas_base_rtt_max_ms", float("nan"))
    hs, hs_min = row.get("ns3_handshake_rtt_max_ms", float("nan")), row.get("ns3_handshake_rtt_ms", float("nan"))
    if (row["algorithm"] != "vegas" or not row["d_mean_rtt_pct"] > 100 * RTT_REL
            or not row["ours_mean_rtt_ms"] > (1 + RTT_REL) * base or not hs > (1 + RTT_REL) * hs_min):
        return ""
    return (f"ns-3's flows took their first RTT from the SYN exchange, {number_format.num(hs_min)} ms for the first "
            f"and up to {number_format.num(hs)} ms for those that started into a queue; its Vegas flows ended with "
            f"base RTTs of at most {number_format.num(base)} ms, while ours ran at "
            f"{number_format.num(row['ours_mean_rtt_ms'])} ms; ns-3 took "
            f"{plural(row['ns3_timeouts'], 'retransmission timeout')}, ours {number_format.num(row['ours_timeouts'])} "
            "[late start]")


def ns3_sacked_retx_stall(row) -> str:
    """Several BBR flows, and ours retransmitted OVERSHOOT times as much as ns-3: ns-3 3.44's flows stall in a
    recovery whose retransmissions were SACKed (its issue #1190), where ours keep sending."""
    if (row["algorithm"] != "bbr" or not row["flows"] > 1
            or not row["ours_retransmissions"] > OVERSHOOT * row["ns3_retransmissions"]):
        return ""
    return (f"ns-3 retransmitted {number_format.num(row['ns3_retransmissions'])} segments, ours "
            f"{number_format.num(row['ours_retransmissions'])} [SACKed retransmission]")


def plural(n, noun) -> str:
    return f"{number_format.num(n)} {noun}{'' if n == 1 else 's'}"


def our_overshoot(row) -> str:
    if row["algorithm"] not in ("newreno", "cubic") or not row["ours_retransmissions"] > OVERSHOOT * row["ns3_retransmissions"]:
        return ""
    return (f"ours retransmitted {number_format.num(row['ours_retransmissions'])} segments, ns-3 "
            f"{number_format.num(row['ns3_retransmissions'])} [overshoot]")


# each reads the evidence in a cell's row: its sentence naming the cause, or "" when it is not the cell's
CAUSES = (ns3_rtt_across_timeout, ns3_above_capacity, ns3_timed_out_more, our_overshoot, ns3_rate_above_link,
          ns3_vegas_late_start_base, ns3_prr_double_count, ns3_sacked_retx_stall, within_seed_spread)
FACTOR_LABELS = {"algorithm": "algorithm", "bottleneck_mbps": "rate (Mbit/s)", "buffer_pkts": "buffer (packets)",
                 "flows": "flows", "loss_fwd_pct": "loss (%)", "duration": "simulated (s)"}


def load(path) -> pd.DataFrame:
    """The agreement table (simulator/validation/agreement.py)."""
    return pd.read_csv(path)


def answer(table: pd.DataFrame) -> str:
    """The chapter's first sentence: how many cells agree within the bounds."""
    c = counts(table)
    text = (f"**{c['inside']} of the {c['compared']} cells run in both simulators agree** within "
            f"{UTILIZATION_PP:g} percentage points of utilization and {100 * RTT_REL:g}% of mean RTT; "
            f"{c['outside']} do not.")
    if c["not_compared"]:
        text += f" {c['not_compared']} of the {c['cells']} cells are not compared: a side's run is missing."
    return text + unfinished_text(table)


def unfinished_text(table: pd.DataFrame) -> str:
    """The ns-3 runs that did not finish (their cells are compared on ns-3's other seeds), said with the cell."""
    if "ns3_unfinished" not in table.columns:
        return ""
    rows = table[table["ns3_unfinished"].fillna("").astype(str) != ""]
    if rows.empty:
        return ""
    items = "; ".join(f"{cell_name(r)}, {r.ns3_unfinished}" for r in rows.itertuples())
    return (f" ns-3 did not finish {len(rows)} run(s), which were stopped; their cells are compared on ns-3's other "
            f"seeds: {items}.")


def cell_name(r) -> str:
    """'BBR, 100 Mbit/s, 690 packets, 5 flows, 0.1% loss'."""
    loss = f", {number_format.num(r.loss_fwd_pct)}% loss" if r.loss_fwd_pct else ""
    return (f"{style.label(r.algorithm)}, {number_format.num(r.bottleneck_mbps)} Mbit/s, "
            f"{number_format.num(r.buffer_pkts)} packets, {int(r.flows)} flow{'s' if r.flows > 1 else ''}{loss}")


def shown(table: pd.DataFrame) -> pd.DataFrame:
    """The side-by-side table as the book shows it (number_format cells, units in headers)."""
    out = pd.DataFrame({FACTOR_LABELS[k]: table[k].map(lambda v: style.label(v) if isinstance(v, str)
                                                          else number_format.num(v)) for k in FACTOR_LABELS})
    pairs = [("utilization (%)", "utilization_warm", 100), ("mean RTT (ms)", "mean_rtt_ms", 1),
             ("Jain", "jain", 1), ("retransmissions", "retransmissions", 1), ("timeouts", "timeouts", 1)]
    for title, metric, scale in pairs:
        out[f"{title} ours"] = (scale * table[f"ours_{metric}"]).map(number_format.num)
        out[f"{title} ns-3"] = (scale * table[f"ns3_{metric}"]).map(number_format.num)
    out["Δ utilization (pp)"] = table["d_utilization_pp"].map(lambda v: number_format.num(v, 2))
    out["Δ mean RTT (%)"] = table["d_mean_rtt_pct"].map(lambda v: number_format.num(v, 2))
    out["agrees"] = table["agrees"].map(lambda v: "–" if pd.isna(v) else ("yes" if v in (True, "True") else "**no**"))
    return out


def outside(table: pd.DataFrame) -> pd.DataFrame:
    """The compared cells outside the bounds."""
    return table[table["agrees"].isin([False, "False"])]


def seeds_text(table: pd.DataFrame) -> str:
    """'one seed a cell', or which cells ran more (simulator/validation/cells.py seeds: random loss with a
    loss-based algorithm, several BBR flows, several other flows' start phases), from the seeds the table's cells
    actually ran."""
    n = table["seeds"].fillna(1).astype(int)
    if (n == 1).all():
        return "one seed"
    kinds = []
    if (n[(table["loss_fwd_pct"] > 0) & (table["algorithm"] != "bbr")] > 1).any():
        kinds.append("random loss with NewReno, CUBIC or Vegas")
    if (n[(table["algorithm"] == "bbr") & (table["flows"] > 1)] > 1).any():
        kinds.append("several BBR flows")
    if (n[(table["algorithm"] != "bbr") & (table["flows"] > 1) & ~(table["loss_fwd_pct"] > 0)] > 1).any():
        kinds.append("the start phase of several NewReno, CUBIC or Vegas flows without loss")
    more = " or ".join(map(str, sorted(set(n[n > 1]))))
    return f"mean over {more} seeds where a run depends on its seed or start phase ({'; '.join(kinds)}), one seed elsewhere"


def describe(row) -> str:
    """'CUBIC, 100 Mbit/s, 86 packets, 5 flows, no loss'."""
    loss = f"{number_format.num(row['loss_fwd_pct'])}% loss" if row["loss_fwd_pct"] else "no loss"
    return (f"{style.label(row['algorithm'])}, {number_format.num(row['bottleneck_mbps'])} Mbit/s, "
            f"{number_format.num(row['buffer_pkts'])} packets, {number_format.num(row['flows'])} "
            f"flow{'s' if row['flows'] != 1 else ''}, {loss}")


def reason(row) -> str:
    """Why one cell is outside the bounds, from the evidence in its row."""
    found = [t for t in (cause(row) for cause in CAUSES) if t]
    return "; ".join(found) + "." if found else "Not explained yet."


def explanations(table: pd.DataFrame) -> str:
    """One line per cell outside the bounds (the cell, both values, its causes), then what each cause
    named is."""
    rows = outside(table)
    if rows.empty:
        return "Every compared cell is inside the bounds."
    out = []
    for _, r in rows.iterrows():
        out.append(f"- **{describe(r)}**: utilization {number_format.num(100 * r['ours_utilization_warm'])}% (ours) "
                   f"vs {number_format.num(100 * r['ns3_utilization_warm'])}% (ns-3), mean RTT "
                   f"{number_format.num(r['ours_mean_rtt_ms'])} vs {number_format.num(r['ns3_mean_rtt_ms'])} ms: {reason(r)}")
    named = [k for k in CAUSE_TEXT if any(f"[{k}]" in line for line in out)]
    out += [""] + [f"**[{k}]** {CAUSE_TEXT[k]}\n" for k in named]
    return "\n".join(out)


def figure(table: pd.DataFrame):
    """Ours against ns-3: utilization and mean RTT, one point per cell, the bounds shaded."""
    import matplotlib.pyplot as plt
    import numpy as np

    fig, axes = plt.subplots(1, 2, figsize=(10, 4.2))
    for ax, metric, scale, unit in ((axes[0], "utilization_warm", 100, "utilization (%)"),
                                    (axes[1], "mean_rtt_ms", 1, "mean RTT (ms)")):
        both = table.dropna(subset=[f"ours_{metric}", f"ns3_{metric}"])
        x_all = scale * both[f"ns3_{metric}"]
        lo, hi = (float(x_all.min()), float(x_all.max())) if len(both) else (0.0, 1.0)
        line = np.geomspace(max(lo * 0.9, 1e-3), hi * 1.05, 50)
        band = (line - UTILIZATION_PP, line + UTILIZATION_PP) if metric == "utilization_warm" \
            else (line * (1 - RTT_REL), line * (1 + RTT_REL))
        ax.fill_between(line, *band, color="0.85", label="bound")
        ax.plot(line, line, color="0.5", lw=0.8)
        for alg in style.order(both["algorithm"].unique()):
            part = both[both["algorithm"] == alg]
            ax.scatter(scale * part[f"ns3_{metric}"], scale * part[f"ours_{metric}"], s=22,
                       color=style.PALETTE.get(alg), label=style.label(alg),
                       marker="o", edgecolors="none")
        if metric == "mean_rtt_ms":      # ns-3's wrong RTTs (chapter: [Karn]) run to seconds
            from matplotlib.ticker import FixedLocator, NullFormatter, ScalarFormatter

            ax.set_xscale("log")
            ax.set_yscale("log")
            for axis in (ax.xaxis, ax.yaxis):     # plain numbers at 1-2-5 ticks; unlabelled minor ticks
                axis.set_major_locator(FixedLocator(RTT_TICKS_MS))
                axis.set_major_formatter(ScalarFormatter())
                axis.set_minor_formatter(NullFormatter())
        ax.set_xlabel(f"{NS3}: {unit}{' (log scale)' if metric == 'mean_rtt_ms' else ''}")
        ax.set_ylabel(f"ours: {unit}{' (log scale)' if metric == 'mean_rtt_ms' else ''}")
    axes[0].legend(loc="upper left")
    fig.tight_layout()
    return fig


def caption(table: pd.DataFrame) -> str:
    c = counts(table)
    return (f"Figure: each of the {c['compared']} cells run in both simulators, ours against ns-3's value "
            f"(grey band: within {UTILIZATION_PP:g} percentage points of utilization, {100 * RTT_REL:g}% of "
            f"mean RTT; the line: equality; mean RTT on logarithmic axes). Made from `{study_files.repo_path(STUDY)}` by "
            "`snakemake --cores all validation`.")
