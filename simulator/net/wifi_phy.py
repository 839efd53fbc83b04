"""802.11n/ac PHY tables and the medium's configuration: data rates, preamble lengths, the EDCA
access categories and the checked parameters of simulator/net/wifi.params.yaml.

Sources (IEEE Std 802.11-2016): HT rates and TXTIME, 19.5 Tables 19-27..19-34 and 19.4.3
(eq. 19-135); VHT rates and TXTIME, 21.5 Tables 21-30..21-45 and 21.4.3; non-HT OFDM TXTIME, 17.4.3;
slot, SIFS (5 GHz OFDM), 17.4.4 Table 17-21; EDCA defaults, 9.4.2.29 Table 9-137.  The rates are
computed from the standard's own parameters (data subcarriers, bits per subcarrier, code rate), as
its tables are; tests/test_wifi_mac.py pins a sample against the printed tables.
"""
from __future__ import annotations

import functools
import math
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

import jsonschema

from simulator.params import load_params

PARAMS_FILE = Path(__file__).with_name("wifi.params.yaml")

SIFS_US = 16
SLOT_US = 9
DIFS_US = SIFS_US + 2 * SLOT_US          # 34 us
ACK_BYTES = 14                           # ACK frame: FC, duration, RA, FCS
BLOCK_ACK_BYTES = 32                     # compressed BlockAck: 16 + BA control 2 + SSC 2 + bitmap 8 + FCS 4
MAC_OVERHEAD_BYTES = 26 + 4 + 8          # QoS data header, FCS, LLC/SNAP around each IP packet
DELIMITER_BYTES = 4                      # A-MPDU subframe delimiter

# (AIFSN, CWmin, CWmax) per access category, Table 9-137 (aCWmin 15, aCWmax 1023); DCF uses DIFS
EDCA = {"DCF": (2, 15, 1023), "BK": (7, 15, 1023), "BE": (3, 15, 1023), "VI": (2, 7, 15), "VO": (2, 3, 7)}

# per MCS: (bits per subcarrier, code rate); HT uses 0-7, VHT adds 256-QAM 8-9
MODULATION = [(1, Fraction(1, 2)), (2, Fraction(1, 2)), (2, Fraction(3, 4)), (4, Fraction(1, 2)),
              (4, Fraction(3, 4)), (6, Fraction(2, 3)), (6, Fraction(3, 4)), (6, Fraction(5, 6)),
              (8, Fraction(3, 4)), (8, Fraction(5, 6))]
DATA_SUBCARRIERS = {20: 52, 40: 108, 80: 234}
# non-HT OFDM data bits per symbol at the basic rates (Table 17-4)
NON_HT_DBPS = {6: 24, 12: 48, 24: 96}


@dataclass(frozen=True)
class PhyMode:
    """One data rate: what the PPDU duration formula needs."""
    standard: str
    channel_mhz: int
    streams: int
    mcs: int
    guard_ns: int
    dbps: int            # data bits per OFDM symbol
    encoders: int        # BCC encoders (6 tail bits each)
    preamble_us: int     # legacy + HT/VHT training and signal fields

    @property
    def rate_mbps(self) -> float:
        return self.dbps / (3.6 if self.guard_ns == 400 else 4.0)


def preamble_us(standard: str, streams: int) -> int:
    """L-STF 8 + L-LTF 8 + L-SIG 4, then HT-SIG 8 + HT-STF 4 + 4 per HT-LTF (19.4.3), or
    VHT-SIG-A 8 + VHT-STF 4 + 4 per VHT-LTF + VHT-SIG-B 4 (21.4.3); 1-2 streams use 1-2 LTFs."""
    return 20 + 8 + 4 + 4 * streams + (4 if standard == "ac" else 0)


