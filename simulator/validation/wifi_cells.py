"""The Wi-Fi cells we compare with ns-3 (simulator/validation/ns3_wifi.py our side and the records,
ns3_wifi_peer.py ns-3's side): each cell's parameters, its name, and the spans both sides measure."""
from __future__ import annotations

UDP_PAYLOAD, IP_PACKET = 1472, 1500
START_S, WARM_S = 1.0, 1.5          # the sources start, the measurement starts
DURATION_S = 3.0                     # the sources send from START_S for this long
TCP_QUEUE = 1000                     # the access point's MAC queue, packets (ours: ap_buffer_pkts)
TCP_START_S, TCP_WARM_S, TCP_END_S, TCP_SAMPLE_S = 1.0, 6.0, 20.0, 0.1
TCP_TYPES = {"cubic": "TcpCubic", "newreno": "TcpNewReno", "bbr": "TcpBbr"}
LOSS_BASED = ("cubic", "newreno")
HT20 = {"standard": "n", "channel_mhz": 20, "mcs": 7, "streams": 1}
VHT80 = {"standard": "ac", "channel_mhz": 80, "mcs": 9, "streams": 1}
RATE_WARM_S, RATE_END_S = 3.0, 6.0   # SNR cells: Minstrel has 2 s to settle, then 3 s are measured
NOISE_FIGURE_DB = 7                   # ns-3's RxNoiseFigure default: the noise floor the SNR is over


def snr_cells() -> list[dict]:
    """Cells with MPDU errors from the SNR (ns-3's NIST model, ours wifi_phy.log_bit_success), one station:
    a fixed MCS where a quarter, a twentieth or a sixth of the MPDUs fail; Minstrel-HT at SNRs where
    MCS 3, 5, 7 (802.11n) or 3, 5, 8, 9 (802.11ac) is the fastest that gets through; TCP CUBIC under
    Minstrel.  The SNRs are chosen from our error model's curves before any run, away from the points
    where two MCSs tie."""
    out = [{**HT20, "stations": 1, "direction": "up", "aggregation": True, "rate": "fixed", "snr_db": snr}
           for snr in (23.5, 24.0)]
    out.append({**VHT80, "stations": 1, "direction": "down", "aggregation": True, "rate": "fixed", "snr_db": 29.5})
    for phy, snrs in ((HT20, (15, 22, 27)), (VHT80, (15, 22, 28, 33))):
        out += [{**phy, "stations": 1, "direction": "down", "aggregation": True, "rate": "minstrel", "snr_db": snr}
                for snr in snrs]
    for phy, snr in ((HT20, 22), (VHT80, 28)):
        out.append({**phy, "stations": 1, "direction": "down", "aggregation": True, "rate": "minstrel",
                    "snr_db": snr, "tcp": "cubic"})
    return out


def cells() -> list[dict]:
    """Every cell: cells_without_long(), then NewReno's long TCP cells."""
    return cells_without_long() + long_cells()


def cells_without_long() -> list[dict]:
    """The matrix: UDP saturation with 802.11n 20 MHz MCS 7 and 802.11ac 80 MHz MCS 9 (one stream each), 1-4
    stations, uplink and downlink, A-MPDU on and off (802.11ac: off only for one station); then one TCP bulk
    flow down to one station, CUBIC and NewReno, on each PHY."""
    out = []
    for phy, counts in ((HT20, (1, 2, 3, 4)), (VHT80, (1, 2, 4))):
        for n in counts:
            for direction in ("up", "down"):
                for agg in (True, False):
                    if agg or phy is HT20 or n == 1:
                        out.append({**phy, "stations": n, "direction": direction, "aggregation": agg})
    for phy in (HT20, VHT80):
        for cc in LOSS_BASED:
            out.append({**phy, "stations": 1, "direction": "down", "aggregation": True, "tcp": cc})
    return out + snr_cells() + relay_cells() + bbr_cells() + both_cells() + uplink_cells() + station_cells()


LONG_END_S = 200.0