def phy_mode(standard: str, channel_mhz: int, streams: int, mcs: int, guard_ns: int) -> PhyMode:
    """The rate of one MCS; ValueError for a combination the standard leaves out."""
    if standard == "n" and (mcs > 7 or channel_mhz == 80):
        raise ValueError(f"802.11n has MCS 0-7 per stream at 20 or 40 MHz, not MCS {mcs} at {channel_mhz} MHz")
    bits, rate = MODULATION[mcs]
    dbps = DATA_SUBCARRIERS[channel_mhz] * bits * rate * streams
    if dbps.denominator != 1:
        raise ValueError(f"VHT MCS {mcs} with {streams} stream(s) at {channel_mhz} MHz is not a valid "
                         f"rate (N_DBPS {float(dbps):.2f} not an integer; excluded in Table 21-30)")
    # one BCC encoder per 270 (HT) / 540 (VHT) Mbit/s of long-GI rate (the tables' N_ES column)
    dbps = int(dbps)
    encoders = max(1, math.ceil(dbps / 4.0 / (270 if standard == "n" else 540) - 1e-9))
    return PhyMode(standard, channel_mhz, streams, mcs, guard_ns, dbps, encoders, preamble_us(standard, streams))


def rate_table(standard: str) -> dict:
    """{(channel MHz, streams, GI ns, mcs): Mbit/s} of every valid rate of 802.11n or ac."""
    widths = (20, 40) if standard == "n" else (20, 40, 80)
    out = {}
    for w in widths:
        for ss in (1, 2):
            for gi in (800, 400):
                for mcs in range(8 if standard == "n" else 10):
                    try:
                        out[(w, ss, gi, mcs)] = phy_mode(standard, w, ss, mcs, gi).rate_mbps
                    except ValueError:
                        pass
    return out


def non_ht_us(nbytes: int, rate_mbps: int) -> int:
    """TXTIME of a non-HT OFDM frame (17.4.3): 20 us preamble + 4 us per symbol of
    16 service + 8 * length + 6 tail bits."""
    return 20 + 4 * math.ceil((16 + 8 * nbytes + 6) / NON_HT_DBPS[rate_mbps])


# keys that only one setting reads: (key, the setting it needs)
NEEDS = {"snr_db": ("error_model", "snr"), "rate_update_ms": ("rate_control", "minstrel"),
         "rate_ewma_pct": ("rate_control", "minstrel"), "airtime_quantum_us": ("airtime_fairness", True)}


def check_key_use(cfg: dict, given: dict) -> None:
    """A key the channel would not read, set to other than its default, is an error, not ignored."""
    for key, (setting, value) in NEEDS.items():
        if given.get(key, LATE_DEFAULTS[key]) != LATE_DEFAULTS[key] and cfg[setting] != value:
            raise ValueError(f"{PARAMS_FILE.name}: key '{key}' applies with {setting}: {value} only, and this channel "
                             f"has {setting}: {cfg[setting]}; allowed: drop it, or set {setting}: {value}")
    if cfg["error_model"] == "snr" and cfg["mpdu_error_rate"] != 0:
        raise ValueError(f"{PARAMS_FILE.name}: key 'mpdu_error_rate' ({cfg['mpdu_error_rate']}) applies with "
                         f"error_model: fixed only; with error_model: snr the errors come from snr_db; allowed: "
                         f"mpdu_error_rate: 0, or error_model: fixed")


# keys added after results existed: out of a run's key at their defaults, so every earlier run keeps its
# key (and its random streams)
LATE_DEFAULTS = {"error_model": "fixed", "snr_db": 25, "rate_control": "fixed", "rate_update_ms": 50,
                 "rate_ewma_pct": 75, "airtime_fairness": False, "airtime_quantum_us": 256,
                 "driver_queue_pkts": 0}


def key_params(cfg: dict) -> dict:
    """The configuration a run's random streams are keyed by."""
    return {k: v for k, v in cfg.items() if not (k in LATE_DEFAULTS and v == LATE_DEFAULTS[k])}


def declared() -> dict:
    """{name: Param} of wifi.params.yaml."""
    return {p.name: p for p in load_params(PARAMS_FILE)}


@functools.cache
def _checkers() -> tuple:
    """(declarations, {name: a validator of its schema}), made once: a study of a thousand Wi-Fi points checks
    every key of each, and building a validator (checking the schema itself) costs most of that."""
    decl = declared()
    out = {}
    for name, p in decl.items():
        cls = jsonschema.validators.validator_for(p.schema)
        cls.check_schema(p.schema)
        out[name] = cls(p.schema)
    return decl, out