def long_cells() -> list[dict]:
    """The loss-based TCP cells with a fixed MCS again over 200 s: NewReno's sawtooth after a loss lasts about
    half a window of round trips, CUBIC's about (0.3 W / 0.4)^(1/3) s (9 s at these windows), neither shorter
    than the 14 s the other cells measure, so their mean RTT depends on where in a sawtooth the span falls; over
    194 s it averages several."""
    return [{**c, "end_s": LONG_END_S} for c in cells_without_long()
            if c.get("tcp") in LOSS_BASED and "snr_db" not in c]


def tcp_end(cell: dict) -> float:
    """When a TCP cell's measurement ends, s."""
    return cell.get("end_s", TCP_END_S)


def relay_cells() -> list[dict]:
    """One TCP bulk flow from a station to another through the access point (the testbed's WiFi-WiFi set-up:
    every packet and every ACK crosses the air twice), CUBIC and NewReno on each PHY, no frame errors."""
    return [{**phy, "stations": 2, "direction": "relay", "aggregation": True, "tcp": cc}
            for phy in (HT20, VHT80) for cc in LOSS_BASED]


def station_cells() -> list[dict]:
    """TCP CUBIC from the wired server to 2 and 4 stations at once, a bulk flow each: the access point's one
    backoff shares the air between its stations' A-MPDUs."""
    return [{**phy, "stations": n, "direction": "down", "aggregation": True, "tcp": "cubic"}
            for phy in (HT20, VHT80) for n in (2, 4)]


def uplink_cells() -> list[dict]:
    """One TCP bulk flow from a station through the access point to the wired server, CUBIC and NewReno on each
    PHY: the station's backoff carries the data and the access point's the ACKs."""
    return [{**phy, "stations": 1, "direction": "up", "aggregation": True, "tcp": cc}
            for phy in (HT20, VHT80) for cc in LOSS_BASED]


def both_cells() -> list[dict]:
    """UDP saturation both ways at once: every station sends to the access point and the access point to every
    station (one backoff for all its links), 1, 2 or 4 stations, A-MPDU."""
    return [{**phy, "stations": n, "direction": "both", "aggregation": True}
            for phy in (HT20, VHT80) for n in (1, 2, 4)]


def bbr_cells() -> list[dict]:
    """BBR (ns-3's TcpBbr, ours bbr) down to a station and from station to station: whether BBR's window of
    two estimated BDPs at millisecond round trips fills the A-MPDUs on both simulators; then the same with
    ns-3's TCP timestamps off (`timestamps: False`, ns-3's side only): they count whole milliseconds, and
    ns-3 takes a zero reading for 1 us, which its BBR keeps as the path's minimum round trip."""
    out = [{**phy, "stations": n, "direction": d, "aggregation": True, "tcp": "bbr"}
           for phy in (HT20, VHT80) for d, n in (("down", 1), ("relay", 2))]
    return out + [{**c, "timestamps": False} for c in out]


def name(cell: dict) -> str:
    """'n20-mcs7-up-4sta-ampdu', 'ac80-mcs9-down-1sta-tcp-cubic': a cell's key in the records."""
    tail = f"tcp-{cell['tcp']}" if cell.get("tcp") else ("ampdu" if cell["aggregation"] else "single")
    rate = "minstrel" if cell.get("rate") == "minstrel" else f"mcs{cell['mcs']}"
    snr = f"-snr{cell['snr_db']:g}" if "snr_db" in cell else ""
    span = f"-{cell['end_s']:g}s" if "end_s" in cell else ""
    stamps = "-nots" if cell.get("timestamps") is False else ""
    return (f"{cell['standard']}{cell['channel_mhz']}-{rate}-{cell['direction']}-{cell['stations']}sta-{tail}{snr}"
            f"{span}{stamps}")


def by_name(cell_name: str) -> dict:
    found = [c for c in cells() if name(c) == cell_name]
    if not found:
        raise ValueError(f"no Wi-Fi cell {cell_name!r}; allowed: {', '.join(name(c) for c in cells())}")
    return found[0]


# ------------------------------------------------------------------ ours


def udp_span(cell: dict) -> tuple:
    """(from, to) s of a UDP cell's measurement; its sources send from START_S to `to`."""
    return (RATE_WARM_S, RATE_END_S) if "snr_db" in cell else (WARM_S, START_S + DURATION_S)