def wifi_config(params: dict) -> dict:
    """The medium's parameters with defaults applied, each checked against its declaration and the
    standard's combinations; ValueError naming the file, key and allowed values otherwise."""
    decl, checkers = _checkers()
    unknown = sorted(set(params) - set(decl))
    if unknown:
        raise ValueError(f"{PARAMS_FILE.name}: unknown key(s) {unknown}; allowed: {sorted(decl)}")
    out = {name: params.get(name, p.default) for name, p in decl.items()}
    for name, value in out.items():
        e = jsonschema.exceptions.best_match(checkers[name].iter_errors(value))     # as jsonschema.validate picks
        if e is not None:
            raise ValueError(f"{PARAMS_FILE.name}: key '{name}': {value!r} is not allowed "
                             f"({decl[name].schema}): {e.message}")
    check_key_use(out, params)
    try:
        phy_mode(out["standard"], out["channel_mhz"], out["spatial_streams"], out["mcs"], out["guard_interval_ns"])
    except ValueError as e:
        raise ValueError(f"{PARAMS_FILE.name}: keys 'standard', 'channel_mhz', 'spatial_streams', 'mcs': {e}") from None
    return out


# ------------------------------------------------------------------ the SNR error model (error_model: snr)
# NIST's OFDM error model (Pei and Henderson, "Validation of OFDM error rate model in ns-3", 2010), as ns-3's
# NistErrorRateModel applies it to HT and VHT: an uncoded M-QAM bit error rate at the SNR, then a union
# bound on the error events of the 802.11 convolutional code punctured to the MCS's rate, and an MPDU of
# b bits received with probability (1 - pe) ** b.  tests/test_wifi_errors.py pins it to ns-3's own values.
# Union-bound coefficients per code rate: (first distance, [a_d ...]) and the divisor 2 * b of the puncturing
CODE_BOUNDS = {
    Fraction(1, 2): (10, 1, [36, 0, 211, 0, 1404, 0, 11633, 0, 77433, 0, 502690, 0, 3322763, 0, 21292910, 0,
                             134365911]),
    Fraction(2, 3): (6, 2, [3, 70, 285, 1276, 6160, 27128, 117019, 498860, 2103891, 8784123]),
    Fraction(3, 4): (5, 3, [42, 201, 1492, 10469, 62935, 379644, 2253373, 13073811, 75152755, 428005675]),
    Fraction(5, 6): (4, 5, [92, 528, 8694, 79453, 792114, 7375573, 67884974, 610875423, 5427275376,
                            47664215639]),
}


def qam_ber(snr: float, bits: int) -> float:
    """Uncoded bit error rate of BPSK (1 bit), QPSK (2) or square M-QAM (4, 6, 8 bits) at a linear SNR."""
    if bits == 1:
        return 0.5 * math.erfc(math.sqrt(snr))
    m = 2 ** bits                        # QPSK is 4-QAM here: 0.5 erfc(sqrt(snr / 2))
    z = math.sqrt(snr / (2.0 * (m - 1) / 3.0))
    return (1 - 1 / math.sqrt(m)) * math.erfc(z) * 2 / bits


def coded_bit_error(snr: float, mcs: int) -> float:
    """pe: the probability that a decoded bit is in error at MCS `mcs` and a linear SNR (capped at 1)."""
    bits, rate = MODULATION[mcs]
    p = qam_ber(snr, bits)
    if p == 0.0:
        return 0.0
    d = math.sqrt(4.0 * p * (1.0 - p))
    first, divisor, coeffs = CODE_BOUNDS[rate]
    pe = sum(a * d ** (first + i) for i, a in enumerate(coeffs)) / (2.0 * divisor)
    return min(pe, 1.0)


def log_bit_success(snr_db: float, mcs: int) -> float:
    """log(1 - pe) at an SNR in dB: an MPDU of b bits arrives with probability exp(b * this)."""
    pe = coded_bit_error(10 ** (snr_db / 10), mcs)
    return -math.inf if pe >= 1.0 else math.log1p(-pe)


def mpdu_error_rate(snr_db: float, mcs: int, mpdu_bytes: int) -> float:
    """The probability that an MPDU of mpdu_bytes is received in error."""
    return -math.expm1(8 * mpdu_bytes * log_bit_success(snr_db, mcs))
